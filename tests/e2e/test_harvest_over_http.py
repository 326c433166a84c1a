"""Harvest through the same services as Freunde: a second game plugs in with no change to
the engine service, the projector or the gateway (only ``--game harvest`` and
``BW_ENGINE_ADDRS``).

Whole games with random bots (one seat against Mayor Gairy, and two seats), then audit,
replay and offline export verification; and the Start secrets (the two Characters and
two Farmhouses dealt to each seat) never reach another seat through any endpoint.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import engines
from engines.core.canonical import message_bytes
from gateway.client import ApiFailure, BotTable, GatewayClient, PlayedTable, play_table
from gateway.export import parse_export, verify_export
from tests.e2e.helpers import (
    all_events,
    redacted_events,
    status_of,
    stream_until,
    view_after,
)
from tests.e2e.stack import ROOT, Stack

pytestmark = [pytest.mark.e2e]

ENGINE = engines.get("harvest")
# Random bots end a Harvest game in roughly 70 commands at one seat and 120 at two:
# the shortest complete games the rules allow without steering the dice.
SEED = bytes.fromhex("0d" * 32)


@pytest.mark.parametrize("seats", [1, 2])
def test_random_bots_finish_harvest_that_audits_replays_and_verifies_offline(
    harvest_stack: Stack, seats: int, tmp_path: Path
) -> None:
    """A whole game over HTTP (at one seat Mayor Gairy is the opponent); audit passes,
    ``/replay?at=N`` is the fold of the exported log, and the CLI verifies the export."""

    async def scenario() -> tuple[PlayedTable, dict[str, Any], str, list[dict[str, Any]]]:
        async with GatewayClient(harvest_stack.url) as client:
            played = await play_table(client, "harvest", seats, "random", bot_seed=seats, seed=SEED)
            audit = await client.audit(played.table_id)
            exported = await client.export(played.table_id)
            head = played.version
            points = sorted({0, 1, 2, head // 3, head // 2, head - 2, head - 1, head})
            replays = [await client.replay(played.table_id, at) for at in points]
            replays += [await client.replay(played.table_id, at, played.tokens[0]) for at in points]
            return played, audit, exported, replays

    played, audit, exported, replays = asyncio.run(scenario())

    assert played.status["finished"] is True
    assert len(played.status["scores"]) == seats
    assert played.status["winners"], "a finished game names its winners"
    assert played.mirror.state.phase == "finished"
    if seats == 1:
        assert played.mirror.state.gairy_tiles_per_turn > 0, "Mayor Gairy plays a lone seat"

    assert audit["ok"] and audit["chain_ok"], audit
    assert audit["reexecution_checked"] and audit["reexecution_ok"], audit
    assert audit["head_version"] == played.version
    assert hashlib.sha256(bytes.fromhex(audit["seed"])).hexdigest() == played.seed_commitment
    assert audit["seed"] == SEED.hex()

    lines = exported.splitlines()
    verdict = verify_export(lines)
    assert verdict.ok, verdict.checks
    header, _, log = parse_export(lines)
    assert (header["game"], header["seats"]) == ("harvest", seats)
    game_events = [
        ENGINE.event_type.FromString(e.payload) for e in log if e.WhichOneof("body") == "payload"
    ]
    assert [message_bytes(e) for e in game_events] == [
        message_bytes(e) for e in played.mirror.events
    ], "the stored log is exactly the game the bots' mirror played"

    for replay in replays:
        assert replay["view"] == view_after(ENGINE, game_events, replay["at"], replay["seat"])
    assert {r["seat"] for r in replays} == {None, 0}

    path = tmp_path / "harvest.jsonl"
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


def _quoted(names: set[str]) -> set[str]:
    return {json.dumps(name) for name in names}


async def _everything_seen(
    client: GatewayClient, table: BotTable, viewer: int | None
) -> tuple[str, list[dict[str, Any]]]:
    """All a viewer can read of the table right now, as one text, and its paged events."""
    token = None if viewer is None else table.tokens[viewer]
    view = await client.view(table.table_id, token, min_version=table.version)
    events = await all_events(client, table.table_id, token)
    live = await stream_until(client, table.table_id, token, table.version)
    assert live == events, "the SSE stream redacts exactly like the paged events"
    parts: list[Any] = [view, events]
    if token is not None:
        parts.append(await client.legal_commands(table.table_id, token))
    return json.dumps(parts, sort_keys=True), events


def test_dealt_characters_and_farmhouses_stay_with_their_seat(harvest_stack: Stack) -> None:
    """Each seat's two dealt Characters and Farmhouses reach no other seat and no spectator
    (view, legal commands, paged and live events) while it chooses; once every seat has
    kept one of each, the kept pair is public and the unkept pair is still never shown."""

    async def scenario() -> None:
        async with GatewayClient(harvest_stack.url) as client:
            table = await BotTable.open(client, "harvest", 2, bot_seed=5, seed=SEED)
            players = table.mirror.state.players
            dealt = [set(p.dealt_characters) | set(p.dealt_farmhouses) for p in players]
            assert all(len(names) == 4 for names in dealt) and not dealt[0] & dealt[1]
            viewers: tuple[int | None, ...] = (0, 1, None)

            async def check(stage: str, secret_of: list[set[str]]) -> None:
                for viewer in viewers:
                    seen, events = await _everything_seen(client, table, viewer)
                    for seat, names in enumerate(secret_of):
                        if seat != viewer:
                            leaked = {n for n in _quoted(names) if n in seen}
                            assert not leaked, f"{stage}: {viewer} sees seat {seat}'s {leaked}"
                    expected = redacted_events(ENGINE, table.mirror.events, viewer)
                    assert [e["event"] for e in events] == expected

            await check("dealt", dealt)
            own = (await client.view(table.table_id, table.tokens[0]))["view"]["private"]
            assert set(own["dealt_characters"]) | set(own["dealt_farmhouses"]) == dealt[0]

            # Another seat's token cannot choose for seat 0, and the refusal writes nothing.
            mine = (await client.legal_commands(table.table_id, table.tokens[0]))["commands"][0]
            spoof = client.command(table.table_id, table.tokens[1], "spoof", mine, table.version)
            assert (await status_of(spoof))[0] == 422
            assert (await client.events(table.table_id))["head"] == table.version

            assert await table.step()  # seat 0 keeps one Character and one Farmhouse
            assert table.mirror.state.phase == "choose_start"
            await check("seat 0 kept, seat 1 choosing", dealt)

            assert await table.step()  # seat 1 keeps: the kept pairs are revealed
            kept = [{p.character, p.farmhouse} for p in table.mirror.state.players]
            assert all(len(k) == 2 and k <= d for k, d in zip(kept, dealt, strict=True))
            unkept = [d - k for d, k in zip(dealt, kept, strict=True)]
            spectator = (await client.view(table.table_id, min_version=table.version))["view"]
            assert [{p["character"], p["farmhouse"]} for p in spectator["players"]] == kept
            await check("both kept", unkept)

            for _ in range(10):
                assert await table.step()
            await check("ten commands later", unkept)

    asyncio.run(scenario())


def test_a_solo_challenge_is_created_solo_and_refused_with_two_seats(harvest_stack: Stack) -> None:
    """The ``challenge`` option sets up a solo game with the challenge's changes; asked
    with two seats it is a 422 naming the reason, not a server error, and creates nothing."""

    async def scenario() -> None:
        async with GatewayClient(harvest_stack.url) as client:
            solo = await client.create_table("harvest", 1, {"challenge": "lean_year"})
            view = await client.view(solo["table_id"], solo["tokens"][0])
            assert view["view"]["board"]["challenge"]["id"] == "lean_year"
            assert view["view"]["players"][0]["coins"] == 0
            with pytest.raises(ApiFailure) as refused:
                await client.create_table("harvest", 2, {"challenge": "lean_year"})
            assert (refused.value.status, refused.value.code) == (422, "request.invalid")
            assert "one player" in refused.value.message
            unknown = client.create_table("harvest", 1, {"challenge": "moon_landing"})
            assert (await status_of(unknown))[0] == 422

    asyncio.run(scenario())
