"""A notification: one thing that concerns one player at one table.

Kinds (:data:`KINDS`):

``your_turn``
    the player's seat has just become one of those to act (``data``: ``phase``);
``game_over``
    the game has ended (``data``: ``scores``, ``winners``, ``won``);
``seat_joined`` / ``seat_left``
    a seat of the player's table was taken or freed before the start (``data``: ``seat``,
    ``name``, ``open_seats``).

A notification's id is derived from what it is about (kind, table, the version or seating
revision, seat, player), so deriving it twice (a notifier replica that took over another's
unacknowledged feed entries) yields the same id, and the inboxes and webhook deliveries
keep it once.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = [
    "GAME_OVER",
    "KINDS",
    "SEAT_JOINED",
    "SEAT_LEFT",
    "YOUR_TURN",
    "Notification",
    "entry_position",
    "notification_id",
]

YOUR_TURN, GAME_OVER, SEAT_JOINED, SEAT_LEFT = "your_turn", "game_over", "seat_joined", "seat_left"
KINDS = (YOUR_TURN, GAME_OVER, SEAT_JOINED, SEAT_LEFT)


def notification_id(kind: str, table_id: str, at: str, seat: int, player: str) -> str:
    """The id of ``kind`` at ``table_id`` (``at``: ``v<version>`` or ``r<rev>``)."""
    digest = hashlib.sha256(f"{kind}|{table_id}|{at}|{seat}|{player}".encode()).hexdigest()
    return f"n_{digest[:32]}"


@dataclass(frozen=True, slots=True)
class Notification:
    """One notification for ``player`` (its seat ``seat`` at ``table_id``)."""

    id: str
    kind: str
    player: str
    table_id: str
    game: str
    seat: int
    version: int
    time_ms: int
    text: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes) -> Notification:
        return cls(**json.loads(text))


def entry_position(entry_id: str) -> int:
    """A stream entry id (``<ms>-<seq>``) as one integer that orders like the ids, so a
    live reader can compare a player's newest notification with what a subscriber has."""
    ms, _, seq = entry_id.partition("-")
    return int(ms) * (1 << 32) + int(seq or 0)
