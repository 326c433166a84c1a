"""Available actions › Plots: draw three, place one, the others go under the stack."""

from __future__ import annotations

from dataclasses import replace

from engines.core import hexgrid
from engines.core.deck import draw
from engines.core.errors import RuleViolation
from engines.core.hexgrid import Hex
from engines.freunde import wire
from engines.freunde.content import TILES
from engines.freunde.garden import plot_map
from engines.freunde.irrigation import first_irrigation, is_irrigated_by
from engines.freunde.state import POND, FreundeState
from proto import freunde_pb2 as pb

__all__ = ["DRAW_COUNT", "can_place_at", "draw_plots", "place_plot", "plot_spots"]

DRAW_COUNT = 3


def _open_spot(plots: dict[Hex, int], h: Hex) -> bool:
    if h == POND or h in plots:
        return False
    around = hexgrid.neighbours(h)
    return POND in around or sum(1 for n in around if n in plots) >= 2


def can_place_at(state: FreundeState, h: Hex) -> bool:
    """Plots: an empty hex beside the pond, or beside two placed plots."""
    return _open_spot(plot_map(state), h)


def plot_spots(state: FreundeState) -> list[Hex]:
    """Every hex a plot may be placed on now."""
    plots = plot_map(state)
    candidates = {n for h in plots for n in hexgrid.neighbours(h)}
    candidates.update(hexgrid.neighbours(POND))
    return sorted(h for h in candidates if _open_spot(plots, h))


def has_plot_spot(state: FreundeState) -> bool:
    """Whether any hex takes a plot now (stops at the first one found)."""
    plots = plot_map(state)
    if any(h not in plots for h in hexgrid.neighbours(POND)):
        return True
    return any(_open_spot(plots, n) for h in plots for n in hexgrid.neighbours(h))


def draw_plots(state: FreundeState, seat: int) -> list[pb.Event]:
    """Plots: the top three of the stack (fewer when it runs low), seen by the drawer only."""
    drawn, _ = draw(state.plot_stack, DRAW_COUNT)
    return [pb.Event(plots_drawn=pb.PlotsDrawn(seat=seat, tiles=drawn))]


def place_plot(state: FreundeState, seat: int, tile: int, at: Hex) -> list[pb.Event]:
    """Plots: place one drawn plot; a plot beside the pond or with a watershed is irrigated."""
    if tile not in state.drawn_plots:
        raise RuleViolation("plot.not_drawn", "Place one of the plots you drew.")
    if at == POND or at in plot_map(state):
        raise RuleViolation("plot.occupied", "That place is already taken.")
    if not can_place_at(state, at):
        raise RuleViolation("plot.not_adjacent", "A plot must touch the pond or two placed plots.")
    printed = TILES[tile]
    placed = pb.Event(
        plot_placed=pb.PlotPlaced(
            seat=seat,
            tile=tile,
            at=wire.hex_msg(at),
            colour=wire.colour_code(printed.colour),
            improvement=wire.improvement_code(printed.improvement),
            returned=len(state.drawn_plots) - 1,
        )
    )
    # A new plot has no channel on its sides yet: channels need two tiles.
    watered = is_irrigated_by(at, frozenset(), printed.improvement)
    with_plot = replace(state, plots=(*state.plots, (at, tile)))
    return first_irrigation(with_plot, [at] if watered else [], [placed])
