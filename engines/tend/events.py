"""Small constructors for Tend's events and the numbering of its grids.

Every grid (the farm area, the cargo manifest, a woods or mine, a fishing table) is
numbered row by row; these helpers convert between numbers and cells so rules read
in cells and events carry numbers.
"""

from __future__ import annotations

from collections.abc import Iterable

from engines.core.polyomino import Cell
from engines.tend.content import content
from proto import tend_pb2 as pb

__all__ = [
    "coins",
    "farm_cell",
    "farm_number",
    "gained",
    "manifest_cell",
    "manifest_numbers",
    "table_square",
    "wrap",
]


def wrap(**kind: object) -> pb.Event:
    """An ``Event`` holding the one message given by keyword (``wrap(task_began=...)``)."""
    return pb.Event(**kind)  # type: ignore[arg-type]


def gained(seat: int, goods: Iterable[str], source: str) -> pb.Event:
    """Goods (or marks to draw) gained, each to be used at once."""
    return wrap(goods_gained=pb.GoodsGained(seat=seat, goods=list(goods), source=source))


def coins(seat: int, amount: int, source: str) -> pb.Event:
    """Coins for this turn."""
    return wrap(coins_gained=pb.CoinsGained(seat=seat, coins=amount, source=source))


def farm_number(cell: Cell) -> int:
    return content().farm.index(cell)


def farm_cell(number: int) -> Cell:
    """The farm cell numbered ``number``; raises ``ValueError`` off the farm."""
    return content().farm.cell(number)


def manifest_cell(number: int) -> Cell:
    return content().manifest.grid.cell(number)


def manifest_numbers(cells: Iterable[Cell]) -> list[int]:
    grid = content().manifest.grid
    return sorted(grid.index(c) for c in cells)


def table_square(white: int, black: int) -> int:
    """The number of a fishing-table or geode square (white row, black column, 2-6)."""
    return (white - 2) * 5 + (black - 2)
