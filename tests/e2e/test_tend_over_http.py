"""Tend through the same services as the other games: whole games over HTTP with audit,
replay and offline verification, at 1, 2, 4 and 8 seats (``BW_TEND_E2E_SEATS=1-8`` plays
every count: an 8-seat game of random bots is about a thousand commands, two minutes on
this machine); and the one hidden thing of the game, what an unscratched square holds,
reaches nobody through any endpoint.

Tend keeps no secret anywhere (a square's content is drawn when it is scratched), so
every viewer is shown the same table and the same events; the attack is to look for a
square's content before it is scratched, in views, legal commands, paged and live events
and refusals.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import engines
from engines.core.canonical import message_bytes
from engines.core.messages import to_json
from gateway.client import BotTable, GatewayClient, PlayedTable, play_table
from gateway.export import parse_export, verify_export
from tests.e2e.helpers import all_events, plain, status_of, stream_until, view_after
from tests.e2e.stack import ROOT, Stack

pytestmark = [pytest.mark.e2e]

ENGINE = engines.get("tend")
SEED = bytes.fromhex("7e" * 32)


def _seat_counts() -> list[int]:
    """``BW_TEND_E2E_SEATS``: ``1-8``, or a comma-separated list (default 1,2,4,8)."""
    wanted = os.environ.get("BW_TEND_E2E_SEATS", "1,2,4,8")
    if "-" in wanted:
        low, high = wanted.split("-")
        return list(range(int(low), int(high) + 1))
    return [int(n) for n in wanted.split(",")]


@pytest.mark.parametrize("seats", _seat_counts())
def test_random_bots_finish_tend_that_audits_replays_and_verifies_offline(
    tend_stack: Stack, seats: int, tmp_path: Path
) -> None:
    """A whole game of 12 rounds over HTTP; audit passes, ``/replay?at=N`` is the fold of
    the exported log, and the export verifies offline (and with the CLI at one seat)."""

    async def scenario() -> tuple[PlayedTable, dict[str, Any], str, list[dict[str, Any]]]:
        async with GatewayClient(tend_stack.url) as client:
            played = await play_table(client, "tend", seats, "random", bot_seed=seats, seed=SEED)
            audit = await client.audit(played.table_id)
            exported = await client.export(played.table_id)
            head = played.version
            points = sorted({0, 1, 2, head // 3, head // 2, head - 1, head})
            replays = [await client.replay(played.table_id, at) for at in points]
            replays += [await client.replay(played.table_id, at, played.tokens[0]) for at in points]
            return played, audit, exported, replays

    played, audit, exported, replays = asyncio.run(scenario())

    assert played.status["finished"] is True and played.status["winners"]
    assert len(played.status["scores"]) == seats
    state = played.mirror.state
    assert (state.phase, state.round) == ("finished", 12)
    assert [f.total for f in state.final] == played.status["scores"]

    assert audit["ok"] and audit["chain_ok"], audit
    assert audit["reexecution_checked"] and audit["reexecution_ok"], audit
    assert audit["head_version"] == played.version
    assert hashlib.sha256(bytes.fromhex(audit["seed"])).hexdigest() == played.seed_commitment

    lines = exported.splitlines()
    verdict = verify_export(lines)
    assert verdict.ok, verdict.checks
    header, _, log = parse_export(lines)
    assert (header["game"], header["seats"]) == ("tend", seats)
    game_events = [
        ENGINE.event_type.FromString(e.payload) for e in log if e.WhichOneof("body") == "payload"
    ]
    assert [message_bytes(e) for e in game_events] == [
        message_bytes(e) for e in played.mirror.events
    ], "the stored log is exactly the game the bots' mirror played"
    for replay in replays:
        assert replay["view"] == view_after(ENGINE, game_events, replay["at"], replay["seat"])

    if seats == 1:
        path = tmp_path / "tend.jsonl"
        path.write_text(exported)
        checked = subprocess.run(
            [sys.executable, "-m", "gateway.cli", "verify", str(path)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert "VERIFIED" in checked.stdout


def _scratched(state: Any) -> bool:
    return any(p.woods.scratched or p.mine.scratched for p in state.players)


def _contents(events: list[dict[str, Any]]) -> list[str]:
    """Every place an event names what a square holds."""
    found = []
    for entry in events:
        body = json.dumps(entry["event"], sort_keys=True)
        if '"content"' in body:
            found.append(next(iter(entry["event"])))
    return found


def test_no_endpoint_shows_what_an_unscratched_square_holds(tend_stack: Stack) -> None:
    """Mid-game, every viewer reads the same table and the same events (nothing is
    private in Tend); no view, legal command, paged or live event names the content of a
    square before it is scratched; refusals for unscratched squares read alike; another
    seat's token cannot act for a seat."""

    async def scenario() -> None:
        async with GatewayClient(tend_stack.url) as client:
            table = await BotTable.open(client, "tend", 2, bot_seed=3, seed=SEED)
            while not any(
                p.woods.scratched or p.mine.scratched for p in table.mirror.state.players
            ):
                assert await table.step()
            for _ in range(5):
                assert await table.step()
            state, head, tid = table.mirror.state, table.version, table.table_id

            viewers: tuple[int | None, ...] = (0, 1, None)
            views = {}
            for viewer in viewers:
                token = None if viewer is None else table.tokens[viewer]
                shown = await client.view(tid, token, min_version=head)
                assert shown["view"] == plain(ENGINE.view(state, viewer))
                views[viewer] = {
                    k: v for k, v in shown["view"].items() if k not in ("viewer", "private")
                }
                paged = await all_events(client, tid, token)
                assert [e["event"] for e in paged] == [
                    plain(to_json(e)) for e in table.mirror.events
                ], "nothing is redacted: Tend's events carry no secret"
                assert await stream_until(client, tid, token, head) == paged
                assert set(_contents(paged)) == {"square_scratched"}
                if viewer is not None and token is not None:
                    legal = await client.legal_commands(tid, token)
                    assert legal["commands"] == [
                        plain(to_json(c)) for c in ENGINE.legal_commands(state, viewer)
                    ]
            assert views[0] == views[1] == views[None], "every viewer reads the same table"
            for viewer in viewers:
                for player, mine in zip(views[viewer]["players"], state.players, strict=True):
                    for area in ("woods", "mine"):
                        listed = [s["square"] for s in player[area]["scratched"]]
                        assert listed == [n for n, _ in mine.scratch(area).scratched]

            # Refusals for unscratched squares read the same whatever the squares hold.
            deep = [s for s in (32, 33, 34) if state.players[0].woods.content(s) is None]
            answers = []
            for n, square in enumerate(deep[:2]):
                reply = await client.http.post(
                    f"/v1/tables/{tid}/commands",
                    headers={"Authorization": f"Bearer {table.tokens[0]}"},
                    json={"command_id": f"probe-{n}", "command": {"chop": {"square": square}}},
                )
                answers.append((reply.status_code, re.sub(rf"\b{square}\b", "<n>", reply.text)))
            assert len(answers) == 2 and answers[0][0] == 422 and answers[0] == answers[1]

            # Seat 1's token claiming to act as seat 0: refused, nothing written.
            reply = await client.http.post(
                f"/v1/tables/{tid}/commands",
                headers={"Authorization": f"Bearer {table.tokens[1]}"},
                json={"command_id": "spoof", "seat": 0, "command": {"finish": {}}},
            )
            assert (reply.status_code, reply.json()["code"]) == (403, "seat.forbidden")
            assert await status_of(client.legal_commands(tid, "x" * 43)) == (403, "auth.invalid")
            assert (await client.events(tid))["head"] == head

    asyncio.run(scenario())
