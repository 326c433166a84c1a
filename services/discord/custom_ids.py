"""What a button or a select menu carries back to the bot: its ``custom_id``.

Discord returns the custom_id of the component a person used, with the interaction,
to whichever bot replica it reaches. Everything needed to answer lives in it, so no
replica keeps any state: the action, the table, and for a move the seat and table
version the menu was made for (and which menu or move). Discord allows 100 characters;
the longest id here is about 60.

    join:<table>                       take a seat at the table
    play:<table>                       show me my moves
    board:<table>                      show me the board (as I may see it)
    kinds:<table>:<seat>:<version>:<page>   a select of kinds of move (value: a menu)
    moves:<table>:<seat>:<version>:<menu>   a select of moves (value: a move)
    move:<table>:<seat>:<version>:<move>    a button for one move
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["ACTIONS", "TABLE_ID", "CustomId", "parse"]

ACTIONS = ("join", "play", "board", "kinds", "moves", "move")
_TABLE_ACTIONS = ("join", "play", "board")
_TABLE = r"[A-Za-z0-9_\-]{1,64}"
# A table id as a person may type it in a slash command: it becomes part of a URL path.
TABLE_ID = re.compile(rf"^{_TABLE}$")
_PATTERN = re.compile(rf"^(?P<action>[a-z]+):(?P<table>{_TABLE})(?::(?P<rest>[0-9:]+))?$")
MAX_LENGTH = 100


@dataclass(frozen=True, slots=True)
class CustomId:
    """One component's meaning. ``seat``, ``version`` and ``item`` (a page, a menu or a
    move, by action) are set for the move-menu actions only."""

    action: str
    table_id: str
    seat: int = -1
    version: int = -1
    item: int = -1

    def __str__(self) -> str:
        if self.action in _TABLE_ACTIONS:
            text = f"{self.action}:{self.table_id}"
        else:
            text = f"{self.action}:{self.table_id}:{self.seat}:{self.version}:{self.item}"
        if len(text) > MAX_LENGTH:
            raise ValueError(f"custom_id longer than {MAX_LENGTH}: {text}")
        return text


def parse(text: str) -> CustomId | None:
    """The meaning of a custom_id, or ``None`` for one this bot did not make."""
    found = _PATTERN.match(text)
    if found is None or found["action"] not in ACTIONS:
        return None
    action, table_id, rest = found["action"], found["table"], found["rest"]
    if action in _TABLE_ACTIONS:
        return CustomId(action, table_id) if rest is None else None
    numbers = (rest or "").split(":")
    if len(numbers) != 3 or not all(numbers):
        return None
    seat, version, item = (int(n) for n in numbers)
    return CustomId(action, table_id, seat, version, item)
