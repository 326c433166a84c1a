"""Completing objectives and game end: scores, the Emperor, the tie-break, shared wins."""

from __future__ import annotations

from engines.freunde.content import OBJECTIVES
from engines.freunde.objectives import EMPEROR_POINTS
from engines.freunde.state import FreundeState
from proto import freunde_pb2 as pb

__all__ = ["breakdown", "game_ended", "panda_points", "score", "winners"]


def _points(state: FreundeState, seat: int, kind: str) -> int:
    return sum(OBJECTIVES[c].points for c in state.claimed[seat] if OBJECTIVES[c].kind == kind)


def panda_points(state: FreundeState, seat: int) -> int:
    """The tie-break: points on panda objectives."""
    return _points(state, seat, "panda")


def score(state: FreundeState, seat: int) -> int:
    """Objective points, and 2 more for the Emperor."""
    total = sum(OBJECTIVES[c].points for c in state.claimed[seat])
    return total + (EMPEROR_POINTS if state.emperor == seat else 0)


def winners(state: FreundeState) -> tuple[int, ...]:
    """Highest score; then most panda points; players still tied all win."""
    ranked = {seat: (score(state, seat), panda_points(state, seat)) for seat in range(state.seats)}
    best = max(ranked.values())
    return tuple(seat for seat, key in ranked.items() if key == best)


def breakdown(state: FreundeState, seat: int) -> dict[str, int]:
    return {
        "plot": _points(state, seat, "plot"),
        "gardener": _points(state, seat, "gardener"),
        "panda": panda_points(state, seat),
        "emperor": EMPEROR_POINTS if state.emperor == seat else 0,
        "objectives": len(state.claimed[seat]),
    }


def game_ended(state: FreundeState, reason: str) -> pb.Event:
    """The final scores and winners, recorded once the last turn is over."""
    scores = [score(state, seat) for seat in range(state.seats)]
    return pb.Event(game_ended=pb.GameEnded(scores=scores, winners=winners(state), reason=reason))
