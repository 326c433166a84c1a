"""The Gardener and the Panda: straight-line moves, growing and eating."""

from __future__ import annotations

from engines.core import hexgrid
from engines.core.errors import RuleViolation
from engines.core.hexgrid import Hex
from engines.freunde import wire
from engines.freunde.garden import (
    bamboo_at,
    colour_at,
    improvement_at,
    is_plot,
    neighbouring_plots,
    tiles_present,
)
from engines.freunde.irrigation import grown_events
from engines.freunde.state import FreundeState
from proto import freunde_pb2 as pb

__all__ = [
    "gardener_moves",
    "growth_sections",
    "move_gardener",
    "move_panda",
    "panda_eats",
    "panda_moves",
]


def gardener_moves(state: FreundeState) -> list[Hex]:
    """Gardener: any number of tiles in a straight line, never over a gap."""
    return hexgrid.straight_moves(state.gardener, tiles_present(state))


def panda_moves(state: FreundeState) -> list[Hex]:
    """Panda: any number of tiles in a straight line, never over a gap."""
    return hexgrid.straight_moves(state.panda, tiles_present(state))


def growth_sections(state: FreundeState, h: Hex) -> int:
    """A stalk grows 1, or 2 on a fertilizer (The Gardener and the Panda)."""
    return 2 if improvement_at(state, h) == "fertilizer" else 1


def gardener_growth(state: FreundeState, at: Hex) -> list[tuple[Hex, int]]:
    """The plot reached and the adjacent irrigated plots of its colour, if irrigated."""
    if not is_plot(state, at):
        return []
    colour = colour_at(state, at)
    targets = [at, *(n for n in neighbouring_plots(state, at) if colour_at(state, n) == colour)]
    return [(h, growth_sections(state, h)) for h in targets if h in state.irrigated]


def move_gardener(state: FreundeState, seat: int, to: Hex) -> list[pb.Event]:
    """Available actions › Gardener: move, then grow bamboo there and around."""
    if to not in gardener_moves(state):
        raise RuleViolation(
            "gardener.not_straight_line",
            "The gardener moves in a straight line over placed tiles, without jumping gaps.",
        )
    moved = pb.Event(gardener_moved=pb.GardenerMoved(seat=seat, to=wire.hex_msg(to)))
    return [moved, *grown_events(state, gardener_growth(state, to))]


def panda_eats(state: FreundeState, seat: int, at: Hex) -> list[pb.Event]:
    """The panda eats one section where he stops, except on an enclosure."""
    if bamboo_at(state, at) == 0 or improvement_at(state, at) == "enclosure":
        return []
    eaten = pb.BambooEaten(
        seat=seat, at=wire.hex_msg(at), colour=wire.colour_code(colour_at(state, at))
    )
    return [pb.Event(bamboo_eaten=eaten)]


def move_panda(state: FreundeState, seat: int, to: Hex) -> list[pb.Event]:
    """Available actions › Panda: move, then eat a section into one's reserve."""
    if to not in panda_moves(state):
        raise RuleViolation(
            "panda.not_straight_line",
            "The panda moves in a straight line over placed tiles, without jumping gaps.",
        )
    moved = pb.Event(panda_moved=pb.PandaMoved(seat=seat, to=wire.hex_msg(to)))
    return [moved, *panda_eats(state, seat, to)]
