"""The bot's answers to slash commands and to its buttons and select menus.

Every answer is worked out from the interaction alone: the caller is the Discord user
who sent it (``discord:<user id>`` in the app's namespace, sent as ``X-App-User``), the
table comes from the command's ``table`` option, the component's custom_id, or the
channel's table in Redis (:mod:`services.discord.homes`), and everything else is asked
of the platform's public HTTP API. So any replica answers any interaction.

The platform decides who may do what: the bot always acts as the user who clicked, so
nobody can play another's seat (the gateway refuses), and a menu made for one seat and
version is refused for another seat and refreshed when the table has moved on.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import hikari
from hikari.api import special_endpoints

from gateway.client import ApiFailure, GatewayClient
from services.discord.custom_ids import TABLE_ID, CustomId, parse
from services.discord.homes import Homes
from services.discord.menus import Button, Row, kinds_rows, menu_rows, move_rows
from services.discord.replies import Reply, action_rows, respond
from services.discord.words import (
    MESSAGE_LIMIT,
    OptionsError,
    bounded,
    final_text,
    games_text,
    names_of,
    parse_options,
    turn_text,
    with_names,
)
from services.logs import bind, get_logger

__all__ = ["Handlers", "NoTable", "display_name", "player_of", "post_with"]

log = get_logger("discord")

Interaction = hikari.CommandInteraction | hikari.ComponentInteraction
_NAME_LIMIT = 40
_NO_PICTURES = (
    "Board pictures are not available on this Boardwright yet (its gateway has no "
    "`board.png`). `/play` still lists your moves in words."
)


class NoTable(Exception):
    """The interaction names no table and its channel has none."""


def player_of(user: hikari.PartialUser) -> str:
    """The Discord user as the app's user id (``X-App-User``)."""
    return f"discord:{user.id}"


def display_name(interaction: Interaction) -> str:
    """The name the user shows in this server (else their global name), as a seat name:
    printable, at most 40 characters."""
    member = interaction.member
    name = member.display_name if member is not None else interaction.user.display_name
    printable = "".join(c for c in (name or "") if c.isprintable()).strip()
    return (printable or f"Player {interaction.user.id}")[:_NAME_LIMIT].strip()


def _option(interaction: hikari.CommandInteraction, name: str) -> Any:
    for option in interaction.options or ():
        if option.name == name:
            return option.value
    return None


def _table_buttons(table_id: str) -> tuple[Button, ...]:
    return (
        Button(str(CustomId("play", table_id)), "My moves"),
        Button(str(CustomId("board", table_id)), "Board", primary=False),
    )


