"""The export format: a game played in memory exports, verifies offline, and every kind of
tampering is caught by the check it should be."""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import engines
from engines.core.bots import RandomBot
from engines.core.canonical import message_bytes
from engines.core.contract import TableConfig
from engines.core.hashchain import seal_all
from engines.core.messages import to_json
from engines.core.play import Table
from gateway.cli import app
from gateway.export import ExportError, export_lines, verify_export
from proto import common_pb2

ENGINE = engines.get("freunde")
SEED = bytes(range(32))


@pytest.fixture(scope="module")
def played() -> tuple[common_pb2.TableMeta, list[common_pb2.StoredEvent]]:
    config = TableConfig("unit-export", 2, {"round_limit": 2})
    table = Table.create(ENGINE, config, SEED)
    bot = RandomBot(4)
    table.play(lambda t, seat: bot.choose(ENGINE, t.state, seat))
    meta = common_pb2.TableMeta(
        table_id="unit-export",
        game="freunde",
        seats=2,
        options={"round_limit": "2"},
        seed_commitment=hashlib.sha256(SEED).digest(),
    )
    return meta, table.stored_log()


def _checks(lines: list[str]) -> dict[str, bool]:
    return {check.name: check.ok for check in verify_export(lines).checks}


def test_an_honest_export_verifies(played) -> None:
    """Chain, readable JSON, seed and re-execution all pass for the game as played."""
    meta, log = played
    lines = list(export_lines(meta, log))
    verdict = verify_export(lines)
    assert verdict.ok, verdict.checks
    assert [c.name for c in verdict.checks] == [
        "hash chain",
        "readable JSON",
        "events",
        "public forms",
        "seed",
        "commitments",
        "re-execution",
    ]
    header = json.loads(lines[0])
    assert header["head_version"] == len(log) and header["options"] == {"round_limit": 2}


def test_editing_a_stored_event_breaks_the_chain(played) -> None:
    """A changed timestamp no longer matches the event's hash."""
    meta, log = played
    rows = [json.loads(line) for line in export_lines(meta, log)]
    rows[5]["time_ms"] += 1
    assert _checks([json.dumps(r) for r in rows])["hash chain"] is False


def test_a_swapped_command_with_a_resealed_chain_fails_re_execution(played) -> None:
    """Recomputing every hash hides an edit from the chain, not from re-running the game."""
    meta, log = played
    forged = [common_pb2.StoredEvent.FromString(e.SerializeToString()) for e in log]
    with_command = [e for e in forged if e.command]
    first, second = (
        with_command[0],
        next(e for e in with_command if e.command != with_command[0].command),
    )
    first.command = second.command
    checks = _checks(list(export_lines(meta, seal_all(forged))))
    assert checks["hash chain"] is True
    assert checks["commitments"] is False, "the whole-event commitment covers the command"
    assert checks["re-execution"] is False


def test_an_edited_hidden_payload_fails_its_commitment(played) -> None:
    """A changed payload under a resealed chain still fails: its commitments do not open."""
    meta, log = played
    forged = [common_pb2.StoredEvent.FromString(e.SerializeToString()) for e in log]
    dealt = next(e for e in forged if b"objectives_dealt" in json.dumps(_event(e)).encode())
    event = ENGINE.event_type.FromString(dealt.payload)
    event.objectives_dealt.cards[0] += 1
    dealt.payload = event.SerializeToString(deterministic=True)
    checks = _checks(list(export_lines(meta, seal_all(forged))))
    assert checks["hash chain"] is True and checks["public forms"] is True
    assert checks["commitments"] is False


def _event(stored: common_pb2.StoredEvent) -> dict:
    return to_json(ENGINE.event_type.FromString(stored.payload)) if stored.payload else {}


def test_a_seed_that_does_not_match_its_commitment_is_refused(played) -> None:
    """The revealed seed must hash to the commitment published at creation."""
    meta, log = played
    other = common_pb2.TableMeta()
    other.CopyFrom(meta)
    other.seed_commitment = hashlib.sha256(b"another seed").digest()
    checks = _checks(list(export_lines(other, log)))
    assert checks["seed"] is False
    assert "commitments" not in checks and "re-execution" not in checks


def test_readable_json_that_lies_about_its_bytes_is_caught(played) -> None:
    """The human-readable event must say what the payload bytes say."""
    meta, log = played
    rows = [json.loads(line) for line in export_lines(meta, log)]
    row = next(r for r in rows[1:] if "event" in r)
    row["event"] = {"game_ended": {}}
    assert _checks([json.dumps(r) for r in rows])["readable JSON"] is False


@pytest.mark.parametrize(
    "text",
    ["", "not json\n", '{"format": "something-else"}\n', "[1, 2]\n"],
)
def test_a_file_that_is_no_export_is_refused(text: str) -> None:
    """Empty files, non-JSON and foreign formats raise ExportError."""
    with pytest.raises(ExportError):
        verify_export(text.splitlines())


def test_a_malformed_event_line_is_refused(played) -> None:
    """An event line with a payload that is not base64 raises ExportError."""
    meta, log = played
    rows = [json.loads(line) for line in export_lines(meta, log)]
    rows[1]["payload"] = "%%%"
    with pytest.raises(ExportError):
        verify_export([json.dumps(r) for r in rows])
    assert base64.b64decode(json.loads(list(export_lines(meta, log))[1])["payload"])


def test_a_log_holding_another_games_events_is_not_verified(tmp_path: Path) -> None:
    """A Harvest log with a Freunde event in it (and a chain sealed over it) fails the
    `events` check, in `verify_export` and in `boardwright verify`."""
    harvest = engines.get("harvest")
    table = Table.create(harvest, TableConfig("unit-foreign", 2, {}), SEED)
    bot = RandomBot(2)
    table.play(lambda t, seat: bot.choose(harvest, t.state, seat))
    log = table.stored_log()
    freunde = Table.create(ENGINE, TableConfig("unit-foreign", 2, {}), SEED)
    log[3].payload = message_bytes(freunde.events[0])
    meta = common_pb2.TableMeta(
        table_id="unit-foreign",
        game="harvest",
        seats=2,
        options={"draft": "false", "first_game": "false"},
        seed_commitment=hashlib.sha256(SEED).digest(),
    )
    lines = list(export_lines(meta, seal_all(log)))
    checks = {check.name: check for check in verify_export(lines).checks}
    assert checks["hash chain"].ok
    assert not checks["events"].ok and "version 4: not a harvest event" in checks["events"].detail
    exported = tmp_path / "foreign.jsonl"
    exported.write_text("".join(lines))
    result = CliRunner().invoke(app, ["verify", str(exported)])
    assert result.exit_code == 1
    assert "NOT VERIFIED" in result.output


def test_boardwright_verify_passes_an_honest_export(played, tmp_path: Path) -> None:
    """The CLI runs the same audit: an honest export is VERIFIED with exit code 0."""
    meta, log = played
    exported = tmp_path / "honest.jsonl"
    exported.write_text("".join(export_lines(meta, log)))
    result = CliRunner().invoke(app, ["verify", str(exported)])
    assert result.exit_code == 0, result.output
    assert "VERIFIED" in result.output and "commitments" in result.output
