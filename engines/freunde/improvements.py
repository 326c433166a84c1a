"""Improvements: a chip from one's reserve onto a completely blank plot (a free action).

"Improvements can only be placed on plots with no bamboo or improvements (completely
blank). Once an improvement is placed, it cannot be changed." A watershed irrigates
its plot, which grows its first bamboo.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from engines.core.hexgrid import Hex
from engines.freunde import codes, wire
from engines.freunde.content import TILES
from engines.freunde.garden import is_blank, per_garden_maps
from engines.freunde.irrigation import first_irrigation
from engines.freunde.state import IMPROVEMENTS, FreundeState
from proto import freunde_pb2 as pb

__all__ = ["chip_placements", "chips_in_reserve", "improvement_spots", "place_improvement"]


def chips_in_reserve(state: FreundeState, seat: int) -> list[str]:
    held = state.players[seat].improvements
    return [kind for kind, n in zip(IMPROVEMENTS, held, strict=True) if n > 0]


@per_garden_maps
def _blank_plots(
    plots: Mapping[Hex, int], bamboo: Mapping[Hex, int], chips: Mapping[Hex, str]
) -> tuple[Hex, ...]:
    return tuple(
        sorted(
            h
            for h, tile in plots.items()
            if h not in bamboo
            and TILES[tile].improvement == "none"
            and chips.get(h, "none") == "none"
        )
    )


def improvement_spots(state: FreundeState) -> list[Hex]:
    """Plots with no bamboo and no improvement, printed or placed (garden.is_blank)."""
    return list(_blank_plots(state))


@functools.lru_cache(maxsize=4096)
def _chip_bodies(spots: tuple[Hex, ...], kinds: tuple[str, ...]) -> tuple[pb.PlaceImprovement, ...]:
    return tuple(
        pb.PlaceImprovement(improvement=wire.improvement_code(kind), at=wire.hex_msg(at))
        for at in spots
        for kind in kinds
    )


def place_improvement(state: FreundeState, cmd: pb.PlaceImprovement, seat: int) -> list[pb.Event]:
    """Improvements: only on blank plots, never changed; a watershed irrigates its plot."""
    improvement = wire.improvement_name(cmd.improvement)
    at = wire.required_hex(cmd, "at")
    if improvement not in chips_in_reserve(state, seat):
        raise codes.IMPROVEMENT_NOT_IN_RESERVE()
    if not is_blank(state, at):
        raise codes.IMPROVEMENT_NOT_BLANK()
    placed = pb.Event(
        improvement_placed=pb.ImprovementPlaced(
            seat=seat, improvement=wire.improvement_code(improvement), at=wire.hex_msg(at)
        )
    )
    return first_irrigation(state, [at] if improvement == "watershed" else [], [placed])


def chip_placements(state: FreundeState, seat: int) -> tuple[pb.PlaceImprovement, ...]:
    """Every chip of the reserve on every blank plot (shared bodies: the kit copies each)."""
    # Compared rather than any(): asked on every listing, and mostly empty.
    if state.players[seat].improvements == (0, 0, 0):
        return ()
    return _chip_bodies(_blank_plots(state), tuple(chips_in_reserve(state, seat)))
