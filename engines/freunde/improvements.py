"""Improvements: a chip from one's reserve onto a completely blank plot (a free action)."""

from __future__ import annotations

from engines.core.errors import RuleViolation
from engines.core.hexgrid import Hex
from engines.freunde import wire
from engines.freunde.garden import is_blank
from engines.freunde.irrigation import first_irrigation
from engines.freunde.state import IMPROVEMENTS, FreundeState
from proto import freunde_pb2 as pb

__all__ = ["chips_in_reserve", "improvement_spots", "place_improvement"]


def chips_in_reserve(state: FreundeState, seat: int) -> list[str]:
    held = state.improvement_reserve[seat]
    return [kind for kind, n in zip(IMPROVEMENTS, held, strict=True) if n > 0]


def improvement_spots(state: FreundeState) -> list[Hex]:
    """Plots with no bamboo and no improvement, printed or placed."""
    return sorted(h for h, _ in state.plots if is_blank(state, h))


def place_improvement(state: FreundeState, seat: int, improvement: str, at: Hex) -> list[pb.Event]:
    """Improvements: only on blank plots, never changed; a watershed irrigates its plot."""
    if improvement not in chips_in_reserve(state, seat):
        raise RuleViolation(
            "improvement.not_in_reserve", "You have no chip of that improvement in your reserve."
        )
    if not is_blank(state, at):
        raise RuleViolation(
            "improvement.not_blank",
            "Improvements go only on plots with no bamboo and no improvement.",
        )
    placed = pb.Event(
        improvement_placed=pb.ImprovementPlaced(
            seat=seat, improvement=wire.improvement_code(improvement), at=wire.hex_msg(at)
        )
    )
    newly = [at] if improvement == "watershed" else []
    return first_irrigation(state, newly, [placed])
