"""The Gardener and the Panda, and their actions: straight-line moves, growing and eating.

"Move the gardener any number of garden tiles in a straight line (can not jump over
gaps) and then grow bamboo (and surrounding same color tiles)"; the panda moves the
same way "and then eat a bamboo section". A stalk grows 1, or 2 on a fertilizer, up
to 4; the panda never eats on an enclosure.
"""

from __future__ import annotations

import functools

from engines.core import hexgrid
from engines.core.codes import Refusal
from engines.core.hexgrid import Hex
from engines.freunde import codes, wire
from engines.freunde.actions import check_action
from engines.freunde.content import TILES
from engines.freunde.garden import colour_at, improvement_at
from engines.freunde.irrigation import grown_events
from engines.freunde.state import FreundeState
from proto import freunde_pb2 as pb

__all__ = [
    "gardener_growth",
    "gardener_moves",
    "gardener_reach",
    "growth_sections",
    "move_gardener",
    "move_panda",
    "panda_eats",
    "panda_moved",
    "panda_moves",
    "panda_reach",
]


# Where a figure can go depends only on where it stands and where the tiles lie, which
# changes far less often than legal commands are listed: remembered, keyed by both.


@functools.lru_cache(maxsize=4096)
def _reach(start: Hex, tiles: frozenset[Hex]) -> tuple[Hex, ...]:
    return tuple(hexgrid.straight_moves(start, tiles))


_GARDENER_BODIES: wire.Bodies[Hex, pb.MoveGardener] = wire.Bodies(
    lambda to: pb.MoveGardener(to=wire.hex_msg(to))
)
_PANDA_BODIES: wire.Bodies[Hex, pb.MovePanda] = wire.Bodies(
    lambda to: pb.MovePanda(to=wire.hex_msg(to))
)


@functools.lru_cache(maxsize=4096)
def _gardener_bodies(start: Hex, tiles: frozenset[Hex]) -> tuple[pb.MoveGardener, ...]:
    return tuple(map(_GARDENER_BODIES.__getitem__, _reach(start, tiles)))


@functools.lru_cache(maxsize=4096)
def _panda_bodies(start: Hex, tiles: frozenset[Hex]) -> tuple[pb.MovePanda, ...]:
    return tuple(map(_PANDA_BODIES.__getitem__, _reach(start, tiles)))


def gardener_reach(state: FreundeState) -> tuple[Hex, ...]:
    """Gardener: any number of tiles in a straight line, never over a gap."""
    return _reach(state.gardener, state.garden.tiles)


def panda_reach(state: FreundeState) -> tuple[Hex, ...]:
    """Panda: any number of tiles in a straight line, never over a gap."""
    return _reach(state.panda, state.garden.tiles)


def growth_sections(state: FreundeState, h: Hex) -> int:
    """A stalk grows 1, or 2 on a fertilizer (The Gardener and the Panda)."""
    return 2 if improvement_at(state, h) == "fertilizer" else 1


def gardener_growth(state: FreundeState, at: Hex) -> list[tuple[Hex, int]]:
    """The plot reached and the adjacent plots of its colour, each only if irrigated."""
    tile = state.garden.plots.get(at)
    if tile is None:
        return []
    # An irrigated plot is listed with its own colour, so this one membership test asks
    # both whether a hex is a plot of the colour and whether it is irrigated.
    colour = TILES[tile].colour
    irrigated = state.garden.irrigated
    # A loop rather than a comprehension: one call fewer on every gardener move.
    growing = []
    for h in (at, *hexgrid.neighbours(at)):
        if (h, colour) in irrigated:
            growing.append((h, growth_sections(state, h)))
    return growing


def _destination(
    state: FreundeState,
    cmd: pb.MoveGardener | pb.MovePanda,
    action: str,
    start: Hex,
    refusal: Refusal,
) -> Hex:
    """Where a straight-line move from ``start`` goes: the action must fit in the turn and
    reach it (the figure's reach, read directly)."""
    check_action(state, action)
    to = wire.required_hex(cmd, "to")
    if to not in _reach(start, state.garden.tiles):
        raise refusal()
    return to


def move_gardener(state: FreundeState, cmd: pb.MoveGardener, seat: int) -> list[pb.Event]:
    """Available actions › Gardener: move, then grow bamboo there and around."""
    to = _destination(state, cmd, "gardener", state.gardener, codes.GARDENER_NOT_STRAIGHT_LINE)
    moved = wire.event(_GARDENER_MOVED[seat, to])
    return [moved, *grown_events(state, gardener_growth(state, to))]


# By seat and destination.
_GARDENER_MOVED: wire.EventBytes[tuple[int, Hex]] = wire.EventBytes(
    lambda moved: pb.Event(
        gardener_moved=pb.GardenerMoved(seat=moved[0], to=wire.hex_msg(moved[1]))
    )
)


def gardener_moves(state: FreundeState, seat: int) -> tuple[pb.MoveGardener, ...]:
    """Every gardener move (shared bodies: the kit copies each into the command it lists)."""
    if "gardener" not in state.open_actions:
        return ()
    return _gardener_bodies(state.gardener, state.garden.tiles)


def panda_eats(state: FreundeState, seat: int, at: Hex) -> list[pb.Event]:
    """The panda eats one section where he stops, except on an enclosure."""
    if at not in state.bamboo or improvement_at(state, at) == "enclosure":
        return []
    return [wire.event(_BAMBOO_EATEN[seat, at, colour_at(state, at)])]


# By seat, hex and colour.
_BAMBOO_EATEN: wire.EventBytes[tuple[int, Hex, str]] = wire.EventBytes(
    lambda eaten: pb.Event(
        bamboo_eaten=pb.BambooEaten(
            seat=eaten[0], at=wire.hex_msg(eaten[1]), colour=wire.colour_code(eaten[2])
        )
    )
)


def move_panda(state: FreundeState, cmd: pb.MovePanda, seat: int) -> list[pb.Event]:
    """Available actions › Panda: move, then eat a section into one's reserve."""
    to = _destination(state, cmd, "panda", state.panda, codes.PANDA_NOT_STRAIGHT_LINE)
    return [wire.event(_PANDA_MOVED[seat, to, False]), *panda_eats(state, seat, to)]


def panda_moved(seat: int, to: Hex, by_storm: bool) -> pb.Event:
    """The panda's move, as the Panda action or by the storm."""
    return wire.event(_PANDA_MOVED[seat, to, by_storm])


# By seat, destination and whether the storm moved him.
_PANDA_MOVED: wire.EventBytes[tuple[int, Hex, bool]] = wire.EventBytes(
    lambda moved: pb.Event(
        panda_moved=pb.PandaMoved(seat=moved[0], to=wire.hex_msg(moved[1]), by_storm=moved[2])
    )
)


def panda_moves(state: FreundeState, seat: int) -> tuple[pb.MovePanda, ...]:
    """Every panda move (shared bodies: the kit copies each into the command it lists)."""
    if "panda" not in state.open_actions:
        return ()
    return _panda_bodies(state.panda, state.garden.tiles)
