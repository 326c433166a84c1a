"""Reading the garden: which plot is where, its colour, improvement, bamboo, irrigation.

Pure queries over :class:`FreundeState`; every rule module builds on them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TypeVar

from engines.core.hexgrid import Hex
from engines.core.track import Track
from engines.freunde.content import TILES
from engines.freunde.state import COLOURS, FreundeState

__all__ = [
    "STALK",
    "bamboo_at",
    "can_grow",
    "colour_at",
    "grow",
    "improvement_at",
    "is_blank",
    "is_irrigated",
    "per_garden_maps",
    "tiles_present",
]

T = TypeVar("T")

# The Gardener and the Panda: a stalk stands from nothing up to 4 sections.
STALK = Track(0, 4)


def per_garden_maps(
    compute: Callable[[Mapping[Hex, int], Mapping[Hex, int], Mapping[Hex, str]], T],
) -> Callable[[FreundeState], T]:
    """Remember what ``compute`` gave for the last plots, bamboo and chips maps it saw, by
    their identity: a recorder replaces a map, never changes one in place, and they change
    far less often than legal commands are listed (a figure's move makes a new garden
    with the same maps)."""
    # The maps are held, so no other object can take their ids while remembered.
    last: tuple[object, object, object, T] | None = None

    def remembered(state: FreundeState) -> T:
        nonlocal last
        garden = state.garden
        plots, bamboo, chips = garden.plots, state.bamboo, garden.chips
        if last is not None and last[0] is plots and last[1] is bamboo and last[2] is chips:
            return last[3]
        value = compute(plots, bamboo, chips)
        last = (plots, bamboo, chips, value)
        return value

    return remembered


def tiles_present(state: FreundeState) -> frozenset[Hex]:
    """Every hex holding a tile, the pond included: the ground the gardener and panda walk."""
    return state.garden.tiles


def bamboo_at(state: FreundeState, h: Hex) -> int:
    return state.bamboo.get(h, 0)


def colour_at(state: FreundeState, h: Hex) -> str:
    """The plot's colour; "" for the pond or an empty hex."""
    tile = state.garden.plots.get(h)
    return TILES[tile].colour if tile is not None else ""


def improvement_at(state: FreundeState, h: Hex) -> str:
    """The plot's improvement, printed or placed as a chip; "none" if it has neither."""
    tile = state.garden.plots.get(h)
    if tile is None:
        return "none"
    printed = TILES[tile].improvement
    if printed != "none":
        return printed
    return state.garden.chips.get(h, "none")


def is_irrigated(state: FreundeState, h: Hex) -> bool:
    """Whether the plot at ``h`` is irrigated (the pond and empty hexes are not)."""
    return (h, colour_at(state, h)) in state.garden.irrigated


def is_blank(state: FreundeState, h: Hex) -> bool:
    """Improvements › a plot with no bamboo and no improvement (printed or placed)."""
    return h in state.garden.plots and h not in state.bamboo and improvement_at(state, h) == "none"


def can_grow(state: FreundeState, h: Hex, colour: str) -> bool:
    """Whether a section can still grow on the ``colour`` plot at ``h``: its stalk is
    below 4 and the supply still holds one of its colour (see :func:`grow`)."""
    return state.bamboo.get(h, 0) < STALK.high and state.supply.bamboo[COLOURS.index(colour)] > 0


def grow(state: FreundeState, wanted: Iterable[tuple[Hex, int]]) -> list[tuple[Hex, str, int]]:
    """The bamboo sections that really grow: ``(hex, colour, sections)`` per growing plot.

    The Gardener and the Panda: a stalk is at most 4 tall. A section comes from the
    supply of its colour, so an empty supply grows nothing; when the supply runs short,
    plots are served in the order given.
    """
    plots, heights = state.garden.plots, state.bamboo
    grown_to: dict[Hex, int] = {}
    supply = list(state.supply.bamboo)
    out: list[tuple[Hex, str, int]] = []
    for h, sections in wanted:
        colour = TILES[plots[h]].colour
        index = COLOURS.index(colour)
        height = grown_to.get(h, heights.get(h, 0))
        # Never past the top of the stalk: STALK.room bounds it.
        grown = min(sections, STALK.room(height), supply[index])
        if grown > 0:
            supply[index] -= grown
            grown_to[h] = height + grown
            out.append((h, colour, grown))
    return out
