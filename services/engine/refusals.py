"""What the engine service refuses before the rules are asked, written once for every RPC.

Each refusal carries a shared code of :mod:`engines.core.codes`. ``Execute`` turns them
into ``ExecuteResponse.rejected``; the other RPCs raise them and the servicer maps them
to a gRPC status (:class:`BadRequest` is ``INVALID_ARGUMENT``, :class:`WrongGame` is
``FAILED_PRECONDITION``), with the code in the trailing metadata ``bw-code``.
"""

from __future__ import annotations

from typing import Self

from engines.core import codes
from engines.core.errors import RuleViolation

__all__ = ["BadRequest", "Refused", "WrongGame", "ensure_game", "seat_refusal"]


class Refused(Exception):
    """A request the service refuses: a stable ``code`` and a message for people."""

    def __init__(self, message: str, code: str = "request.invalid") -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    @classmethod
    def because(cls, violation: RuleViolation) -> Self:
        return cls(violation.message, violation.code)


class BadRequest(Refused):
    """The request itself is wrong (INVALID_ARGUMENT)."""


class WrongGame(Refused):
    """The table plays another game than this engine's (FAILED_PRECONDITION)."""


def seat_refusal(seats: int, seat: int | None) -> RuleViolation | None:
    """Why ``seat`` cannot act or look at a table of ``seats`` seats (``None``: a
    spectator, always welcome), or ``None`` when it can."""
    if seat is None or 0 <= seat < seats:
        return None
    return codes.SEAT_INVALID(last=seats - 1)


def ensure_game(table_game: str, engine_game: str) -> None:
    """Raise :class:`WrongGame` unless the table plays ``engine_game``.

    Every entry point of an engine (each RPC, the async command path) calls this before
    it reads or writes a table, so no engine ever touches another game's table.
    """
    if table_game != engine_game:
        violation = codes.TABLE_WRONG_GAME(game=table_game or "no game", expected=engine_game)
        raise WrongGame.because(violation)
