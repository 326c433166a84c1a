"""Reading the garden: which plot is where, its colour, improvement, bamboo, irrigation.

Pure queries over :class:`FreundeState`; every rule module builds on them.
"""

from __future__ import annotations

from collections.abc import Iterable

from engines.core import hexgrid
from engines.core.hexgrid import Hex
from engines.core.track import Track
from engines.freunde.content import TILES
from engines.freunde.state import COLOURS, POND, FreundeState

__all__ = [
    "STALK",
    "bamboo_at",
    "bamboo_map",
    "colour_at",
    "grow",
    "improvement_at",
    "is_blank",
    "is_plot",
    "neighbouring_plots",
    "plot_map",
    "tiles_present",
]

# The Gardener and the Panda: a stalk stands from nothing up to 4 sections.
STALK = Track(0, 4)


def plot_map(state: FreundeState) -> dict[Hex, int]:
    """Placed plots: hex -> tile id (the pond is not a plot)."""
    return dict(state.plots)


def tiles_present(state: FreundeState) -> set[Hex]:
    """Every hex holding a tile, the pond included: the ground the gardener and panda walk."""
    return {POND, *(h for h, _ in state.plots)}


def is_plot(state: FreundeState, h: Hex) -> bool:
    return any(at == h for at, _ in state.plots)


def bamboo_map(state: FreundeState) -> dict[Hex, int]:
    return dict(state.bamboo)


def bamboo_at(state: FreundeState, h: Hex) -> int:
    return bamboo_map(state).get(h, 0)


def colour_at(state: FreundeState, h: Hex) -> str:
    """The plot's colour; "" for the pond or an empty hex."""
    tile = plot_map(state).get(h)
    return TILES[tile].colour if tile is not None else ""


def improvement_at(state: FreundeState, h: Hex) -> str:
    """The plot's improvement, printed or placed as a chip; "none" if it has neither."""
    tile = plot_map(state).get(h)
    if tile is None:
        return "none"
    printed = TILES[tile].improvement
    if printed != "none":
        return printed
    return dict(state.chips).get(h, "none")


def is_blank(state: FreundeState, h: Hex) -> bool:
    """Improvements › a plot with no bamboo and no improvement (printed or placed)."""
    return is_plot(state, h) and bamboo_at(state, h) == 0 and improvement_at(state, h) == "none"


def grow(state: FreundeState, wanted: Iterable[tuple[Hex, int]]) -> list[tuple[Hex, str, int]]:
    """The bamboo sections that really grow: ``(hex, colour, sections)`` per growing plot.

    The Gardener and the Panda: a stalk is at most 4 tall. A section comes from the
    supply of its colour, so an empty supply grows nothing; when the supply runs short,
    plots are served in the order given.
    """
    heights = bamboo_map(state)
    supply = list(state.bamboo_supply)
    out: list[tuple[Hex, str, int]] = []
    for h, sections in wanted:
        colour = colour_at(state, h)
        index = COLOURS.index(colour)
        height = heights.get(h, 0)
        grown = min(sections, STALK.room(height), supply[index])
        if grown > 0:
            supply[index] -= grown
            heights[h] = STALK.advance(height, grown)
            out.append((h, colour, grown))
    return out


def neighbouring_plots(state: FreundeState, h: Hex) -> list[Hex]:
    """The placed plots around ``h``."""
    plots = plot_map(state)
    return [n for n in hexgrid.neighbours(h) if n in plots]
