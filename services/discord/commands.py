"""The bot's slash commands, and registering them with Discord.

Discord shows a command only once the application has registered it
(``python -m services.discord register``): globally, or in one server (``--guild``),
where changes show at once. The games offered are read from the gateway
(``GET /v1/games``) and become ``/open``'s choices; register again after adding a game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import hikari
from hikari.api import special_endpoints

__all__ = ["command_builders"]

_STRING = hikari.OptionType.STRING
_INTEGER = hikari.OptionType.INTEGER
_BOOLEAN = hikari.OptionType.BOOLEAN


def _table_option() -> hikari.CommandOption:
    return hikari.CommandOption(
        type=_STRING,
        name="table",
        description="A table id (default: this channel's table)",
        is_required=False,
        max_length=64,
    )


def command_builders(
    rest: hikari.api.RESTClient, games: Sequence[Mapping[str, Any]]
) -> list[special_endpoints.SlashCommandBuilder]:
    """The slash commands, ``/open`` offering ``games`` (the gateway's list)."""
    max_seats = max((int(game["max_seats"]) for game in games), default=8)
    choices = [hikari.CommandChoice(name=str(g["title"]), value=str(g["game"])) for g in games]
    games_command = rest.slash_command_builder("games", "The games you can play here")
    open_command = (
        rest.slash_command_builder("open", "Open a table in this channel; you take seat 0")
        .add_option(
            hikari.CommandOption(
                type=_STRING,
                name="game",
                description="Which game",
                is_required=True,
                choices=choices[:25],
            )
        )
        .add_option(
            hikari.CommandOption(
                type=_INTEGER,
                name="seats",
                description="How many players",
                is_required=True,
                min_value=1,
                max_value=max_seats,
            )
        )
        .add_option(
            hikari.CommandOption(
                type=_STRING,
                name="options",
                description="The game's options as name=value pairs (see /games)",
                is_required=False,
                max_length=400,
            )
        )
    )
    join = (
        rest.slash_command_builder("join", "Take a seat at this channel's table")
        .add_option(_table_option())
        .add_option(
            hikari.CommandOption(
                type=_INTEGER,
                name="seat",
                description="Which seat (default: the first open one)",
                is_required=False,
                min_value=0,
                max_value=max_seats - 1,
            )
        )
    )
    board = (
        rest.slash_command_builder("board", "Show the board")
        .add_option(_table_option())
        .add_option(
            hikari.CommandOption(
                type=_BOOLEAN,
                name="mine",
                description="As your seat sees it, shown to you only",
                is_required=False,
            )
        )
    )
    play = rest.slash_command_builder("play", "Your moves, to pick from").add_option(
        _table_option()
    )
    leave = rest.slash_command_builder("leave", "Give up your seat before the game starts")
    leave.add_option(_table_option())
    start = (
        rest.slash_command_builder("start", "Start your table now, bots in the open seats")
        .add_option(
            hikari.CommandOption(
                type=_STRING,
                name="bots",
                description="Which bots take the open seats (default: greedy)",
                is_required=False,
                choices=[hikari.CommandChoice(name=b, value=b) for b in ("greedy", "random")],
            )
        )
        .add_option(_table_option())
    )
    rematch = rest.slash_command_builder(
        "rematch", "Play this channel's finished game again, same seats"
    ).add_option(_table_option())
    return [games_command, open_command, join, board, play, leave, start, rematch]
