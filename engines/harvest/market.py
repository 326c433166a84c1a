"""The Farmer's Market: the spaces of the top tiles, and the next tile at Sunset."""

from __future__ import annotations

from functools import cache

from engines.core.deck import draw_random
from engines.core.rng import Rng
from engines.harvest.content import TaskSpec, content
from engines.harvest.state import HarvestState

__all__ = ["MarketSpace", "market_spaces", "next_market_tiles", "tile_spaces"]

MarketSpace = tuple[int, tuple[TaskSpec, ...]]


@cache
def tile_spaces(large: str, small: str) -> dict[str, MarketSpace]:
    """The market spaces these two top tiles show (the large and the small space)."""
    c = content()
    found: dict[str, MarketSpace] = {}
    for space in c.spaces:
        tile = large if space.market == "large" else small if space.market == "small" else ""
        if not tile:
            continue
        spaces = c.market_tile(tile)
        if space.market_space < len(spaces):
            found[space.id] = spaces[space.market_space]
    return found


def market_spaces(state: HarvestState) -> dict[str, MarketSpace]:
    """The Farmer's Market: each open-able space with its cost and actions (the small
    tile only at 4 players: below that it is "Out to Lunch")."""
    return tile_spaces(state.market_large, state.market_small)


def _next(state: HarvestState, rng: Rng, tiles: tuple[str, ...], board: str, top: str) -> str:
    if top == board or state.market_left <= 0:
        return board
    drawn = draw_random((t for t in tiles if t not in state.market_seen), 1, rng)
    return drawn[0] if drawn else board


def next_market_tiles(state: HarvestState, rng: Rng) -> tuple[str, str]:
    """Sunset 3: discard the top tile(s); the next of each stack of 3 shows, then the
    spaces printed on the board."""
    c = content()
    large = _next(
        state, rng, tuple(t for t, _ in c.market_large), c.market_board_large[0], state.market_large
    )
    small = ""
    if state.market_small:
        small = _next(
            state,
            rng,
            tuple(t for t, _ in c.market_small),
            c.market_board_small[0],
            state.market_small,
        )
    return large, small
