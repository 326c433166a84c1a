"""The Discord bot's own logic, without Discord: custom_ids, the move menus built from
every game's real legal moves (within Discord's limits, every move reachable), the
channel texts, and the signature check."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any, cast

import hikari
import httpx
import pytest
from aiohttp import web
from nacl.signing import SigningKey

import engines
from engines.core.contract import TableConfig
from engines.core.game import menus
from engines.core.messages import to_json
from engines.core.play import Table
from gateway.client import GatewayClient, game_bot
from services.config import Settings
from services.discord.custom_ids import CustomId, parse
from services.discord.handlers import Handlers
from services.discord.menus import (
    BUTTON_LABEL,
    BUTTONS_PER_ROW,
    MAX_OPTIONS,
    MAX_ROWS,
    OPTION_LABEL,
    Button,
    Row,
    Select,
    kinds_rows,
    menu_rows,
    move_rows,
)
from services.discord.replies import Reply
from services.discord.server import make_bot, signature_holds, web_app
from services.discord.settings import DiscordSettings
from services.discord.words import (
    MESSAGE_LIMIT,
    OptionsError,
    bounded,
    final_text,
    parse_options,
    turn_text,
    with_names,
)
from services.launcher import Launcher
from services.redis_server import free_port
from tests.e2e.discord_standin import Discord, Message, User

TABLE = "0123456789abcdef0123456789abcdef"


def test_a_custom_id_reads_back_as_it_was_written() -> None:
    for meaning in (
        CustomId("join", TABLE),
        CustomId("play", TABLE),
        CustomId("board", TABLE),
        CustomId("kinds", TABLE, 3, 1234567, 2),
        CustomId("moves", TABLE, 0, 99, 24),
        CustomId("move", TABLE, 7, 2**40, 76),
    ):
        text = str(meaning)
        assert len(text) <= 100
        assert parse(text) == meaning


@pytest.mark.parametrize(
    "text",
    [
        "",
        "join",
        "join:",
        "dance:abc",
        f"play:{TABLE}:1:2:3",
        f"move:{TABLE}",
        f"move:{TABLE}:1:2",
        f"move:{TABLE}:1::3",
        f"move:{TABLE}:a:2:3",
        f"join:{'x' * 65}",
        "join:a b",
    ],
)
def test_a_custom_id_the_bot_did_not_make_means_nothing(text: str) -> None:
    assert parse(text) is None


def legal_reply(
    game: str, seats: int, options: dict[str, Any], seed: int, plies: int
) -> dict[str, Any]:
    """``legal-commands`` as the gateway builds it, for the seat to act after ``plies``
    random moves of a seeded game (the engine's own words and menus)."""
    engine = engines.get(game)
    table = Table.create(engine, TableConfig(f"t{seed}", seats, options), bytes([seed]) * 32)
    bot = game_bot(engine, "random", seed)
    for _ in range(plies):
        outcome = engine.outcome(table.state)
        if outcome.finished:
            break
        seat = outcome.to_act[0]
        table.execute(seat, bot.choose(engine, table.state, seat))
    seat = engine.outcome(table.state).to_act[0]
    commands = engine.legal_commands(table.state, seat)
    words = [engine.describe_command(table.state, c, seat) for c in commands]
    return {
        "seat": seat,
        "version": table.version,
        "moves": [
            {"command": to_json(c), "group": w.group, "text": w.text}
            for c, w in zip(commands, words, strict=True)
        ],
        "menus": [{"title": t, "moves": m} for t, m in menus(words)],
    }


def _within_discord_limits(rows: list[Row]) -> None:
    assert 1 <= len(rows) <= MAX_ROWS
    ids: list[str] = []
    for row in rows:
        if isinstance(row, Select):
            assert 1 <= len(row.options) <= MAX_OPTIONS
            assert all(1 <= len(o.label) <= OPTION_LABEL for o in row.options)
            assert len({o.value for o in row.options}) == len(row.options)
            ids.append(row.custom_id)
        else:
            assert 1 <= len(row) <= BUTTONS_PER_ROW
            assert all(1 <= len(b.label) <= BUTTON_LABEL for b in row)
            ids += [b.custom_id for b in row]
    assert len(set(ids)) == len(ids) and all(len(i) <= 100 for i in ids)


def _reachable(legal: dict[str, Any], rows: list[Row], depth: int = 0) -> set[int]:
    """The moves a person can pick from ``rows``, following kinds and pages."""
    _within_discord_limits(rows)
    found: set[int] = set()
    for row in rows:
        if isinstance(row, Select):
            meaning = parse(row.custom_id)
            assert meaning is not None and meaning.seat == legal["seat"]
            assert meaning.version == legal["version"]
            for option in row.options:
                if meaning.action == "moves":
                    found.add(int(option.value))
                elif option.value.startswith("m"):
                    found |= _reachable(
                        legal, menu_rows(legal, TABLE, int(option.value[1:])), depth + 1
                    )
                else:
                    assert option.value.startswith("p") and depth < 10
                    found |= _reachable(
                        legal, kinds_rows(legal, TABLE, int(option.value[1:])), depth + 1
                    )
        else:
            for button in row:
                meaning = parse(button.custom_id)
                assert meaning is not None
                if meaning.action == "move":
                    found.add(meaning.item)
                else:
                    assert (meaning.action, button.label) == ("play", "Back")
    return found


@pytest.mark.parametrize(
    ("game", "seats", "options"),
    [
        ("freunde", 2, {}),
        ("freunde", 4, {}),
        ("harvest", 2, {}),
        ("tend", 3, {}),
        ("bardwood", 2, {}),
    ],
)
def test_every_legal_move_of_every_game_is_one_pick_away_within_discords_limits(
    game: str, seats: int, options: dict[str, Any]
) -> None:
    choose = random.Random(game)
    for seed in range(1, 4):
        legal = legal_reply(game, seats, options, seed, choose.randrange(0, 60))
        reached = _reachable(legal, move_rows(legal, TABLE))
        assert reached == set(range(len(legal["moves"])))


def _menus_of(sizes: list[int]) -> dict[str, Any]:
    moves: list[dict[str, Any]] = []
    menus_: list[dict[str, Any]] = []
    for n, size in enumerate(sizes):
        first = len(moves)
        moves += [
            {"command": {}, "group": f"g{n}", "text": f"Move {n}.{i} " + "x" * 120}
            for i in range(size)
        ]
        menus_.append({"title": f"Kind {n}", "moves": list(range(first, first + size))})
    return {"seat": 1, "version": 9, "moves": moves, "menus": menus_}


def test_menus_too_many_for_one_message_become_kinds_then_pages() -> None:
    fits = _menus_of([25, 25, 3, 1, 1, 1, 1, 1, 1])  # three selects and two rows of buttons
    rows = move_rows(fits, TABLE)
    assert [type(r) for r in rows] == [Select, Select, Select, tuple, tuple]
    assert rows[0].options[0].label.endswith("…") and len(rows[0].options[0].label) == OPTION_LABEL  # type: ignore[union-attr]
    kinds = _menus_of([2] * 6)
    assert [type(r) for r in move_rows(kinds, TABLE)] == [Select]
    many = _menus_of([1] * 60)
    first_page = kinds_rows(many, TABLE, 0)
    assert isinstance(first_page[0], Select) and first_page[0].options[-1].value == "p1"
    assert _reachable(many, move_rows(many, TABLE)) == set(range(60))
    assert menu_rows(many, TABLE, 99) == [(Button(f"play:{TABLE}", "Back", primary=False),)]


def test_options_are_read_as_json_where_they_can_be() -> None:
    assert parse_options("round_limit=2, draft=true first_game=false name=Ann") == {
        "round_limit": 2,
        "draft": True,
        "first_game": False,
        "name": "Ann",
    }
    assert parse_options(None) == {} == parse_options("  ")
    for wrong in ("round_limit", "=2", "a=1 b"):
        with pytest.raises(OptionsError):
            parse_options(wrong)


def _table(
    to_act: list[int], finished: bool = False, scores: list[int] | None = None
) -> dict[str, Any]:
    return {
        "seating": [
            {"seat": 0, "name": "Ann"},
            {"seat": 1, "name": "Bob"},
            {"seat": 2, "name": "Cy"},
        ],
        "status": {
            "to_act": to_act,
            "finished": finished,
            "scores": scores or [],
            "winners": [1] if finished else [],
        },
    }


def test_whose_turn_pings_discord_players_and_names_the_others() -> None:
    users = {0: "111", 1: "222"}
    assert turn_text(_table([1]), users) == "Your turn, <@222> (Bob)."
    assert turn_text(_table([0, 2]), users) == "Your turns, <@111> (Ann), **Cy**."
    final = final_text(_table([], True, [5, 9, 5]), users, "https://x/replay/t1")
    assert final.splitlines() == [
        "**Game over.** Final scores:",
        "  <@222> (Bob): 9 🏆",
        "  <@111> (Ann): 5",
        "  **Cy**: 5",
        "Replay: https://x/replay/t1",
    ]


def test_event_words_name_the_seats() -> None:
    names = {0: "Ann", 1: "Bob"}
    said = "Game over: seat 0 and seat 1 won; Seat 1 draws; seat 7 waits; seats 10"
    assert (
        with_names(said, names) == "Game over: Ann and Bob won; Bob draws; seat 7 waits; seats 10"
    )


def test_a_long_text_keeps_whole_lines_within_one_message() -> None:
    text = "\n".join(f"line {n} " + "y" * 90 for n in range(100))
    cut = bounded(text)
    assert len(cut) <= MESSAGE_LIMIT and cut.endswith("more lines")
    assert all(line in text.splitlines() for line in cut.splitlines()[:-1])
    assert bounded("short") == "short"


def test_a_signature_holds_only_for_the_key_the_body_and_a_fresh_timestamp() -> None:
    key = SigningKey.generate()
    now = time.time()
    stamp = str(int(now))
    body = b'{"type": 1}'
    signature = key.sign(stamp.encode() + body).signature.hex()
    verify = key.verify_key
    assert signature_holds(verify, signature, stamp, body, now, 300)
    assert not signature_holds(verify, signature, stamp, body + b" ", now, 300)
    assert not signature_holds(verify, signature, str(int(now) + 1), body, now, 300)
    assert not signature_holds(SigningKey.generate().verify_key, signature, stamp, body, now, 300)
    assert not signature_holds(verify, signature, stamp, body, now + 301, 300)
    assert not signature_holds(verify, "zz", stamp, body, now, 300)
    assert not signature_holds(verify, signature, "soon", body, now, 300)


def test_make_run_starts_the_bot_only_when_a_token_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("BW_GATEWAY_PORT", "8765")
    children, _ = Launcher(Settings()).plan("redis://127.0.0.1:1/0")
    assert "discord bot" not in [child.name for child in children]
    monkeypatch.setenv("DISCORD_TOKEN", "a token")
    monkeypatch.setenv("BW_DISCORD_PORT", "8123")
    children, env = Launcher(Settings()).plan("redis://127.0.0.1:1/0")
    bot = children[-1]
    assert (bot.name, bot.argv[1:], bot.address) == (
        "discord bot",
        ["-m", "services.discord"],
        "http://127.0.0.1:8123",
    )
    assert env["BW_URL"] == "http://127.0.0.1:8765"


def test_a_board_picture_is_sent_back_as_the_responses_attachment() -> None:
    """The whole HTTP path of one replica in process (hikari's multipart response
    included); the gateway is a fake here: the e2e test has the real one."""
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256))
    discord = Discord(["http://127.0.0.1:0"], "1200")
    ann = User("1100", "Ann")

    def gateway(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/v1/tables/t1/board.png" and "x-app-user" not in request.headers:
            return httpx.Response(200, content=png, headers={"content-type": "image/png"})
        return httpx.Response(
            404, json={"code": "route.not_found", "message": "No.", "details": {}}
        )

    async def run() -> tuple[Message, Message]:
        port = free_port()
        discord.urls = [f"http://127.0.0.1:{port}"]
        settings = DiscordSettings(token="t", public_key=discord.public_key, app_key="k")
        bot = make_bot(settings)
        http = httpx.AsyncClient(transport=httpx.MockTransport(gateway), base_url="http://gw")
        app = GatewayClient("http://gw", http, {"X-App-Key": "k"})
        handlers = Handlers(app, GatewayClient("http://gw", http), cast(Any, None), _no_post, "")
        bot.set_listener(hikari.CommandInteraction, handlers.on_command)
        runner = web.AppRunner(web_app(bot, settings))
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        try:
            public = await asyncio.to_thread(discord.slash, ann, "42", "board", table="t1")
            mine = await asyncio.to_thread(discord.slash, ann, "42", "board", table="t1", mine=True)
        finally:
            await runner.cleanup()
            await http.aclose()
        return public, mine

    public, mine = asyncio.run(run())
    assert public.files == [png] and public.ephemeral_for is None
    assert "not available" in mine.content and mine.ephemeral_for == ann.id and not mine.files


async def _no_post(channel: str, reply: Reply) -> None:
    raise AssertionError(f"nothing is posted outside the response: {channel} {reply}")
