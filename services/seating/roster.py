"""A table's seating: who sits where before and after the game starts.

A table is *open* while seats are free: players claim them, leave them, the host removes
one; then it is *starting* (the seats are final and the engine is asked to create the
game) and *started*. The game itself has no seats to fill: the engine's table is created
when the seating is complete, with the same table id and the final seats (bots in the
seats the host gave to bots).

Every change is a pure function here, from one :class:`Roster` to the next, or a
:class:`Refused` with a stable code; :mod:`services.seating.store` applies them to Redis
with a compare-and-set on ``rev``, so two players claiming the last seat at once cannot
both get it.

A seat keeps the SHA-256 of its current token (hex), never the token: re-issuing it
replaces the hash, and the old token is refused from then on.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

__all__ = [
    "NAME_LIMIT",
    "OPEN",
    "STARTED",
    "STARTING",
    "Refused",
    "Roster",
    "Seat",
    "valid_name",
]

OPEN, STARTING, STARTED = "open", "starting", "started"
NAME_LIMIT = 40


class Refused(Exception):
    """A seating change that cannot be made: a stable code and a sentence for a person."""

    def __init__(self, code: str, message: str, **details: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.details = details


def valid_name(name: str) -> bool:
    """A display name: 1 to 40 printable characters, not only spaces."""
    return bool(name.strip()) and len(name) <= NAME_LIMIT and name.isprintable()


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat: open (no player, no bot), a player's, a bot's, or reserved for a player
    (a rematch keeps it for the player of the last game until it takes it)."""

    player: str = ""
    name: str = ""
    token: str = ""
    app: str = ""
    bot: str = ""
    reserved: bool = False

    @property
    def open(self) -> bool:
        return not self.player and not self.bot

    @property
    def taken(self) -> bool:
        """A bot plays it, or its player has taken it."""
        return bool(self.bot) or (bool(self.player) and not self.reserved)


