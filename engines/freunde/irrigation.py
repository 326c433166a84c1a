"""Available actions › Irrigation, and Irrigation channels (Takenoko's network geometry).

Taking a channel is an action; placing one from the reserve is free. Channels lie on
the sides between two tiles. The pond's six sides are the network's source: a channel
may be placed where one of its two end corners touches the pond or the end of a
channel already placed. A plot is irrigated when it touches the pond, when one of its
sides carries a channel, or when it has a watershed; a plot irrigated for the first
time grows one bamboo. A watershed waters its plot but is no source for channels.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from engines.core import hexgrid
from engines.core.hexgrid import Edge, Hex, Vertex
from engines.freunde import codes, wire
from engines.freunde.actions import check_action
from engines.freunde.garden import grow, is_irrigated, tiles_present
from engines.freunde.state import POND, FreundeState
from proto import freunde_pb2 as pb

__all__ = [
    "channel_placements",
    "first_irrigation",
    "grown_events",
    "irrigation_takings",
    "is_irrigated_by",
    "open_sides_after_channel",
    "open_sides_after_plot",
    "place_irrigation",
    "take_irrigation",
]


def is_irrigated_by(h: Hex, channels: frozenset[Edge], improvement: str) -> bool:
    """Whether a plot at ``h`` is irrigated by the pond, a channel or a watershed."""
    if hexgrid.are_adjacent(h, POND) or improvement == "watershed":
        return True
    return any(e in channels for e in hexgrid.edges_of(h))


def grown_events(state: FreundeState, wanted: list[tuple[Hex, int]]) -> list[pb.Event]:
    """BambooGrown events for what really grows of ``wanted`` (see garden.grow)."""
    return [wire.event(_BAMBOO_GROWN[grown]) for grown in grow(state, wanted)]


# By hex, colour and sections.
_BAMBOO_GROWN: wire.EventBytes[tuple[Hex, str, int]] = wire.EventBytes(
    lambda grown: pb.Event(
        bamboo_grown=pb.BambooGrown(
            at=wire.hex_msg(grown[0]), colour=wire.colour_code(grown[1]), sections=grown[2]
        )
    )
)


def first_irrigation(
    state: FreundeState, newly: Iterable[Hex], seat_events: list[pb.Event]
) -> list[pb.Event]:
    """Irrigation channels › "When a plot is irrigated for the first time, it grows bamboo".

    ``newly`` are plots that become irrigated now (in order); ``seat_events`` are the
    events that make them so, and come first.
    """
    fresh = [h for h in dict.fromkeys(newly) if not is_irrigated(state, h)]
    out = list(seat_events)
    out.extend(map(_plot_irrigated, fresh))
    out.extend(grown_events(state, [(h, 1) for h in fresh]))
    return out


@wire.built_once
def _plot_irrigated(at: Hex) -> pb.Event:
    return pb.Event(plot_irrigated=pb.PlotIrrigated(at=wire.hex_msg(at)))


# The network's corners depend only on where the channels lie, which changes a few dozen
# times a game: remembered, keyed by the set of channels. The free sides that join the
# network are kept in the garden (``Garden.open_sides``), updated from the sides around
# each new plot or channel.


@functools.lru_cache(maxsize=1024)
def _network_corners(channels: frozenset[Edge]) -> frozenset[Vertex]:
    corners: set[Vertex] = set()
    for e in channels:
        corners.update(hexgrid.edge_vertices(e))
    return frozenset(corners)


def _connects(e: Edge, corners: frozenset[Vertex]) -> bool:
    """A side joins the network when one of its end corners is on the pond or a channel."""
    return any(POND in v or v in corners for v in hexgrid.edge_vertices(e))


def open_sides_after_plot(
    sides: tuple[Edge, ...], tiles: frozenset[Hex], channels: frozenset[Edge], h: Hex
) -> tuple[Edge, ...]:
    """The open sides, sorted, once a plot lies at ``h`` (``tiles`` holding it): those of
    before, and the new plot's sides to the tiles beside it that join the network (a
    new plot has no channel yet). ``Garden.open_sides`` is kept this way."""
    corners = _network_corners(channels)
    opened = [
        side
        for side in (hexgrid.edge(h, n) for n in hexgrid.neighbours(h) if n in tiles)
        if _connects(side, corners)
    ]
    return tuple(sorted([*sides, *opened])) if opened else sides


def open_sides_after_channel(
    sides: tuple[Edge, ...], tiles: frozenset[Hex], channels: frozenset[Edge], placed: Edge
) -> tuple[Edge, ...]:
    """The open sides, sorted, once a channel lies on ``placed`` (``channels`` holding
    it): those of before but ``placed``, and the free sides between two tiles at its two
    end corners, which now join the network (a side joins it by an end corner, and a
    corner is an end of its three sides only). ``Garden.open_sides`` is kept this way."""
    joined = {side for side in sides if side != placed}
    for a, b, c in hexgrid.edge_vertices(placed):
        # A corner's hexes are sorted, so these are its sides in hexgrid.edge's form.
        for side in ((a, b), (a, c), (b, c)):
            if side[0] in tiles and side[1] in tiles and side not in channels:
                joined.add(side)
    return tuple(sorted(joined))


_CHANNEL_BODIES: wire.Bodies[Edge, pb.PlaceIrrigation] = wire.Bodies(
    lambda ends: pb.PlaceIrrigation(a=wire.hex_msg(ends[0]), b=wire.hex_msg(ends[1]))
)


# The last open sides listed, with their bodies: a garden's open sides change a few
# dozen times a game, and are listed on every move of a seat holding a channel. A
# recorder replaces the tuple rather than changing it, so identity says unchanged; it is
# held, so its id stays its own.
_last_bodies: list[tuple[tuple[Edge, ...], tuple[pb.PlaceIrrigation, ...]]] = [((), ())]


def _channel_bodies(sides: tuple[Edge, ...]) -> tuple[pb.PlaceIrrigation, ...]:
    """Each open side, named either way round (remembered for the last sides)."""
    last = _last_bodies[0]
    if last[0] is sides:
        return last[1]
    named = _CHANNEL_BODIES
    bodies = tuple(named[ends] for a, b in sides for ends in ((a, b), (b, a)))
    _last_bodies[0] = (sides, bodies)
    return bodies


def take_irrigation(state: FreundeState, cmd: pb.TakeIrrigation, seat: int) -> list[pb.Event]:
    """Available actions › Irrigation: a channel from the supply into the reserve."""
    check_action(state, "irrigation")
    if state.supply.irrigation <= 0:
        raise codes.IRRIGATION_SUPPLY_EMPTY()
    return [_irrigation_taken(seat)]


@wire.built_once
def _irrigation_taken(seat: int) -> pb.Event:
    return pb.Event(irrigation_taken=pb.IrrigationTaken(seat=seat))


_TAKE = pb.TakeIrrigation()


def irrigation_takings(state: FreundeState, seat: int) -> list[pb.TakeIrrigation]:
    fits = "irrigation" in state.open_actions
    return [_TAKE] if fits and state.supply.irrigation > 0 else []


def place_irrigation(state: FreundeState, cmd: pb.PlaceIrrigation, seat: int) -> list[pb.Event]:
    """Irrigation channels: a channel from the reserve, joined to the pond's network;
    placing it is free (no action)."""
    a, b = wire.required_hex(cmd, "a"), wire.required_hex(cmd, "b")
    if state.players[seat].irrigation <= 0:
        raise codes.IRRIGATION_NONE_IN_RESERVE()
    present = tiles_present(state)
    if a not in present or b not in present or not hexgrid.are_adjacent(a, b):
        raise codes.IRRIGATION_NOT_BETWEEN_PLOTS()
    side = hexgrid.edge(a, b)
    if side in state.garden.channels:
        raise codes.IRRIGATION_OCCUPIED()
    if not _connects(side, _network_corners(state.garden.channels)):
        raise codes.IRRIGATION_NOT_CONNECTED()
    placed = _irrigation_placed(seat, a, b)
    return first_irrigation(state, [h for h in (a, b) if h != POND], [placed])


@wire.built_once
def _irrigation_placed(seat: int, a: Hex, b: Hex) -> pb.Event:
    return pb.Event(
        irrigation_placed=pb.IrrigationPlaced(seat=seat, a=wire.hex_msg(a), b=wire.hex_msg(b))
    )


def channel_placements(state: FreundeState, seat: int) -> tuple[pb.PlaceIrrigation, ...]:
    """Every channel the seat may place now: each free side, named either way round
    (shared bodies: the kit copies each into the command it lists)."""
    if state.players[seat].irrigation <= 0:
        return ()
    return _channel_bodies(state.garden.open_sides)
