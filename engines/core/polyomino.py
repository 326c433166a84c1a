"""A square grid and polyomino placement, shared by games laid out on squares.

Cells are ``(row, col)`` pairs. A shape is a frozenset of cells; ``normalize`` moves
it so its smallest row and column are 0, which makes equal shapes compare equal
whatever their position. Nothing here knows any game: Harvest's fields and Tend's
gardens both place their pieces through these functions.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "Cell",
    "Grid",
    "Shape",
    "adjacent",
    "flip",
    "neighbors",
    "normalize",
    "orientations",
    "placements",
    "rotate",
    "squares",
    "translate",
]

Cell = tuple[int, int]
Shape = frozenset[Cell]


def normalize(cells: Iterable[Cell]) -> Shape:
    """The shape moved so that its top row and left column are 0."""
    cells = tuple(cells)
    if not cells:
        return frozenset()
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return frozenset((r - top, c - left) for r, c in cells)


def rotate(shape: Iterable[Cell]) -> Shape:
    """The shape turned a quarter clockwise, normalized."""
    return normalize((c, -r) for r, c in shape)


def flip(shape: Iterable[Cell]) -> Shape:
    """The shape mirrored left to right, normalized."""
    return normalize((r, -c) for r, c in shape)


def orientations(shape: Iterable[Cell]) -> tuple[Shape, ...]:
    """Every distinct rotation and reflection of the shape, in a stable order."""
    current = normalize(shape)
    found: set[Shape] = set()
    for mirrored in (current, flip(current)):
        turned = mirrored
        for _ in range(4):
            found.add(turned)
            turned = rotate(turned)
    return tuple(sorted(found, key=sorted))


def translate(shape: Iterable[Cell], row: int, col: int) -> Shape:
    """The shape moved by ``(row, col)``."""
    return frozenset((r + row, c + col) for r, c in shape)


def neighbors(cell: Cell) -> tuple[Cell, ...]:
    """The four orthogonal neighbours (they may lie off any grid)."""
    r, c = cell
    return ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))


def adjacent(a: Iterable[Cell], b: Iterable[Cell]) -> bool:
    """Whether some cell of ``a`` orthogonally touches some cell of ``b``."""
    others = frozenset(b)
    return any(n in others for cell in a for n in neighbors(cell))


@functools.lru_cache(maxsize=1024)
def _offsets(shape: Shape) -> tuple[tuple[Cell, ...], ...]:
    """The shape's orientations, each as its cells' offsets from its first cell
    (remembered: a game has a few shapes, and their placements are listed on every move)."""
    anchored = []
    for oriented in orientations(shape):
        top, left = min(oriented)
        anchored.append(tuple((r - top, c - left) for r, c in oriented))
    return tuple(anchored)


def placements(shape: Iterable[Cell], allowed: Iterable[Cell]) -> tuple[Shape, ...]:
    """Every position of every orientation of the shape lying wholly on ``allowed``.

    Distinct as cell sets (a symmetric shape is not listed twice), in a stable order.
    """
    free = frozenset(allowed)
    if not free:
        return ()
    found: set[Shape] = set()
    for offsets in _offsets(frozenset(shape)):
        # Each orientation's first cell on each free cell: only a fit becomes a shape.
        for row, col in free:
            cells = [(row + dr, col + dc) for dr, dc in offsets]
            if free.issuperset(cells):
                found.add(frozenset(cells))
    return tuple(sorted(found, key=sorted))


def squares(allowed: Iterable[Cell], size: int = 2) -> tuple[Shape, ...]:
    """Every ``size`` x ``size`` block of cells lying wholly on ``allowed``."""
    block = frozenset((r, c) for r in range(size) for c in range(size))
    free = frozenset(allowed)
    found = {translate(block, r, c) for r, c in free}
    return tuple(sorted((s for s in found if s <= free), key=sorted))


@dataclass(frozen=True, slots=True)
class Grid:
    """A rectangular board of ``rows`` x ``cols`` squares, numbered row by row."""

    rows: int
    cols: int

    @property
    def cells(self) -> Shape:
        return frozenset((r, c) for r in range(self.rows) for c in range(self.cols))

    def contains(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols

    def index(self, cell: Cell) -> int:
        """The cell's number, ``row * cols + col``."""
        return cell[0] * self.cols + cell[1]

    def cell(self, index: int) -> Cell:
        """The cell numbered ``index``; raises ``ValueError`` off the board."""
        if not 0 <= index < self.rows * self.cols:
            raise ValueError(f"cell {index} is off the board")
        return divmod(index, self.cols)
