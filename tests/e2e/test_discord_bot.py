"""The Discord bot, every process real: two bot replicas answer Discord's HTTP
interactions in turn against a real Boardwright stack, and only Discord's servers are
stood in for (tests/e2e/discord_standin.py): signed interactions in, interaction
responses and REST posts out. Two people open, join and play a whole Freunde game in a
channel through the slash commands, buttons and select menus."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from services.redis_server import free_port
from tests.e2e.discord_standin import Discord, Message, RestStandIn, User, snowflake
from tests.e2e.helpers import new_app
from tests.e2e.stack import ROOT, Stack

pytestmark = [pytest.mark.e2e]

APPLICATION_ID = "1200000000000000000"
PUBLIC_URL = "https://boardwright.example"
ANN = User("1100000000000000001", "Ann")
BOB = User("1100000000000000002", "Bob")
CLEO = User("1100000000000000003", "Cleo")


@dataclass
class Bots:
    discord: Discord
    rest: RestStandIn
    gateway: str
    processes: list[subprocess.Popen[bytes]]
    logs: list[Path]


def _start_replica(
    stack: Stack, discord: Discord, rest_url: str, key: str, port: int, log: Path
) -> subprocess.Popen[bytes]:
    env = {
        **stack.env(),
        "DISCORD_TOKEN": "test-token",
        "DISCORD_APPLICATION_ID": APPLICATION_ID,
        "DISCORD_PUBLIC_KEY": discord.public_key,
        "BW_DISCORD_APP_KEY": key,
        "BW_DISCORD_REST_URL": rest_url,
        "BW_URL": stack.url,
        "BW_PUBLIC_URL": PUBLIC_URL,
        "BW_DISCORD_PORT": str(port),
    }
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "services.discord"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


@pytest.fixture(scope="module")
def bots(stack: Stack, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bots]:
    _, key = new_app(stack, "Discord bot")
    rest = RestStandIn().start()
    ports = [free_port(), free_port()]
    discord = Discord([f"http://127.0.0.1:{port}" for port in ports], APPLICATION_ID)
    logs = [tmp_path_factory.mktemp("discord") / f"replica-{n}.log" for n in range(2)]
    processes = [
        _start_replica(stack, discord, rest.url, key, p, log)
        for p, log in zip(ports, logs, strict=True)
    ]
    try:
        deadline = time.monotonic() + 60
        for url, process, log in zip(discord.urls, processes, logs, strict=True):
            while True:
                assert process.poll() is None, log.read_text()
                try:
                    if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.1)
        yield Bots(discord, rest, stack.url, processes, logs)
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=10)
        rest.stop()


def _to_act(message: Message) -> str:
    """The user a turn message names as the one to act."""
    found = re.search(r"Your turn, <@(\d+)>", message.content)
    assert found, message.content
    return found[1]


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used (``/proc/<pid>/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _version(bots: Bots, table_id: str) -> int:
    return int(
        httpx.get(f"{bots.gateway}/v1/tables/{table_id}/events", params={"after": 0}).json()["head"]
    )


def test_a_bad_signature_is_refused_with_401_and_a_ping_is_answered(bots: Bots) -> None:
    discord = bots.discord
    ping = b'{"type": 1, "id": "1", "application_id": "' + APPLICATION_ID.encode() + b'"}'
    good = discord.sign(ping)
    for url in discord.urls:
        answered = httpx.post(f"{url}/interactions", content=ping, headers=good)
        assert (answered.status_code, answered.json()) == (200, {"type": 1})
    forged = dict(good, **{"X-Signature-Ed25519": "00" * 64})
    other_key = Discord(discord.urls, APPLICATION_ID).sign(ping)
    stale = discord.sign(ping, timestamp=str(int(time.time()) - 3600))
    tampered = ping.replace(b'"1"', b'"2"')
    for body, headers in (
        (ping, forged),
        (ping, other_key),
        (ping, stale),
        (tampered, good),
        (ping, {"content-type": "application/json"}),
    ):
        refused = discord.send(body, headers)
        assert refused.status_code == 401, (headers, refused.text)


def test_two_people_play_a_whole_game_in_a_channel_through_two_replicas(bots: Bots) -> None:
    discord, rest = bots.discord, bots.rest
    channel = snowflake()

    games = discord.slash(ANN, channel, "games")
    assert games.ephemeral_for == ANN.id and "**Freunde** (`freunde`)" in games.content
    assert "round_limit" in games.content

    refused = discord.slash(
        ANN, channel, "open", game="freunde", seats=2, options="round_limit=x y"
    )
    assert refused.ephemeral_for == ANN.id and "name=value" in refused.content
    too_many = discord.slash(ANN, channel, "open", game="freunde", seats=5)
    assert "seats.invalid" in too_many.content and too_many.ephemeral_for == ANN.id
    unknown = discord.slash(ANN, channel, "open", game="chess", seats=2)
    assert "game.not_found" in unknown.content
    opened = discord.slash(ANN, channel, "open", game="freunde", seats=2, options="round_limit=2")
    assert opened.ephemeral_for is None, opened.content
    table_id = re.search(r"`([0-9a-f]{8,})`", opened.content)[1]  # type: ignore[index]
    assert f"<@{ANN.id}> opened a freunde table for 2" in opened.content

    bad_table = discord.slash(ANN, channel, "play", table="../../v1/me/tables")
    assert "is not a table id" in bad_table.content and bad_table.ephemeral_for == ANN.id
    elsewhere = discord.slash(ANN, snowflake(), "play")
    assert "This channel has no table" in elsewhere.content
    nobody_yet = discord.slash(ANN, channel, "play")
    assert "not_started" in nobody_yet.content and nobody_yet.ephemeral_for == ANN.id

    began = discord.click(BOB, opened, opened.button("Join")["custom_id"])
    assert f"<@{BOB.id}> takes seat 1" in began.content and "The game begins." in began.content
    table = httpx.get(f"{bots.gateway}/v1/tables/{table_id}").json()
    assert [s["name"] for s in table["seating"]] == ["Ann", "Bob"]
    first = table["status"]["to_act"][0]
    assert _to_act(began) == (ANN, BOB)[first].id
    assert began.pings == [_to_act(began)]

    # The board: a PNG once the gateway draws one, a plain message until then.
    board = discord.slash(CLEO, channel, "board")
    if httpx.get(f"{bots.gateway}/v1/tables/{table_id}/board.png").status_code == 404:
        assert "not available" in board.content and board.ephemeral_for == CLEO.id
    else:
        assert board.files and board.files[0].startswith(b"\x89PNG")

    # Someone without a seat, and the player who is not to act, get moves from nobody.
    stranger = discord.click(CLEO, began, began.button("My moves")["custom_id"])
    assert stranger.ephemeral_for == CLEO.id and "auth.not_seated" in stranger.content
    waiting = (ANN, BOB)[1 - first]
    not_yours = discord.click(waiting, began, began.button("My moves")["custom_id"])
    assert "not your turn" in not_yours.content

    people = {ANN.id: ANN, BOB.id: BOB}
    choose = random.Random(14)
    turn_message = began
    posts_before = len(rest.posts)
    moves = forgeries = passes = 0
    old_menu: Message | None = None
    old_player = ANN
    stale_checked = False
    for _ in range(200):
        if "Game over" in turn_message.content:
            break
        player = people[_to_act(turn_message)]
        if moves % 2:
            # A spectator looks at the board meanwhile, so the replica that made a
            # menu and the one that gets its pick change places from move to move; and
            # this player asks with /play instead of the button.
            discord.slash(CLEO, channel, "board")
            menu = discord.slash(player, channel, "play")
        else:
            menu = discord.click(player, turn_message, turn_message.button("My moves")["custom_id"])
        assert menu.ephemeral_for == player.id and menu.controls(), menu.content
        version = _version(bots, table_id)
        if forgeries < 2:
            # The other player replays this menu's components as their own clicks: the
            # bot acts as whoever clicked, so the platform keeps the seat its player's.
            other = people[BOB.id if player is ANN else ANN.id]
            control = menu.controls()[0]
            values = None if control["type"] == 2 else [control["options"][0]["value"]]
            forged = discord.click(other, menu, control["custom_id"], values)
            assert "made for seat" in forged.content, forged.content
            unseated = discord.click(CLEO, menu, control["custom_id"], values)
            assert "auth.not_seated" in unseated.content, unseated.content
            assert _version(bots, table_id) == version
            forgeries += 1
        if old_menu is not None:
            # A menu from before the last move is not played: it is refreshed instead.
            control = old_menu.controls()[0]
            values = None if control["type"] == 2 else [control["options"][0]["value"]]
            stale = discord.click(old_player, old_menu, control["custom_id"], values)
            assert stale.content.startswith("The table has moved on"), stale.content
            assert _version(bots, table_id) == version
            old_menu = None
            stale_checked = True
        if moves == 0:
            # A second menu, opened now and left: it is used only after the next move.
            old_menu = discord.click(
                player, turn_message, turn_message.button("My moves")["custom_id"]
            )
            old_player = player
        while True:
            control = choose.choice(menu.controls())
            if control["type"] == 2:
                answer = discord.click(player, menu, control["custom_id"])
            else:
                option = choose.choice(control["options"])
                answer = discord.click(player, menu, control["custom_id"], [option["value"]])
            if answer.content.startswith("You played:"):
                break
            menu = answer  # a kind of move chosen, or Back: pick again in the new menu
        assert answer.id == menu.id and answer.components == []  # the menu became the move
        moves += 1
        assert len(rest.posts) == posts_before + moves
        turn_message = rest.posts[-1]
        assert turn_message.channel_id == channel
        assert turn_message.content.startswith(f"**{player.name}** moved:")
        assert "\n> " in turn_message.content  # the move's events in words
        if "Game over" not in turn_message.content:
            # A ping when the turn passes; none while the mover goes on with its turn.
            passed = _to_act(turn_message) != player.id
            assert turn_message.pings == ([_to_act(turn_message)] if passed else [])
            passes += passed
    else:
        pytest.fail("the game did not end")

    final = httpx.get(f"{bots.gateway}/v1/tables/{table_id}").json()["status"]
    assert final["finished"]
    assert f"Replay: {PUBLIC_URL}/replay/{table_id}" in turn_message.content
    for seat, person in enumerate((ANN, BOB)):
        assert f"<@{person.id}> ({person.name}): {final['scores'][seat]}" in turn_message.content
    assert sorted(turn_message.pings) == sorted([ANN.id, BOB.id])
    over = discord.slash(ANN, channel, "play")
    assert over.content == "This game is over."
    assert stale_checked
    assert moves >= 4 and passes >= 2 and discord.sent > 2 * moves
    served = [log.read_text().count('"discord.moved"') for log in bots.logs]
    assert all(count > 0 for count in served) and sum(served) == moves, served
    cpu = [_cpu_seconds(process.pid) for process in bots.processes]
    print(
        f"\ndiscord bot: {moves} moves, {discord.sent} interactions over 2 replicas"
        f" (moves per replica {served}); replica CPU {cpu[0]:.2f} s + {cpu[1]:.2f} s"
        f" since start, {sum(cpu) / discord.sent * 1000:.0f} ms per interaction at most"
    )


def test_the_slash_commands_are_registered_with_the_games_of_the_gateway(
    bots: Bots, stack: Stack
) -> None:
    env = {
        **stack.env(),
        "DISCORD_TOKEN": "test-token",
        "DISCORD_APPLICATION_ID": APPLICATION_ID,
        "BW_DISCORD_REST_URL": bots.rest.url,
        "BW_URL": stack.url,
    }
    guild = snowflake()
    done = subprocess.run(
        [sys.executable, "-m", "services.discord", "register", "--guild", guild],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "registered 5 commands" in done.stdout
    assert (
        "PUT",
        f"/api/v10/applications/{APPLICATION_ID}/guilds/{guild}/commands",
    ) in bots.rest.requests
    commands = {c["name"]: c for c in bots.rest.registered}
    assert sorted(commands) == ["board", "games", "join", "open", "play"]
    game = next(o for o in commands["open"]["options"] if o["name"] == "game")
    assert [(c["name"], c["value"]) for c in game["choices"]] == [("Freunde", "freunde")]