@dataclass(frozen=True, slots=True)
class Roster:
    """Everything about a table's seats. ``host`` is the player who opened it and ``app``
    the app that opened it (either may start it and remove a player before the start)."""

    table_id: str
    game: str
    seats: tuple[Seat, ...]
    options: Mapping[str, str] = field(default_factory=dict)
    host: str = ""
    app: str = ""
    listed: bool = True
    invite: str = ""
    state: str = OPEN
    created_ms: int = 0
    rev: int = 0
    rematch_of: str = ""
    rematch: str = ""
    # The table's turn clock (``turn_seconds``, ``total_seconds``, ``on_timeout``, as in
    # ``TurnClock``); empty: no time limit.
    clock: Mapping[str, Any] = field(default_factory=dict)

    # -- reading -------------------------------------------------------------------------

    @property
    def open_seats(self) -> list[int]:
        return [n for n, seat in enumerate(self.seats) if seat.open]

    @property
    def complete(self) -> bool:
        """Every seat is a player's or a bot's: the game can start."""
        return all(seat.taken for seat in self.seats)

    def seat_of_player(self, player: str) -> int | None:
        """The seat ``player`` has taken (not one only reserved for it)."""
        for n, seat in enumerate(self.seats):
            if seat.player == player and not seat.reserved:
                return n
        return None

    def seat_of_token(self, token_hash: str) -> int | None:
        """The seat whose current token hashes to ``token_hash``, compared with every seat
        in constant time."""
        found: int | None = None
        for n, seat in enumerate(self.seats):
            if hmac.compare_digest(seat.token.encode(), token_hash.encode()) and seat.token:
                found = n if found is None else found
        return found

    def seat(self, n: int) -> Seat:
        if not 0 <= n < len(self.seats):
            raise Refused(
                "seat.not_found", f"This table has seats 0 to {len(self.seats) - 1}.", seat=str(n)
            )
        return self.seats[n]

    def public(self) -> list[dict[str, Any]]:
        """What anyone may see of the seats: names, bots, open or taken (never a token)."""
        return [
            {
                "seat": n,
                "name": seat.name,
                "bot": seat.bot or None,
                "open": seat.open,
                "reserved": seat.reserved,
            }
            for n, seat in enumerate(self.seats)
        ]

    def lobby_status(self) -> dict[str, Any]:
        """The table's lobby entry while it is not started (the projector writes it after):
        version 0, ordered by ``rev``; see :mod:`services.projector.lobby`."""
        status: dict[str, Any] = {
            "table_id": self.table_id,
            "game": self.game,
            "seats": len(self.seats),
            "created_ms": self.created_ms,
            "version": 0,
            "rev": self.rev,
            "state": self.state,
            "phase": "open",
            "to_act": [],
            "finished": False,
            "scores": [],
            "winners": [],
            "open_seats": len(self.open_seats),
            "players": self.public(),
        }
        if not self.listed:
            status["unlisted"] = True
        return status

    # -- changes (each returns the next roster, or raises Refused) -------------------------

    def _open_only(self) -> None:
        if self.state != OPEN:
            raise Refused("table.started", "The game has started: its seats are final.")

    def claim(
        self,
        seat: int | None,
        player: str,
        name: str,
        *,
        token: str = "",
        app: str = "",
    ) -> tuple[Roster, int]:
        """``player`` takes ``seat`` (the first open one when None)."""
        self._open_only()
        if self.seat_of_player(player) is not None:
            raise Refused("player.seated", "You already have a seat at this table.")
        reserved = [n for n, s in enumerate(self.seats) if s.reserved and s.player == player]
        if seat is None:
            choices = reserved or self.open_seats
            if not choices:
                raise Refused("table.full", "Every seat of this table is taken.")
            seat = choices[0]
        wanted = self.seat(seat)
        if not (wanted.open or (wanted.reserved and wanted.player == player)):
            raise Refused("seat.taken", f"Seat {seat} is taken.", seat=str(seat))
        taken = Seat(
            player=player, name=name or wanted.name or f"Seat {seat}", token=token, app=app
        )
        return self._with(seat, taken), seat

    def leave(self, seat: int) -> Roster:
        """Free ``seat`` (its player leaves, or the host removes it) before the start."""
        self._open_only()
        current = self.seat(seat)
        if current.open:
            raise Refused("seat.open", f"Seat {seat} is open already.", seat=str(seat))
        return self._with(seat, Seat())

    def rename(self, seat: int, name: str) -> Roster:
        current = self.seat(seat)
        return self._with(seat, replace(current, name=name))

    def reissue(self, seat: int, token: str) -> Roster:
        """Give ``seat`` a new token hash; the old token is refused from now on."""
        current = self.seat(seat)
        if not current.player or current.reserved:
            raise Refused("seat.open", f"Nobody has taken seat {seat}.", seat=str(seat))
        return self._with(seat, replace(current, token=token))

    def starting(self, bots: str | None = None) -> Roster:
        """Final seats: open and still-reserved seats go to ``bots``; without bots every seat
        must be taken."""
        self._open_only()
        seats = []
        for seat in self.seats:
            if seat.taken:
                seats.append(seat)
            elif bots:
                seats.append(Seat(name=f"{bots} bot", bot=bots))
            else:
                raise Refused(
                    "table.not_full", "Seats are still open: fill them, or start with bots."
                )
        return replace(self, seats=tuple(seats), state=STARTING)

    def started(self) -> Roster:
        return replace(self, state=STARTED)

    def with_rematch(self, table_id: str) -> Roster:
        return replace(self, rematch=table_id)

    def _with(self, n: int, seat: Seat) -> Roster:
        seats = list(self.seats)
        seats[n] = seat
        return replace(self, seats=tuple(seats))

    # -- stored form -----------------------------------------------------------------------

    def to_json(self) -> str:
        doc = {
            "table_id": self.table_id,
            "game": self.game,
            "seats": [{k: v for k, v in _seat_doc(seat).items() if v} for seat in self.seats],
            "options": dict(self.options),
            "host": self.host,
            "app": self.app,
            "listed": self.listed,
            "invite": self.invite,
            "state": self.state,
            "created_ms": self.created_ms,
            "rematch_of": self.rematch_of,
            "rematch": self.rematch,
        }
        if self.clock:
            doc["clock"] = dict(self.clock)
        return json.dumps(doc, sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes, rev: int) -> Roster:
        doc = json.loads(text)
        return cls(
            table_id=doc["table_id"],
            game=doc["game"],
            seats=tuple(Seat(**seat) for seat in doc["seats"]),
            options=dict(doc.get("options") or {}),
            host=doc.get("host", ""),
            app=doc.get("app", ""),
            listed=bool(doc.get("listed", True)),
            invite=doc.get("invite", ""),
            state=doc.get("state", OPEN),
            created_ms=int(doc.get("created_ms") or 0),
            rev=rev,
            rematch_of=doc.get("rematch_of", ""),
            rematch=doc.get("rematch", ""),
            clock=dict(doc.get("clock") or {}),
        )


def _seat_doc(seat: Seat) -> dict[str, Any]:
    return {
        "player": seat.player,
        "name": seat.name,
        "token": seat.token,
        "app": seat.app,
        "bot": seat.bot,
        "reserved": seat.reserved,
    }
