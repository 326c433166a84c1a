"""Seats before and after a game starts: the lobby's side of a table (see roster.py)."""

from services.seating.roster import (
    NAME_LIMIT,
    OPEN,
    STARTED,
    STARTING,
    Refused,
    Roster,
    Seat,
    valid_name,
)
from services.seating.store import OPEN_TABLE_TTL_S, RosterStore, SeatingBusy

__all__ = [
    "NAME_LIMIT",
    "OPEN",
    "OPEN_TABLE_TTL_S",
    "STARTED",
    "STARTING",
    "Refused",
    "Roster",
    "RosterStore",
    "Seat",
    "SeatingBusy",
    "valid_name",
]
