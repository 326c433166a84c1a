"""The export format: a game played in memory exports, verifies offline, and every kind of
tampering is caught by the check it should be."""

from __future__ import annotations

import base64
import hashlib
import json

import pytest

import engines
from engines.core.bots import RandomBot
from engines.core.canonical import message_bytes
from engines.core.contract import TableConfig
from engines.core.hashchain import GENESIS, seal
from engines.core.play import Table
from gateway.export import ExportError, export_lines, verify_export
from proto import common_pb2

ENGINE = engines.get("freunde")
SEED = bytes(range(32))


def _stored_log(table: Table) -> list[common_pb2.StoredEvent]:
    """The log the engine service would store for ``table``: set-up, each command's batch
    with the command on its first event, then the revealed seed; hash-chained."""
    unsealed = []
    setup_count = len(table.events) - sum(len(c.events) for c in table.commands)
    for event in table.events[:setup_count]:
        unsealed.append(
            common_pb2.StoredEvent(command_id="setup", seat=-1, payload=message_bytes(event))
        )
    for n, record in enumerate(table.commands):
        for i, event in enumerate(record.events):
            stored = common_pb2.StoredEvent(
                command_id=f"c{n}", seat=record.seat, time_ms=n, payload=message_bytes(event)
            )
            if i == 0:
                stored.command = message_bytes(record.command)
            unsealed.append(stored)
    unsealed.append(
        common_pb2.StoredEvent(
            command_id="end", seat=-1, seed_revealed=common_pb2.SeedRevealed(seed=SEED)
        )
    )
    return _sealed(unsealed)


def _sealed(events: list[common_pb2.StoredEvent]) -> list[common_pb2.StoredEvent]:
    prev, sealed = GENESIS, []
    for version, event in enumerate(events, start=1):
        event.version = version
        event.ClearField("hash")
        sealed.append(seal(event, prev))
        prev = sealed[-1].hash
    return sealed


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
    return meta, _stored_log(table)


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
        "seed",
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
    checks = _checks(list(export_lines(meta, _sealed(forged))))
    assert checks["hash chain"] is True
    assert checks["re-execution"] is False


def test_a_seed_that_does_not_match_its_commitment_is_refused(played) -> None:
    """The revealed seed must hash to the commitment published at creation."""
    meta, log = played
    other = common_pb2.TableMeta()
    other.CopyFrom(meta)
    other.seed_commitment = hashlib.sha256(b"another seed").digest()
    checks = _checks(list(export_lines(other, log)))
    assert checks["seed"] is False and "re-execution" not in checks


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
