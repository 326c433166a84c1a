"""Board pictures over HTTP: each caller's picture is the game's drawing of exactly the
view it may read, now and at any version, as SVG and as a PNG of the documented size.

The bots' driver keeps the whole game locally (it holds the seed), so every picture the
gateway answers is compared with the rules' own drawing of that viewer's view, and every
hidden card name is searched for in every other viewer's picture.
"""

from __future__ import annotations

import asyncio
import re
import struct
import xml.etree.ElementTree as ET

import httpx
import pytest

import engines
from engines.core.picture import title_case
from engines.freunde.content import OBJECTIVES
from engines.harvest.content import content as harvest_content
from gateway.client import BotTable, GatewayClient
from tests.e2e.helpers import plain, status_of, view_after
from tests.e2e.stack import Stack

pytestmark = [pytest.mark.e2e]

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _bearer(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height from the PNG's IHDR chunk (the first, right after the signature)."""
    assert png[:8] == PNG_SIGNATURE and png[12:16] == b"IHDR"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def _names(svg: str, name: str) -> bool:
    """Whether ``name`` stands in the picture as a whole name: "Green Diamond" is not
    named by "Pink/Green Diamond", another objective."""
    return re.search(rf"(?<![\w/]){re.escape(name)}(?![\w/])", svg) is not None


def test_freunde_pictures_show_each_caller_its_own_view_now_and_at_any_version(
    stack: Stack,
) -> None:
    engine = engines.get("freunde")

    async def scenario() -> None:
        async with GatewayClient(stack.url) as client:
            table = await BotTable.open(client, "freunde", 3, "greedy", bot_seed=5)
            for _ in range(14):
                await table.step()
            await table.refresh()
            tid, head, events = table.table_id, table.version, table.mirror.events
            tokens: dict[int | None, str | None] = {None: None, 0: table.tokens[0]}
            tokens |= {1: table.tokens[1], 2: table.tokens[2]}

            # Now: each caller's picture is the drawing of its current view.
            now = {
                who: (await client.board(tid, token, kind="svg")).decode()
                for who, token in tokens.items()
            }
            for who, svg in now.items():
                assert svg == engine.picture(plain(engine.view(table.mirror.state, who)))
                root = ET.fromstring(svg)
                plots = sum(1 for e in root.iter() if e.get("class") == "plot")
                assert plots == len(table.mirror.state.garden.plots)

            # Secrets: every card in a seat's hand is named in its own picture and nowhere
            # else (the hands were dealt to be different).
            for seat in range(3):
                for card in table.mirror.state.players[seat].hand:
                    name = OBJECTIVES[card].name
                    held_elsewhere = any(
                        OBJECTIVES[c].name == name
                        for other in range(3)
                        if other != seat
                        for c in table.mirror.state.players[other].hand
                    )
                    assert _names(now[seat], name)
                    if not held_elsewhere:
                        for who, svg in now.items():
                            assert _names(svg, name) == (who == seat), (seat, who, name)

            # At a version: the drawing of the view after the first N events.
            for at in sorted({0, 1, 3, head // 2, head}):
                for who in (None, 1):
                    svg = (await client.board(tid, tokens[who], at=at, kind="svg")).decode()
                    assert svg == engine.picture(view_after(engine, events, at, who)), (at, who)

            # PNG: the documented size, now and at a version.
            for when in (None, 2):
                png = await client.board(tid, table.tokens[0], at=when)
                assert png_size(png) == (960, 640)

    asyncio.run(scenario())


def test_harvest_pictures_keep_the_dealt_starts_to_their_seat(harvest_stack: Stack) -> None:
    async def scenario() -> None:
        async with GatewayClient(harvest_stack.url) as client:
            table = await BotTable.open(client, "harvest", 2, "greedy", bot_seed=3)
            state = table.mirror.state
            assert state.phase == "choose_start", "dealt in secret, not yet chosen"
            pictures = {
                who: (await client.board(table.table_id, token, kind="svg")).decode()
                for who, token in ((None, None), (0, table.tokens[0]), (1, table.tokens[1]))
            }
            for seat, player in enumerate(state.players):
                names = [
                    str(harvest_content().character(c)["name"]) for c in player.dealt_characters
                ] + [title_case(f) for f in player.dealt_farmhouses]
                for who, svg in pictures.items():
                    for name in names:
                        assert (name in svg) == (who == seat), (seat, who, name)
            while table.commands < 25 and await table.step():
                pass
            png = await client.board(table.table_id)
            assert png_size(png) == (960, 640)
            svg = (await client.board(table.table_id, kind="svg")).decode()
            workers = sum(1 for e in ET.fromstring(svg).iter() if e.get("class") == "worker")
            assert workers == len(table.mirror.state.placements)

    asyncio.run(scenario())


def test_pictures_carry_an_etag_by_version_and_viewer(stack: Stack) -> None:
    async def scenario() -> None:
        async with GatewayClient(stack.url) as client:
            table = await BotTable.open(client, "freunde", 2, bot_seed=8)
            tid = table.table_id
            first = await client.http.get(f"/v1/tables/{tid}/board.svg")
            etag = first.headers["etag"]
            assert first.headers["content-type"].startswith("image/svg+xml")
            assert "no-cache" in first.headers["cache-control"]
            again = await client.http.get(
                f"/v1/tables/{tid}/board.svg", headers={"If-None-Match": etag}
            )
            assert (again.status_code, again.content) == (304, b"")
            seat = await client.http.get(
                f"/v1/tables/{tid}/board.svg",
                headers={"If-None-Match": etag, **_bearer(table.tokens[0])},
            )
            assert seat.status_code == 200 and seat.headers["etag"] != etag
            assert seat.headers["cache-control"].startswith("private")
            await table.step()
            await client.view(tid, min_version=table.version)
            moved = await client.http.get(
                f"/v1/tables/{tid}/board.svg", headers={"If-None-Match": etag}
            )
            assert moved.status_code == 200 and moved.headers["etag"] != etag
            fixed = await client.http.get(f"/v1/tables/{tid}/board.png", params={"at": 1})
            assert "immutable" in fixed.headers["cache-control"]
            assert fixed.headers["content-type"] == "image/png"

    asyncio.run(scenario())


def test_bad_picture_requests_get_stable_codes(stack: Stack) -> None:
    async def scenario() -> None:
        async with GatewayClient(stack.url) as client:
            table = await BotTable.open(client, "freunde", 2, bot_seed=9)
            tid, head = table.table_id, table.version
            assert await status_of(client.board("nope")) == (404, "table.not_found")
            assert await status_of(client.board("nope", kind="svg")) == (404, "table.not_found")
            assert await status_of(client.board(tid, at=head + 1)) == (
                422,
                "replay.out_of_range",
            )
            assert await status_of(client.board(tid, at=-1)) == (422, "request.invalid")
            assert await status_of(client.board(tid, "x" * 43)) == (403, "auth.invalid")
            async with httpx.AsyncClient(base_url=stack.url) as http:
                word = await http.get(f"/v1/tables/{tid}/board.svg", params={"at": "ten"})
                assert (word.status_code, word.json()["code"]) == (422, "request.invalid")
                other = await http.get(f"/v1/tables/{tid}/board.gif")
                assert other.status_code == 404

    asyncio.run(scenario())


@pytest.mark.parametrize(("game", "seats"), [("tend", 2), ("bardwood", 3)])
def test_later_games_are_pictured_through_their_own_drawing(
    game: str, seats: int, request: pytest.FixtureRequest
) -> None:
    """Tend and Bardwood Grove need nothing of the gateway: the route draws with the
    engine's own picture hook, each caller's picture is that drawing of its own view, and
    the PNG keeps the documented width."""
    served: Stack = request.getfixturevalue(f"{game}_stack")
    engine = engines.get(game)

    async def scenario() -> None:
        async with GatewayClient(served.url) as client:
            table = await BotTable.open(client, game, seats, bot_seed=7)
            for _ in range(12):
                await table.step()
            await table.refresh()
            callers: list[tuple[int | None, str | None]] = [(None, None)]
            callers += list(enumerate(table.tokens))
            for who, token in callers:
                svg = (await client.board(table.table_id, token, kind="svg")).decode()
                assert svg == engine.picture(plain(engine.view(table.mirror.state, who)))
                ET.fromstring(svg)
            width, _ = png_size(await client.board(table.table_id, table.tokens[0]))
            assert width == 960

    asyncio.run(scenario())
