"""What the bot says in a channel, built from the platform's replies: the games, whose
turn it is (a mention pings a Discord player), the moves just made, the final scores.

Pure functions of JSON the gateway returned, so they are tested without Discord.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = [
    "MESSAGE_LIMIT",
    "OptionsError",
    "bounded",
    "final_text",
    "games_text",
    "names_of",
    "parse_options",
    "seat_label",
    "turn_text",
    "with_names",
]

MESSAGE_LIMIT = 2000  # characters in one Discord message
_OPTIONS_LIMIT = 20
_SEAT_WORDS = re.compile(r"\b[Ss]eat (\d+)\b")


class OptionsError(ValueError):
    """``/open``'s options are not ``name=value`` pairs."""


def games_text(games: Iterable[Mapping[str, Any]]) -> str:
    """Each game with its seat counts and options, one block each."""
    blocks = []
    for game in games:
        lines = [
            f"**{game['title']}** (`{game['game']}`): {game['min_seats']}–{game['max_seats']} seats"
        ]
        for option in game.get("options") or ():
            choices = f" ({', '.join(option['choices'])})" if option.get("choices") else ""
            lines.append(
                f"  • `{option['name']}={json.dumps(option['default'])}`{choices}: "
                f"{option['description']}"
            )
        blocks.append("\n".join(lines))
    return bounded("\n".join(blocks) or "No games are offered.")


def parse_options(text: str | None) -> dict[str, Any]:
    """``"round_limit=2 draft=true"`` (spaces or commas between pairs) as
    ``{"round_limit": 2, "draft": True}``: a value that reads as JSON is taken as such,
    anything else as a string. The gateway checks them against the game."""
    options: dict[str, Any] = {}
    for pair in (text or "").replace(",", " ").split():
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise OptionsError(f"`{pair}` is not `name=value`.")
        try:
            options[name] = json.loads(value)
        except ValueError:
            options[name] = value
    if len(options) > _OPTIONS_LIMIT:
        raise OptionsError(f"At most {_OPTIONS_LIMIT} options.")
    return options


def seat_label(seat: int, names: Mapping[int, str], users: Mapping[int, str]) -> str:
    """A seat as the channel reads it: a mention of its Discord player (which pings),
    else its display name."""
    name = names.get(seat, f"Seat {seat}")
    if seat in users:
        return f"<@{users[seat]}> ({name})"
    return f"**{name}**"


def names_of(table: Mapping[str, Any]) -> dict[int, str]:
    """Seat → display name from a table read (``GET /v1/tables/{id}``)."""
    return {int(seat["seat"]): str(seat["name"]) for seat in table.get("seating") or ()}


def with_names(text: str, names: Mapping[int, str]) -> str:
    """An event's words with each "seat N" as that seat's display name: the channel knows
    its players by name, not by seat number."""
    return _SEAT_WORDS.sub(lambda found: names.get(int(found[1]), found[0]), text)


def turn_text(table: Mapping[str, Any], users: Mapping[int, str]) -> str:
    """Whose turn it is, or the game's end when it is over."""
    status = table.get("status") or {}
    names = names_of(table)
    to_act = [int(seat) for seat in status.get("to_act") or ()]
    if not to_act:
        return "Nobody is to act."
    who = ", ".join(seat_label(seat, names, users) for seat in to_act)
    return f"Your turn, {who}." if len(to_act) == 1 else f"Your turns, {who}."


def final_text(table: Mapping[str, Any], users: Mapping[int, str], replay_url: str) -> str:
    """The final scores, the winners and where to replay the game."""
    status = table.get("status") or {}
    names = names_of(table)
    scores = list(status.get("scores") or ())
    winners = {int(seat) for seat in status.get("winners") or ()}
    order = sorted(range(len(scores)), key=lambda seat: (-scores[seat], seat))
    lines = ["**Game over.** Final scores:"]
    for seat in order:
        crown = " 🏆" if seat in winners else ""
        lines.append(f"  {seat_label(seat, names, users)}: {scores[seat]}{crown}")
    lines.append(f"Replay: {replay_url}")
    return "\n".join(lines)


def bounded(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` within one message: whole lines kept while they fit, then how many more."""
    if len(text) <= limit:
        return text
    lines = text.split("\n")
    kept: list[str] = []
    used = 0
    for number, line in enumerate(lines):
        more = f"… and {len(lines) - number} more lines"
        if used + len(line) + 1 + len(more) > limit:
            kept.append(more)
            break
        kept.append(line)
        used += len(line) + 1
    return "\n".join(kept)
