"""The Discord bot, every process real: two bot replicas answer Discord's HTTP
interactions in turn against a real Boardwright stack, and only Discord's servers are
stood in for (tests/e2e/discord_standin.py): signed interactions in, interaction
responses and REST posts out. Two people open, join and play a whole Freunde game in a
channel through the slash commands, buttons and select menus; a seat is left, a table
started early with bots and a rematch played in its channel."""

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


def _play_as(bots: Bots, people: list[User], channel: str, table_id: str, seed: int) -> None:
    """``people`` pick random moves in the channel whenever it is their turn, until the
    game ends (the bots in the other seats play theirs through the scheduler)."""
    choose = random.Random(seed)
    for _ in range(400):
        table = httpx.get(f"{bots.gateway}/v1/tables/{table_id}").json()
        if table["status"]["finished"]:
            return
        menus = [(p, bots.discord.slash(p, channel, "play")) for p in people]
        ready = [(p, menu) for p, menu in menus if menu.controls()]
        if not ready:
            time.sleep(0.1)  # nobody's turn yet: a bot is playing
            continue
        person, menu = ready[0]
        for _ in range(50):
            control = choose.choice(menu.controls())
            values = None if control["type"] == 2 else [choose.choice(control["options"])["value"]]
            answer = bots.discord.click(person, menu, control["custom_id"], values)
            if not answer.controls() or answer.content.startswith("You played:"):
                break
            menu = answer
    pytest.fail("the game did not end")


def test_a_seat_is_left_a_table_started_with_bots_and_a_rematch_played_in_its_channel(
    bots: Bots,
) -> None:
    discord = bots.discord
    channel = snowflake()
    opened = discord.slash(ANN, channel, "open", game="freunde", seats=4, options="round_limit=1")
    table_id = re.search(r"`([0-9a-f]{8,})`", opened.content)[1]  # type: ignore[index]
    for n, person in enumerate((BOB, CLEO), start=1):
        joined = discord.slash(person, channel, "join")
        assert f"<@{person.id}> takes seat {n}" in joined.content, joined.content

    outsider = User("1100000000000000009", "Dan")
    nobody = discord.slash(outsider, channel, "leave")
    assert nobody.ephemeral_for == outsider.id and "no seat" in nobody.content
    left = discord.slash(CLEO, channel, "leave")
    assert f"<@{CLEO.id}> leaves seat 2" in left.content, left.content
    seating = httpx.get(f"{bots.gateway}/v1/tables/{table_id}").json()["seating"]
    assert [seat["open"] for seat in seating] == [False, False, True, True]

    # Only the person who opened it starts it early (the platform would let the bot's app).
    not_host = discord.slash(BOB, channel, "start")
    assert not_host.ephemeral_for == BOB.id and "Only the person who opened" in not_host.content
    assert httpx.get(f"{bots.gateway}/v1/tables/{table_id}").json()["state"] == "open"
    began = discord.slash(ANN, channel, "start", bots="random")
    assert "random bots in the open seats" in began.content and "The game begins." in began.content
    seating = httpx.get(f"{bots.gateway}/v1/tables/{table_id}").json()["seating"]
    assert [seat["bot"] for seat in seating] == [None, None, "random", "random"]

    _play_as(bots, [ANN, BOB], channel, table_id, seed=5)
    again = discord.slash(ANN, channel, "rematch")
    assert "takes seat 0 in the rematch" in again.content, again.content
    assert "The other players take theirs with `/rematch`" in again.content
    rematch_id = re.search(r"rematch \(`([0-9a-f]{8,})`\)", again.content)[1]  # type: ignore[index]
    assert rematch_id != table_id
    # Bob asks in the same channel, whose table is now the rematch: he gets his seat back.
    bob_again = discord.slash(BOB, channel, "rematch")
    assert f"<@{BOB.id}> takes seat 1 at `{rematch_id}`" in bob_again.content, bob_again.content
    assert "The game begins." in bob_again.content
    seating = httpx.get(f"{bots.gateway}/v1/tables/{rematch_id}").json()["seating"]
    assert [seat["bot"] for seat in seating] == [None, None, "random", "random"]
    assert [seat["name"] for seat in seating][:2] == ["Ann", "Bob"]
    _play_as(bots, [ANN, BOB], channel, rematch_id, seed=6)
    over = discord.slash(BOB, channel, "play")
    assert over.content == "This game is over."


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
    assert "registered 8 commands" in done.stdout
    assert (
        "PUT",
        f"/api/v10/applications/{APPLICATION_ID}/guilds/{guild}/commands",
    ) in bots.rest.requests
    commands = {c["name"]: c for c in bots.rest.registered}
    assert sorted(commands) == [
        "board",
        "games",
        "join",
        "leave",
        "open",
        "play",
        "rematch",
        "start",
    ]
    bots_option = next(o for o in commands["start"]["options"] if o["name"] == "bots")
    assert [c["value"] for c in bots_option["choices"]] == ["greedy", "random"]
    game = next(o for o in commands["open"]["options"] if o["name"] == "game")
    assert [(c["name"], c["value"]) for c in game["choices"]] == [("Freunde", "freunde")]
