"""A game-neutral hex grid in axial coordinates ``(q, r)``.

Hexes are plain ``(q, r)`` tuples so they hash, sort and serialise canonically.
The six directions are listed counter-clockwise starting east (pointy-top layout,
``r`` growing downwards): E, NE, NW, W, SW, SE.

An *edge* is the side two adjacent hexes share, named by the sorted pair of those
hexes. A *vertex* is the corner three mutually adjacent hexes share, named by the
sorted triple. Naming edges and corners by the hexes around them needs no second
coordinate system, and works for sides on the border of a sparse board too.
"""

from __future__ import annotations

import functools
from collections.abc import Container, Iterable

__all__ = [
    "DIRECTIONS",
    "Edge",
    "Hex",
    "Vertex",
    "add",
    "are_adjacent",
    "distance",
    "edge",
    "edge_vertices",
    "edges_of",
    "line",
    "neighbours",
    "rotate",
    "rotate_shape",
    "straight_moves",
    "vertex_edges",
]

Hex = tuple[int, int]
Edge = tuple[Hex, Hex]
Vertex = tuple[Hex, Hex, Hex]

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
_DIRECTION_INDEX: dict[Hex, int] = {d: i for i, d in enumerate(DIRECTIONS)}


def add(a: Hex, b: Hex) -> Hex:
    """The hex ``b`` away from ``a`` (vector addition)."""
    return (a[0] + b[0], a[1] + b[1])


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six hexes around ``h``, in direction order."""
    q, r = h
    # Spelled out (same order as DIRECTIONS): this is the hottest function of the grid.
    return ((q + 1, r), (q + 1, r - 1), (q, r - 1), (q - 1, r), (q - 1, r + 1), (q, r + 1))


def distance(a: Hex, b: Hex) -> int:
    """Steps between two hexes."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def are_adjacent(a: Hex, b: Hex) -> bool:
    """Whether the two hexes share a side."""
    return distance(a, b) == 1


def line(start: Hex, direction: Hex, present: Container[Hex]) -> list[Hex]:
    """The hexes reached moving from ``start`` along ``direction``, stopping at the first gap.

    ``start`` itself is not included; a gap (a hex not in ``present``) ends the line,
    so a mover never jumps over it.
    """
    out: list[Hex] = []
    _walk(out, start, direction, present)
    return out


def straight_moves(start: Hex, present: Container[Hex]) -> list[Hex]:
    """Every hex reachable from ``start`` in one straight move over present hexes."""
    out: list[Hex] = []
    for direction in DIRECTIONS:
        _walk(out, start, direction, present)
    return out


def _walk(out: list[Hex], start: Hex, direction: Hex, present: Container[Hex]) -> None:
    """Append the hexes of ``line`` to ``out`` (the steps spelled out: figures' moves are
    listed on every turn)."""
    dq, dr = direction
    q, r = start[0] + dq, start[1] + dr
    while (q, r) in present:
        out.append((q, r))
        q += dq
        r += dr


def rotate(h: Hex, steps: int) -> Hex:
    """``h`` turned about the origin by ``steps`` sixths of a full turn."""
    q, r = h
    for _ in range(steps % 6):
        q, r = -r, q + r
    return (q, r)


def rotate_shape(cells: Iterable[Hex], steps: int) -> tuple[Hex, ...]:
    """Every cell of a shape turned about the origin by ``steps`` sixths."""
    return tuple(rotate(c, steps) for c in cells)


def edge(a: Hex, b: Hex) -> Edge:
    """The side between two adjacent hexes, in canonical (sorted) form."""
    if not are_adjacent(a, b):
        raise ValueError(f"{a} and {b} share no side")
    return (a, b) if a <= b else (b, a)


def edges_of(h: Hex) -> tuple[Edge, ...]:
    """The six sides of ``h``."""
    return tuple(edge(h, n) for n in neighbours(h))


@functools.lru_cache(maxsize=8192)
def edge_vertices(e: Edge) -> tuple[Vertex, Vertex]:
    """The two corners at the ends of a side: each shared with one more hex.

    The hexes next to both ``a`` and ``b`` lie one direction either side of the step
    from ``a`` to ``b``; the corners come in the order of those directions. (Remembered:
    a network's sides are asked about again and again, and a board has few of them.)
    """
    a, b = e
    step = _DIRECTION_INDEX.get((b[0] - a[0], b[1] - a[1]))
    if step is None:
        raise ValueError(f"{a} and {b} share no side")
    first, second = sorted(((step - 1) % 6, (step + 1) % 6))
    return (
        _corner(a, b, add(a, DIRECTIONS[first])),
        _corner(a, b, add(a, DIRECTIONS[second])),
    )


def _corner(a: Hex, b: Hex, c: Hex) -> Vertex:
    x, y, z = sorted((a, b, c))
    return (x, y, z)


def vertex_edges(v: Vertex) -> tuple[Edge, Edge, Edge]:
    """The three sides meeting at a corner."""
    a, b, c = v
    return (edge(a, b), edge(a, c), edge(b, c))