class Handlers:
    """Answers interactions with the app's identity on the platform.

    ``app`` carries the app's ``X-App-Key``; ``spectator`` carries nothing (public
    reads: the board, the events in words, whose turn). ``post`` sends a message to a
    channel outside an interaction's response (Discord's REST API).
    """

    def __init__(
        self,
        app: GatewayClient,
        spectator: GatewayClient,
        homes: Homes,
        post: Callable[[str, Reply], Awaitable[None]],
        replay_base: str,
    ) -> None:
        self.app = app
        self.spectator = spectator
        self.homes = homes
        self.post = post
        self.replay_base = replay_base.rstrip("/")
        self._commands: dict[str, Callable[[hikari.CommandInteraction], Awaitable[Reply]]] = {
            "games": self.games,
            "open": self.open,
            "join": self.join,
            "board": self.board,
            "play": self.play,
            "leave": self.leave,
            "start": self.start,
            "rematch": self.rematch,
        }

    # -- entry points -------------------------------------------------------------------

    async def on_command(
        self, interaction: hikari.CommandInteraction
    ) -> special_endpoints.InteractionMessageBuilder:
        handler = self._commands.get(interaction.command_name)
        with bind(interaction_id=str(interaction.id), command=interaction.command_name):
            if handler is None:
                return respond(interaction, Reply("I do not know that command.", ephemeral=True))
            return respond(interaction, await self._answered(handler(interaction)))

    async def on_component(
        self, interaction: hikari.ComponentInteraction
    ) -> special_endpoints.InteractionMessageBuilder:
        meaning = parse(interaction.custom_id)
        with bind(interaction_id=str(interaction.id), custom_id=interaction.custom_id):
            if meaning is None:
                return respond(interaction, Reply("That button is not mine.", ephemeral=True))
            with bind(table_id=meaning.table_id):
                return respond(
                    interaction, await self._answered(self._component(interaction, meaning))
                )

    async def _answered(self, work: Awaitable[Reply]) -> Reply:
        """``work``'s reply; a refusal by the platform or a missing table as a message to
        the caller alone."""
        try:
            return await work
        except ApiFailure as failure:
            log.info("discord.refused", status=failure.status, code=failure.code)
            return Reply(f"{failure.message} (`{failure.code}`)", ephemeral=True)
        except (NoTable, OptionsError) as wrong:
            return Reply(str(wrong), ephemeral=True)

    def _as(self, interaction: Interaction) -> GatewayClient:
        return self.app.acting_for(player_of(interaction.user))

    async def _table(self, interaction: hikari.CommandInteraction) -> str:
        given = str(_option(interaction, "table") or "").strip()
        if given:
            if not TABLE_ID.match(given):
                raise NoTable(f"`{given[:64]}` is not a table id.")
            return given
        found = await self.homes.table_of(str(interaction.channel_id))
        if found is None:
            raise NoTable(
                "This channel has no table: open one with `/open`, or name one with `table:`."
            )
        return found

    # -- slash commands -----------------------------------------------------------------

    async def games(self, interaction: hikari.CommandInteraction) -> Reply:
        return Reply(games_text(await self.spectator.games()), ephemeral=True)

    async def open(self, interaction: hikari.CommandInteraction) -> Reply:
        game = str(_option(interaction, "game") or "").strip()
        given = _option(interaction, "seats")
        seats = 2 if given is None else int(given)
        options = parse_options(_option(interaction, "options"))
        created = await self._as(interaction).open_table(
            game, seats, name=display_name(interaction), options=options
        )
        table_id = str(created["table_id"])
        channel = str(interaction.channel_id)
        await self.homes.open_in(channel, table_id)
        await self.homes.hosted(table_id, str(interaction.user.id))
        await self.homes.seated(table_id, int(created["seat"]), str(interaction.user.id))
        log.info("discord.opened", table_id=table_id, game=game, seats=seats)
        opened = f"<@{interaction.user.id}> opened a {game} table for {seats} (`{table_id}`)."
        if created.get("state") == "started":
            return await self._began(table_id, opened)
        join = (Button(str(CustomId("join", table_id)), "Join"),)
        open_seats = f"{seats - 1} open seat{'s' if seats > 2 else ''}"
        return Reply(f"{opened} {open_seats}: join with the button or `/join`.", rows=[join])

    async def join(self, interaction: hikari.CommandInteraction) -> Reply:
        seat = _option(interaction, "seat")
        return await self._join(interaction, await self._table(interaction), seat)

    async def board(self, interaction: hikari.CommandInteraction) -> Reply:
        mine = bool(_option(interaction, "mine"))
        table_id = await self._table(interaction)
        return await self._picture(
            self._as(interaction) if mine else self.spectator, table_id, mine
        )

    async def play(self, interaction: hikari.CommandInteraction) -> Reply:
        return await self._moves(interaction, await self._table(interaction), update=False)

    async def leave(self, interaction: hikari.CommandInteraction) -> Reply:
        table_id = await self._table(interaction)
        home = await self.homes.home(table_id)
        user = str(interaction.user.id)
        seats = [seat for seat, sitter in home.users.items() if sitter == user]
        if not seats:
            return Reply("You have no seat at this table.", ephemeral=True)
        await self._as(interaction).leave(table_id, seats[0])
        await self.homes.left(table_id, seats[0])
        log.info("discord.left", table_id=table_id, seat=seats[0])
        return Reply(
            f"<@{user}> leaves seat {seats[0]} at `{table_id}`.",
            rows=[(Button(str(CustomId("join", table_id)), "Join"),)],
        )

    async def start(self, interaction: hikari.CommandInteraction) -> Reply:
        table_id = await self._table(interaction)
        if (await self.homes.home(table_id)).host != str(interaction.user.id):
            return Reply("Only the person who opened this table starts it early.", ephemeral=True)
        bots = str(_option(interaction, "bots") or "greedy")
        started = await self._as(interaction).start(table_id, bots)
        log.info("discord.started", table_id=table_id, bots=bots)
        said = f"<@{interaction.user.id}> starts `{table_id}`, {bots} bots in the open seats."
        if started.get("state") == "started":
            return await self._began(table_id, said)
        return Reply(said)

    async def rematch(self, interaction: hikari.CommandInteraction) -> Reply:
        table_id = await self._table(interaction)
        try:
            claimed = await self._as(interaction).rematch(table_id)
        except ApiFailure as failure:
            if failure.code != "table.not_started":
                raise
            # The channel's table is the rematch someone opened: take the seat kept for you.
            return await self._join(interaction, table_id, None)
        again = str(claimed["table_id"])
        channel = str(interaction.channel_id)
        await self.homes.open_in(channel, again)
        if not (await self.homes.home(again)).host:
            await self.homes.hosted(again, str(interaction.user.id))
        await self.homes.seated(again, int(claimed["seat"]), str(interaction.user.id))
        log.info("discord.rematch", table_id=table_id, rematch=again, seat=claimed["seat"])
        said = f"<@{interaction.user.id}> takes seat {claimed['seat']} in the rematch (`{again}`)."
        if claimed.get("state") == "started":
            return await self._began(again, said)
        return Reply(f"{said} The other players take theirs with `/rematch`.")

    # -- components -----------------------------------------------------------------------

    async def _component(
        self, interaction: hikari.ComponentInteraction, meaning: CustomId
    ) -> Reply:
        table_id = meaning.table_id
        if meaning.action == "join":
            return await self._join(interaction, table_id, None)
        if meaning.action == "board":
            return await self._picture(self.spectator, table_id, True)
        in_menu = bool(interaction.message.flags & hikari.MessageFlag.EPHEMERAL)
        if meaning.action == "play":
            return await self._moves(interaction, table_id, update=in_menu)
        legal = await self._as(interaction).legal_commands(table_id)
        stale = self._stale(legal, meaning)
        if stale is not None:
            return stale
        value = interaction.values[0] if interaction.values else ""
        if meaning.action == "kinds":
            if value.startswith("p") and value[1:].isdigit():
                rows = kinds_rows(legal, table_id, int(value[1:]))
            elif value.startswith("m") and value[1:].isdigit():
                rows = menu_rows(legal, table_id, int(value[1:]))
            else:
                rows = move_rows(legal, table_id)
            return Reply(self._moves_heading(legal), rows=rows, ephemeral=True, update=True)
        move = meaning.item if meaning.action == "move" else int(value) if value.isdigit() else -1
        return await self._play_move(interaction, table_id, legal, move)

    def _stale(self, legal: dict[str, Any], meaning: CustomId) -> Reply | None:
        """A refusal when the menu was made for another seat, fresh menus when the table
        has moved on since; ``None`` when the menu still holds."""
        if int(legal["seat"]) != meaning.seat:
            return Reply(
                f"That menu was made for seat {meaning.seat}; yours is seat {legal['seat']}.",
                ephemeral=True,
            )
        if int(legal["version"]) != meaning.version:
            if not legal["moves"]:
                return Reply(
                    "The table has moved on, and it is not your turn now.",
                    ephemeral=True,
                    update=True,
                )
            return Reply(
                "The table has moved on since that menu was made. " + self._moves_heading(legal),
                rows=move_rows(legal, meaning.table_id),
                ephemeral=True,
                update=True,
            )
        return None

    # -- shared steps -------------------------------------------------------------------

    async def _join(self, interaction: Interaction, table_id: str, seat: Any) -> Reply:
        claimed = await self._as(interaction).claim(
            table_id, seat=None if seat is None else int(seat), name=display_name(interaction)
        )
        taken = int(claimed["seat"])
        await self.homes.seated(table_id, taken, str(interaction.user.id))
        log.info("discord.joined", table_id=table_id, seat=taken)
        joined = f"<@{interaction.user.id}> takes seat {taken} at `{table_id}`."
        if claimed.get("state") == "started":
            return await self._began(table_id, joined)
        return Reply(joined, rows=[(Button(str(CustomId("join", table_id)), "Join"),)])

    async def _began(self, table_id: str, said: str) -> Reply:
        """``said``, then that the game begins and whose turn it is (a ping)."""
        table = await self.spectator.view(table_id, min_version=1)
        home = await self.homes.home(table_id)
        text = f"{said}\nThe game begins. {turn_text(table, home.users)}"
        return Reply(text, rows=[_table_buttons(table_id)], pings=self._pinged(table, home.users))

    @staticmethod
    def _pinged(table: dict[str, Any], users: dict[int, str], mover: str = "") -> list[str]:
        """Whom a message about ``table`` pings: the players to act (not ``mover``, who
        goes on with a turn of several moves), or all at the end."""
        status = table.get("status") or {}
        if status.get("finished"):
            return sorted(set(users.values()))
        to_act = (users[int(seat)] for seat in status.get("to_act") or () if int(seat) in users)
        return [user for user in to_act if user != mover]

    async def _picture(self, client: GatewayClient, table_id: str, ephemeral: bool) -> Reply:
        try:
            png = await client.board_png(table_id)
        except ApiFailure as failure:
            if failure.status == 404 and failure.code == "route.not_found":
                return Reply(_NO_PICTURES, ephemeral=True)
            raise
        return Reply(f"Table `{table_id}`", ephemeral=ephemeral, picture=png)

    @staticmethod
    def _moves_heading(legal: dict[str, Any]) -> str:
        count = len(legal["moves"])
        return f"Seat {legal['seat']}, {count} move{'s' if count != 1 else ''}: pick one."

    async def _moves(self, interaction: Interaction, table_id: str, update: bool) -> Reply:
        legal = await self._as(interaction).legal_commands(table_id)
        if legal["moves"]:
            rows: list[Row] = move_rows(legal, table_id)
            return Reply(self._moves_heading(legal), rows=rows, ephemeral=True, update=update)
        table = await self.spectator.view(table_id, min_version=int(legal["version"]))
        if (table.get("status") or {}).get("finished"):
            return Reply("This game is over.", ephemeral=True, update=update)
        home = await self.homes.home(table_id)
        return Reply(
            f"It is not your turn. {turn_text(table, home.users)}", ephemeral=True, update=update
        )

    async def _play_move(
        self,
        interaction: hikari.ComponentInteraction,
        table_id: str,
        legal: dict[str, Any],
        move: int,
    ) -> Reply:
        moves = legal["moves"]
        if not 0 <= move < len(moves):
            return Reply("That is not one of your moves.", ephemeral=True)
        version = int(legal["version"])
        chosen = moves[move]
        # The same id for the same menu pick: a click that reaches two replicas, or is
        # sent again, is one move (the platform's command ids are per seat).
        result = await self._as(interaction).command(
            table_id, None, f"discord.{version}.{move}", chosen["command"], expected_version=version
        )
        log.info("discord.moved", table_id=table_id, seat=legal["seat"], version=result["version"])
        await self._announce(interaction, table_id, version, int(result["version"]))
        return Reply(f"You played: {chosen['text']}", ephemeral=True, update=True)

    async def _announce(
        self, interaction: Interaction, table_id: str, before: int, after: int
    ) -> None:
        """Post in the table's channel what just happened, as every spectator may read it,
        then whose turn it is (a ping), or the final scores and the replay link."""
        page = await self.spectator.events(table_id, after=before)
        table = await self.spectator.view(table_id, min_version=after)
        names = names_of(table)
        lines = [
            f"> {with_names(event['text'], names)}"
            for event in page["events"]
            if event["version"] <= after and event.get("text")
        ]
        home = await self.homes.home(table_id)
        finished = bool((table.get("status") or {}).get("finished"))
        tail = (
            final_text(table, home.users, f"{self.replay_base}/replay/{table_id}")
            if finished
            else turn_text(table, home.users)
        )
        said = [f"**{display_name(interaction)}** moved:", *lines]
        text = bounded("\n".join(said), MESSAGE_LIMIT - len(tail) - 1)
        reply = Reply(
            f"{text}\n{tail}",
            rows=[] if finished else [_table_buttons(table_id)],
            pings=self._pinged(table, home.users, mover=str(interaction.user.id)),
        )
        channel = home.channel or str(interaction.channel_id)
        try:
            await self.post(channel, reply)
        except (hikari.HikariError, aiohttp.ClientError, TimeoutError):
            # The move stands; only its announcement is lost (the next one says whose turn).
            log.exception("discord.post_failed", table_id=table_id, channel=channel)


async def post_with(rest: hikari.api.RESTClient, channel: str, reply: Reply) -> None:
    """Send ``reply`` to ``channel`` through Discord's REST API."""
    await rest.create_message(
        hikari.Snowflake(channel),
        reply.content,
        components=action_rows(reply.rows),
        user_mentions=[hikari.Snowflake(user) for user in reply.pings] or False,
        role_mentions=False,
        mentions_everyone=False,
        attachment=hikari.Bytes(reply.picture, reply.picture_name)
        if reply.picture
        else hikari.UNDEFINED,
    )
