"""Available actions › Plots: draw three, place one, the others go under the stack.

"Plots can only be placed adjacent to the pond or in a spot next to 2 other existing
plots." A plot placed by the pond, or printed with a watershed, is irrigated at once.
"""

from __future__ import annotations

import functools
from collections.abc import Container

from engines.core import hexgrid
from engines.core.deck import draw
from engines.core.hexgrid import Hex
from engines.core.recorders import changed
from engines.freunde import codes, wire
from engines.freunde.actions import check_action
from engines.freunde.content import TILES
from engines.freunde.irrigation import first_irrigation, is_irrigated_by
from engines.freunde.state import POND, FreundeState
from proto import freunde_pb2 as pb

__all__ = [
    "DRAW_COUNT",
    "can_draw",
    "can_place_at",
    "draw_plots",
    "has_plot_spot",
    "open_spots_after",
    "place_plot",
    "placements",
    "plot_draws",
    "plot_spots",
]

DRAW_COUNT = 3
_AROUND_POND = frozenset(hexgrid.neighbours(POND))


def _open_spot(plots: Container[Hex], h: Hex) -> bool:
    if h == POND or h in plots:
        return False
    if h in _AROUND_POND:
        return True
    return sum(1 for n in hexgrid.neighbours(h) if n in plots) >= 2


def can_place_at(state: FreundeState, h: Hex) -> bool:
    """Plots: an empty hex beside the pond, or beside two placed plots."""
    return _open_spot(state.garden.plots, h)


def open_spots_after(spots: tuple[Hex, ...], plots: Container[Hex], h: Hex) -> tuple[Hex, ...]:
    """The open spots, sorted, once a plot lies at ``h`` (``plots`` holding it) where
    ``spots`` were open before: a plot fills its own spot and can only open the empty
    hexes beside it, so only those are asked (``Garden.spots`` is kept this way)."""
    opened = [n for n in hexgrid.neighbours(h) if n not in spots and _open_spot(plots, n)]
    return tuple(sorted([*[s for s in spots if s != h], *opened]))


def plot_spots(state: FreundeState) -> tuple[Hex, ...]:
    """Every hex a plot may be placed on now."""
    return state.garden.spots


def has_plot_spot(state: FreundeState) -> bool:
    """Whether any hex takes a plot now."""
    return bool(state.garden.spots)


def can_draw(state: FreundeState) -> bool:
    """Plots: a plot left in the stack and a spot to place it (read directly rather
    than through has_plot_spot: every listing asks)."""
    return bool(state.plot_stack) and bool(state.garden.spots)


def draw_plots(state: FreundeState, cmd: pb.DrawPlots, seat: int) -> list[pb.Event]:
    """Plots: the top three of the stack (fewer when it runs low), seen by the drawer only."""
    check_action(state, "plot")
    if not state.plot_stack:
        raise codes.PLOT_STACK_EMPTY()
    if not has_plot_spot(state):
        raise codes.PLOT_NO_SPACE()
    drawn, _ = draw(state.plot_stack, DRAW_COUNT)
    return [pb.Event(plots_drawn=pb.PlotsDrawn(seat=seat, tiles=drawn))]


_DRAW = pb.DrawPlots()


_DRAWS = (_DRAW,)


def plot_draws(state: FreundeState, seat: int) -> tuple[pb.DrawPlots, ...]:
    """Drawing plots while the action fits in the turn and ``can_draw``."""
    return _DRAWS if "plot" in state.open_actions and can_draw(state) else ()


def place_plot(state: FreundeState, cmd: pb.PlacePlot, seat: int) -> list[pb.Event]:
    """Plots: place one drawn plot; a plot beside the pond or with a watershed is irrigated."""
    at = wire.required_hex(cmd, "at")
    tile = cmd.tile
    if tile not in state.turn.drawn_plots:
        raise codes.PLOT_NOT_DRAWN()
    if at == POND or at in state.garden.plots:
        raise codes.PLOT_OCCUPIED()
    if not can_place_at(state, at):
        raise codes.PLOT_NOT_ADJACENT()
    printed = TILES[tile]
    placed = pb.Event(
        plot_placed=pb.PlotPlaced(
            seat=seat,
            tile=tile,
            at=wire.hex_msg(at),
            colour=wire.colour_code(printed.colour),
            improvement=wire.improvement_code(printed.improvement),
            returned=len(state.turn.drawn_plots) - 1,
        )
    )
    # A new plot has no channel on its sides yet: channels need two tiles.
    if not is_irrigated_by(at, frozenset(), printed.improvement):
        return [placed]
    garden = changed(state.garden, plots={**state.garden.plots, at: tile})
    return first_irrigation(changed(state, garden=garden), [at], [placed])


_PLACEMENTS: wire.Bodies[tuple[int, Hex], pb.PlacePlot] = wire.Bodies(
    lambda placed: pb.PlacePlot(tile=placed[0], at=wire.hex_msg(placed[1]))
)


@functools.lru_cache(maxsize=1024)
def _placements(drawn: tuple[int, ...], spots: tuple[Hex, ...]) -> tuple[pb.PlacePlot, ...]:
    return tuple([_PLACEMENTS[tile, at] for tile in drawn for at in spots])


def placements(state: FreundeState, seat: int) -> tuple[pb.PlacePlot, ...]:
    """Every drawn plot on every open spot (shared bodies: the kit copies each)."""
    return _placements(state.turn.drawn_plots, state.garden.spots)
