"""Bardwood Grove through the same services as every other game: whole games over HTTP at
2, 3 and 4 seats with audit, replay and offline verification; and each seat's hand and
draws stay its own over the views, legal commands, paged events and the SSE stream.

Bardwood's own greedy bots play the whole games (uniformly random bots take about twice
as many commands), through the gateway client's bot tables.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from engines.bardwood.engine import ENGINE
from engines.core.canonical import message_bytes
from engines.core.messages import to_json
from gateway.client import BotTable, GatewayClient, PlayedTable, play_table
from tests.e2e.helpers import (
    all_events,
    finished_and_audited,
    plain,
    redacted_events,
    status_of,
    stream_until,
    verified_offline,
    view_after,
)
from tests.e2e.stack import Stack

pytestmark = [pytest.mark.e2e]

SEED = bytes.fromhex("b4" * 32)
SHORT = {"short_game": True}


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_greedy_bots_finish_bardwood_that_audits_replays_and_verifies_offline(
    bardwood_stack: Stack, seats: int, tmp_path: Path
) -> None:
    """A whole game over HTTP; audit passes (chain and re-execution), ``/replay?at=N`` is
    the fold of the exported log, and the CLI verifies the export offline."""

    async def scenario() -> tuple[PlayedTable, dict[str, Any], str, list[dict[str, Any]]]:
        async with GatewayClient(bardwood_stack.url) as client:
            games = (await client.http.get("/v1/games")).json()
            assert "bardwood" in json.dumps(games)
            played = await play_table(
                client, "bardwood", seats, "greedy", bot_seed=seats, options=SHORT, seed=SEED
            )
            audit = await client.audit(played.table_id)
            exported = await client.export(played.table_id)
            head = played.version
            points = sorted({1, 2, head // 3, head // 2, head - 1, head})
            replays = [await client.replay(played.table_id, at) for at in points]
            replays += [await client.replay(played.table_id, at, played.tokens[1]) for at in points]
            return played, audit, exported, replays

    played, audit, exported, replays = asyncio.run(scenario())

    assert played.status["finished"] is True
    assert len(played.status["scores"]) == seats and played.status["winners"]
    assert played.status["scores"] == list(ENGINE.outcome(played.mirror.state).scores)
    assert played.mirror.state.phase == "finished"
    header, game_events = finished_and_audited(
        ENGINE, audit, exported, played.version, played.seed_commitment
    )
    assert (header["game"], header["seats"]) == ("bardwood", seats)
    assert [message_bytes(e) for e in game_events] == [
        message_bytes(e) for e in played.mirror.events
    ], "the stored log is exactly the game the bots' mirror played"
    for replay in replays:
        assert replay["view"] == view_after(ENGINE, game_events, replay["at"], replay["seat"])

    verified_offline(exported, tmp_path / "bardwood.jsonl")


def _drawn_by_others(events: list[dict[str, Any]], viewer: int | None) -> list[dict[str, Any]]:
    return [
        e["event"]["card_drawn"]
        for e in events
        if e["event"]
        and "card_drawn" in e["event"]
        and e["event"]["card_drawn"].get("seat", 0) != viewer
    ]


def test_hands_and_draws_stay_with_their_seat_over_http_and_sse(bardwood_stack: Stack) -> None:
    """Mid-game, every viewer reads exactly what the rules' ``view`` and ``redact`` allow:
    other seats' drawn cards are blank in paged and live events, views show their hands
    as counts, legal commands go to the seat to act only, and another seat's token acts
    for nobody."""

    async def scenario() -> None:
        async with GatewayClient(bardwood_stack.url) as client:
            table = await BotTable.open(client, "bardwood", 3, bot_seed=9, options=SHORT, seed=SEED)
            for _ in range(60):
                assert await table.step()
            state, head, tid = table.mirror.state, table.version, table.table_id
            hands = [list(p.hand) for p in state.players]
            assert sum(len(hand) for hand in hands) >= 4, "secrets to keep at this point"
            for viewer in (0, 1, 2, None):
                token = None if viewer is None else table.tokens[viewer]
                view = await client.view(tid, token, min_version=head)
                assert view["view"] == plain(ENGINE.view(state, viewer))
                private = view["view"]["private"]
                if viewer is None:
                    assert private is None
                else:
                    assert private["hand"] == hands[viewer]
                for seat, player in enumerate(view["view"]["players"]):
                    assert player["hand_size"] == len(hands[seat])
                paged = await all_events(client, tid, token)
                assert [e["event"] for e in paged] == redacted_events(
                    ENGINE, table.mirror.events, viewer
                )
                live = await stream_until(client, tid, token, head)
                assert live == paged, "the SSE stream redacts exactly like the paged events"
                others = _drawn_by_others(paged, viewer)
                assert others and all(not drawn.get("card") for drawn in others)
                if viewer is not None and token is not None:
                    legal = await client.legal_commands(tid, token)
                    assert legal["commands"] == [
                        plain(to_json(c)) for c in ENGINE.legal_commands(state, viewer)
                    ]
            to_act = ENGINE.outcome(state).to_act[0]
            other = (to_act + 1) % 3
            mine = (await client.legal_commands(tid, table.tokens[to_act]))["commands"][0]
            spoof = client.command(tid, table.tokens[other], "spoof", mine, head)
            assert (await status_of(spoof))[0] == 422
            assert (await client.events(tid))["head"] == head, "a refused command writes nothing"

    asyncio.run(scenario())
