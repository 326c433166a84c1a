"""Seats and secrets over HTTP: nobody acts for another seat, and no endpoint shows a seat
anything the rules' own ``view``/``redact`` would not show it.

The bots' driver holds the table's seed, so it keeps the full state (every hand) locally;
each endpoint's answer is compared with what the rules allow that viewer to see.
"""

from __future__ import annotations

import asyncio
import json
import re

import httpx
import pytest

import engines
from engines.core.hashchain import opens_own_commitment, verify_chain
from engines.core.messages import to_json
from gateway.client import BotTable, GatewayClient
from tests.chain_attack import attack, readable_from_json
from tests.e2e.helpers import all_events, plain, redacted_events, status_of, stream_until
from tests.e2e.stack import Stack

pytestmark = [pytest.mark.e2e]

ENGINE = engines.get("freunde")


def _bearer(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


async def _advance_until_seat_acts(table: BotTable, seat: int, at_least: int) -> None:
    """Play until ``at_least`` commands were sent and ``seat`` is the one to act."""
    while True:
        status = await table.refresh()
        assert not status["finished"], "the game ended before the position under test"
        if table.commands >= at_least and status["to_act"] == [seat]:
            return
        await table.step()


def test_no_endpoint_lets_a_seat_act_for_or_see_into_another(stack: Stack) -> None:
    """Mid-game, every endpoint answers each seat and the spectator only what the rules allow."""

    async def scenario() -> None:
        async with GatewayClient(stack.url) as client:
            table = await BotTable.open(
                client, "freunde", 3, bot_seed=11, options={"round_limit": 4}
            )
            other = await BotTable.open(
                client, "freunde", 2, bot_seed=12, options={"round_limit": 4}
            )
            await _advance_until_seat_acts(table, seat=1, at_least=12)
            state, head = table.mirror.state, table.version
            assert table.mirror.version == head
            legal_for_1 = (await client.legal_commands(table.table_id, table.tokens[1]))["commands"]
            command = legal_for_1[0]
            tid = table.table_id

            # Acting for another seat, without a token, with a wrong token: refused, no write.
            outcomes = [
                await status_of(client.command(tid, table.tokens[0], "spoof-1", command, head)),
                await status_of(client.command(tid, "not-a-token", "spoof-2", command, head)),
                await status_of(client.command(tid, other.tokens[0], "spoof-3", command, head)),
            ]
            raw = [
                await client.http.post(  # seat 2's token claiming to act as seat 1
                    f"/v1/tables/{tid}/commands",
                    headers=_bearer(table.tokens[2]),
                    json={"command_id": "spoof-4", "seat": 1, "command": command},
                ),
                await client.http.post(
                    f"/v1/tables/{tid}/commands", json={"command_id": "spoof-5", "command": command}
                ),
            ]
            assert outcomes[0][0] == 422, "seat 0 is not to act: the rules refuse it"
            assert (raw[0].status_code, raw[0].json()["code"]) == (403, "seat.forbidden")
            assert (raw[1].status_code, raw[1].json()["code"]) == (401, "auth.missing")
            assert outcomes[1] == (403, "auth.invalid")
            assert outcomes[2] == (403, "auth.invalid"), "a token of another table is no seat here"
            assert (await client.events(tid))["head"] == head, "no refused command wrote anything"

            # Views: each seat sees its own hand, nobody else's; the spectator sees none.
            views = {seat: await client.view(tid, table.tokens[seat]) for seat in range(3)}
            spectator = await client.view(tid)
            for seat, view in views.items():
                assert view["version"] == head and view["seat"] == seat
                assert view["view"] == plain(ENGINE.view(state, seat))
                mine = ENGINE.view(state, seat)["private"]["hand"]
                assert view["view"]["private"]["hand"] == plain(mine)
            assert spectator["view"] == plain(ENGINE.view(state, None))
            assert spectator["view"]["private"] is None
            hand_0 = json.dumps(views[0]["view"]["private"]["hand"], sort_keys=True)
            assert hand_0 != json.dumps(views[1]["view"]["private"]["hand"], sort_keys=True)
            for seat in (1, 2):
                assert hand_0 not in json.dumps(views[seat]["view"], sort_keys=True)

            # Legal commands: exactly the rules' list for that seat.
            for seat in range(3):
                legal = await client.legal_commands(tid, table.tokens[seat])
                assert legal["commands"] == [
                    plain(to_json(c)) for c in ENGINE.legal_commands(state, seat)
                ]
            assert await status_of(client.legal_commands(tid, "x" * 43)) == (403, "auth.invalid")

            # Events, paged and live: exactly the rules' redaction for that viewer.
            hidden_somewhere = False
            viewers: tuple[int | None, ...] = (0, 1, 2, None)
            for viewer in viewers:
                token = None if viewer is None else table.tokens[viewer]
                paged = await all_events(client, tid, token)
                expected = redacted_events(ENGINE, table.mirror.events, viewer)
                assert [e["event"] for e in paged] == expected
                assert [e["version"] for e in paged] == list(range(1, head + 1))
                live = await stream_until(client, tid, token, head)
                assert live == paged
                full = [plain(to_json(e)) for e in table.mirror.events]
                hidden_somewhere = hidden_somewhere or expected != full
            assert hidden_somewhere, "the position under test holds secrets to hide"

            # The chain: every reader can check every link of what it read and a seat its own
            # commitments, and nothing it read narrows down a value hidden from it.
            attacked = 0
            for viewer in viewers:
                token = None if viewer is None else table.tokens[viewer]
                read = [readable_from_json(row) for row in await all_events(client, tid, token)]
                assert verify_chain(read).ok
                for shown, event in zip(read, table.mirror.events, strict=True):
                    assert viewer is None or opens_own_commitment(shown, viewer)
                    for attempt in attack(ENGINE, event, shown, viewer):
                        assert attempt.learned_nothing, (viewer, shown.version, attempt)
                        attacked += 1
            assert attacked > 100, "dealt objectives, deck orders and drawn plots were attacked"

            # Replay: own view at any time; another seat's only after the end.
            assert await status_of(client.replay(tid, head, table.tokens[1], seat=0)) == (
                403,
                "replay.forbidden",
            )
            assert await status_of(client.replay(tid, head, None, seat=2)) == (
                403,
                "replay.forbidden",
            )
            own = await client.replay(tid, head, table.tokens[1])
            assert own["view"] == plain(ENGINE.view(state, 1))

            # Errors: claiming a card from seat 0's hand fails exactly like claiming one that
            # is still in a deck, so the error tells seat 1 nothing about seat 0's hand.
            in_hand = state.players[0].hand[0]
            in_deck = next(card for deck in state.decks for card in deck)
            answers = []
            for n, card in enumerate((in_hand, in_deck)):
                reply = await client.http.post(
                    f"/v1/tables/{tid}/commands",
                    headers=_bearer(table.tokens[1]),
                    json={
                        "command_id": f"probe-{n}",
                        "command": {"claim_objective": {"card": card}},
                    },
                )
                answers.append((reply.status_code, re.sub(rf"\b{card}\b", "<card>", reply.text)))
            assert answers[0][0] == 422
            assert answers[0] == answers[1]

            # The log, the export and the seed stay closed until the end.
            assert await status_of(client.export(tid)) == (409, "table.not_finished")
            audit = await client.audit(tid)
            assert audit["chain_ok"] and audit["seed"] is None and not audit["reexecution_checked"]
            assert (await client.events(tid))["head"] == head

            # Once the game is over, any seat's view may be replayed by anyone.
            while await table.step():
                pass
            opened = await client.replay(tid, head, None, seat=0)
            assert opened["view"] == plain(ENGINE.view(state, 0))

    asyncio.run(scenario())


def test_requests_without_a_table_or_with_bad_tokens_get_json_errors(stack: Stack) -> None:
    """Unknown tables are 404, bad tokens 403, and every error is {code, message, details}."""
    with httpx.Client(base_url=stack.url) as http:
        for path in (
            "/v1/tables/nope",
            "/v1/tables/nope/legal-commands",
            "/v1/tables/nope/events",
            "/v1/tables/nope/audit",
            "/v1/tables/nope/export",
            "/v1/tables/nope/replay?at=0",
        ):
            reply = http.get(path, headers=_bearer("whatever"))
            assert reply.status_code == 404, path
            assert set(reply.json()) == {"code", "message", "details"}
            assert reply.json()["code"] == "table.not_found"
        bad = http.post("/v1/tables", json={"game": "chess", "seats": 2})
        assert (bad.status_code, bad.json()["code"]) == (404, "game.not_found")
        bad = http.post("/v1/tables", json={"game": "freunde", "seats": 9})
        assert (bad.status_code, bad.json()["code"]) == (422, "seats.invalid")
        bad = http.post(
            "/v1/tables", content=b"{not json", headers={"content-type": "application/json"}
        )
        assert (bad.status_code, bad.json()["code"]) == (422, "request.invalid")
