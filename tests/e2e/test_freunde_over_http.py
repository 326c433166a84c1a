"""Whole Freunde games over HTTP: bots play to the end, then audit, replay and export hold."""

from __future__ import annotations

import asyncio
import hashlib
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

import engines
from engines.core.canonical import message_bytes
from gateway.client import GatewayClient, PlayedTable, play_table
from gateway.export import parse_export, verify_export
from tests.e2e.helpers import view_after
from tests.e2e.stack import ROOT, Stack

pytestmark = [pytest.mark.e2e]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gateway.cli", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_bots_finish_a_game_that_audits_replays_and_verifies_offline(
    stack: Stack, seats: int, tmp_path: Path
) -> None:
    """Greedy bots play a whole game over HTTP; every after-the-fact check agrees with it."""
    engine = engines.get("freunde")

    async def scenario() -> tuple[PlayedTable, dict, str, list[dict], list[dict]]:
        async with GatewayClient(stack.url) as client:
            played = await play_table(client, "freunde", seats, "greedy", bot_seed=seats)
            audit = await client.audit(played.table_id)
            exported = await client.export(played.table_id)
            head = played.version
            points = sorted({0, 1, 2, head // 3, head // 2, head - 2, head - 1, head})
            spectator = [await client.replay(played.table_id, at) for at in points]
            own = [await client.replay(played.table_id, at, played.tokens[0]) for at in points]
            return played, audit, exported, spectator, own

    played, audit, exported, spectator_replays, seat_replays = asyncio.run(scenario())

    assert played.status["finished"] is True
    assert played.status["winners"], "a finished game names its winners"
    assert len(played.status["scores"]) == seats

    assert audit["ok"] and audit["chain_ok"], audit
    assert audit["reexecution_checked"] and audit["reexecution_ok"], audit
    assert audit["head_version"] == played.version
    assert hashlib.sha256(bytes.fromhex(audit["seed"])).hexdigest() == played.seed_commitment

    lines = exported.splitlines()
    verdict = verify_export(lines)
    assert verdict.ok, verdict.checks
    header, _, log = parse_export(lines)
    assert header["table_id"] == played.table_id and header["seats"] == seats
    game_events = [
        engine.event_type.FromString(e.payload) for e in log if e.WhichOneof("body") == "payload"
    ]
    assert [message_bytes(e) for e in game_events] == [
        message_bytes(e) for e in played.mirror.events
    ], "the stored log is exactly the game the bots' mirror played"

    for replay in spectator_replays:
        assert replay["seat"] is None
        assert replay["view"] == view_after(engine, game_events, replay["at"], None)
    for replay in seat_replays:
        assert replay["seat"] == 0
        assert replay["view"] == view_after(engine, game_events, replay["at"], 0)

    path = tmp_path / "game.jsonl"
    path.write_text(exported)
    checked = _cli("verify", str(path))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "VERIFIED" in checked.stdout


def test_a_tampered_export_fails_offline_verification(stack: Stack, tmp_path: Path) -> None:
    """Changing one recorded command in an export is caught, and the CLI exits non-zero."""

    async def scenario() -> str:
        async with GatewayClient(stack.url) as client:
            played = await play_table(
                client, "freunde", 2, "random", bot_seed=7, options={"round_limit": 2}
            )
            return await client.export(played.table_id)

    lines = asyncio.run(scenario()).splitlines()
    rows = [json.loads(line) for line in lines]
    victim = next(i for i, row in enumerate(rows) if i > 0 and row.get("seat", -1) >= 0)
    rows[victim]["time_ms"] += 1
    path = tmp_path / "tampered.jsonl"
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n")

    checked = _cli("verify", str(path))
    assert checked.returncode == 1
    assert "NOT VERIFIED" in checked.stdout
    assert f"version {rows[victim]['version']}" in checked.stdout


def test_reads_never_return_older_than_min_version(stack: Stack) -> None:
    """Right after each command, a read with min_version reflects at least that version."""

    async def scenario() -> list[tuple[int, int]]:
        async with GatewayClient(stack.url) as client:
            from gateway.client import BotTable

            table = await BotTable.open(client, "freunde", 2, options={"round_limit": 2})
            seen = []
            for _ in range(30):
                if not await table.step():
                    break
                for token in (None, table.tokens[0], table.tokens[1]):
                    view = await client.view(table.table_id, token, min_version=table.version)
                    seen.append((table.version, view["version"]))
            return seen

    seen = asyncio.run(scenario())
    assert len(seen) >= 30
    assert all(got >= wanted for wanted, got in seen), seen


def test_the_lobby_lists_a_finished_table(stack: Stack) -> None:
    """The projector's lobby index shows a finished table as finished, filtered by status."""

    async def scenario() -> tuple[str, list[dict], list[dict]]:
        async with GatewayClient(stack.url) as client:
            played = await play_table(client, "freunde", 2, options={"round_limit": 1})
            deadline = time.monotonic() + 30  # the lobby is eventually consistent
            while True:
                finished = (
                    await client.http.get(
                        "/v1/tables",
                        params={"game": "freunde", "status": "finished", "limit": 1000},
                    )
                ).json()["tables"]
                if any(t["table_id"] == played.table_id for t in finished) or (
                    time.monotonic() > deadline
                ):
                    break
                await asyncio.sleep(0.1)
            active = (
                await client.http.get("/v1/tables", params={"status": "active", "limit": 1000})
            ).json()["tables"]
            return played.table_id, finished, active

    table_id, finished, active = asyncio.run(scenario())
    entry = next(t for t in finished if t["table_id"] == table_id)
    assert entry["status"]["finished"] is True and entry["game"] == "freunde"
    assert all(t["table_id"] != table_id for t in active)
