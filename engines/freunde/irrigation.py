"""Irrigation channels (rulebook › Irrigation channels; Takenoko's network geometry).

Channels lie on the sides between two tiles. The pond's six sides are the network's
source: a channel may be placed where one of its two end corners touches the pond or
the end of a channel already placed. A plot is irrigated when it touches the pond,
when one of its sides carries a channel, or when it has a watershed; a plot
irrigated for the first time grows one bamboo. A watershed waters its plot but is no
source for channels.
"""

from __future__ import annotations

from collections.abc import Iterable

from engines.core import hexgrid
from engines.core.errors import RuleViolation
from engines.core.hexgrid import Edge, Hex
from engines.freunde import wire
from engines.freunde.garden import grow, tiles_present
from engines.freunde.state import POND, FreundeState
from proto import freunde_pb2 as pb

__all__ = [
    "channel_spots",
    "first_irrigation",
    "is_irrigated_by",
    "place_irrigation",
    "take_irrigation",
]


def is_irrigated_by(h: Hex, channels: frozenset[Edge], improvement: str) -> bool:
    """Whether a plot at ``h`` is irrigated by the pond, a channel or a watershed."""
    if hexgrid.are_adjacent(h, POND) or improvement == "watershed":
        return True
    return any(e in channels for e in hexgrid.edges_of(h))


def first_irrigation(
    state: FreundeState, newly: Iterable[Hex], seat_events: list[pb.Event]
) -> list[pb.Event]:
    """Irrigation channels › "When a plot is irrigated for the first time, it grows bamboo".

    ``newly`` are plots that become irrigated now (in order); ``seat_events`` are the
    events that make them so, and come first.
    """
    fresh = [h for h in dict.fromkeys(newly) if h not in state.irrigated]
    out = list(seat_events)
    out.extend(pb.Event(plot_irrigated=pb.PlotIrrigated(at=wire.hex_msg(h))) for h in fresh)
    out.extend(_grown_events(state, [(h, 1) for h in fresh]))
    return out


def _grown_events(state: FreundeState, wanted: list[tuple[Hex, int]]) -> list[pb.Event]:
    return [
        pb.Event(
            bamboo_grown=pb.BambooGrown(
                at=wire.hex_msg(h), colour=wire.colour_code(colour), sections=n
            )
        )
        for h, colour, n in grow(state, wanted)
    ]


def _network_corners(channels: frozenset[Edge]) -> set[hexgrid.Vertex]:
    corners: set[hexgrid.Vertex] = set()
    for e in channels:
        corners.update(hexgrid.edge_vertices(e))
    return corners


def _connects(e: Edge, corners: set[hexgrid.Vertex]) -> bool:
    """A side joins the network when one of its end corners is on the pond or a channel."""
    return any(POND in v or v in corners for v in hexgrid.edge_vertices(e))


def channel_spots(state: FreundeState) -> list[Edge]:
    """Every side where a channel may go now, in canonical order."""
    present = tiles_present(state)
    corners = _network_corners(state.channels)
    spots: set[Edge] = set()
    for h in present:
        for n in hexgrid.neighbours(h):
            if n in present:
                e = hexgrid.edge(h, n)
                if e not in state.channels and _connects(e, corners):
                    spots.add(e)
    return sorted(spots)


def take_irrigation(state: FreundeState, seat: int) -> list[pb.Event]:
    """Available actions › Irrigation: a channel from the supply into the reserve."""
    if state.irrigation_supply <= 0:
        raise RuleViolation("irrigation.supply_empty", "There are no irrigation channels left.")
    return [pb.Event(irrigation_taken=pb.IrrigationTaken(seat=seat))]


def place_irrigation(state: FreundeState, seat: int, a: Hex, b: Hex) -> list[pb.Event]:
    """Irrigation channels: a channel from the reserve, joined to the pond's network."""
    if state.irrigation_reserve[seat] <= 0:
        raise RuleViolation(
            "irrigation.none_in_reserve", "You have no irrigation channel in your reserve."
        )
    present = tiles_present(state)
    if a not in present or b not in present or not hexgrid.are_adjacent(a, b):
        raise RuleViolation(
            "irrigation.not_between_plots", "A channel goes on the side between two tiles."
        )
    e = hexgrid.edge(a, b)
    if e in state.channels:
        raise RuleViolation("irrigation.occupied", "That side already carries a channel.")
    if not _connects(e, _network_corners(state.channels)):
        raise RuleViolation(
            "irrigation.not_connected",
            "A channel must touch the pond or another channel at a corner.",
        )
    placed = pb.Event(
        irrigation_placed=pb.IrrigationPlaced(seat=seat, a=wire.hex_msg(a), b=wire.hex_msg(b))
    )
    newly = [h for h in (a, b) if h != POND]
    return first_irrigation(state, newly, [placed])


def grown_events(state: FreundeState, wanted: list[tuple[Hex, int]]) -> list[pb.Event]:
    """BambooGrown events for what really grows of ``wanted`` (see garden.grow)."""
    return _grown_events(state, wanted)
