"""Scratch-Off Cards: each player's woods and mine.

A card is generated from the table seed at set-up: in each half a few squares are
printed as rock, a few goods are drawn from the half's pool to join its fixed goods
(together the half's public preview), and the path marks a cheapest route from the top
row to the bottom row. What lies under each square is not decided at set-up: when a
square is scratched, its content is drawn at random from what is left of its half's
preview. For a player this is the same as a card printed in advance (every unscratched
square of a half is equally likely to hold each remaining good), and it means no secret
is kept anywhere, so none can leak.
"""

from __future__ import annotations

import heapq

from engines.core.deck import draw_random
from engines.core.polyomino import Cell, neighbors
from engines.core.rng import Rng
from engines.tend.content import ScratchArea, ScratchHalf, Square, content
from engines.tend.state import Scratch
from proto import tend_pb2 as pb

__all__ = [
    "bottom_row",
    "cost",
    "draw_content",
    "generate",
    "in_top",
    "preview",
    "reachable",
    "remaining",
    "square_message",
    "square_of",
]


def _key(square: Square) -> tuple[str, bool, int, int, int]:
    return (square.good, square.level, square.actions, square.coins, square.amount)


def square_message(square: Square) -> pb.Square:
    return pb.Square(
        good=square.good,
        level=square.level,
        actions=square.actions,
        coins=square.coins,
        amount=square.amount,
    )


def square_of(message: pb.Square) -> Square:
    return Square(message.good, message.level, message.actions, message.coins, message.amount)


def in_top(square: int) -> bool:
    return square // content().scratch.cols < content().top_rows


def bottom_row(square: int) -> bool:
    return square // content().scratch.cols == content().scratch.rows - 1


def cost(square: int) -> int:
    """Actions to scratch a square: 1 in the top half, 2 in the bottom half."""
    top, bottom = content().scratch_costs
    return top if in_top(square) else bottom


def _cell(square: int) -> Cell:
    return content().scratch.cell(square)


def reachable(scratch: Scratch) -> list[int]:
    """Squares that may be scratched now: not rock, not scratched, and in the top row or
    next to a scratched square (Chopping, Mining)."""
    grid = content().scratch
    done = {n for n, _ in scratch.scratched}
    near = {grid.index(n) for s in done for n in neighbors(_cell(s)) if grid.contains(n)}
    return [
        s
        for s in range(grid.rows * grid.cols)
        if s not in done and s not in scratch.rocks and (s < grid.cols or s in near)
    ]


def preview(area: str, scratch: Scratch, top: bool) -> list[Square]:
    """A half's public preview: its fixed goods and the pool entries the card drew."""
    half = content().scratch_areas[area].top if top else content().scratch_areas[area].bottom
    picks = scratch.picks_top if top else scratch.picks_bottom
    return sorted((*half.fixed, *(half.pool[i] for i in picks)), key=_key)


def remaining(area: str, scratch: Scratch, top: bool) -> list[Square]:
    """What the half still holds: its preview less what has been scratched in it."""
    left = preview(area, scratch, top)
    for square, found in scratch.scratched:
        if in_top(square) == top:
            left.remove(found)
    return left


def draw_content(area: str, scratch: Scratch, square: int, rng: Rng) -> Square:
    """The content of ``square``, drawn from what its half has left."""
    left = remaining(area, scratch, in_top(square))
    (index,) = draw_random(range(len(left)), 1, rng)
    return left[index]


def _path(rocks: tuple[int, ...]) -> tuple[int, ...]:
    """A cheapest route from the top row to the bottom row (ties: lowest squares)."""
    grid = content().scratch
    queue: list[tuple[int, tuple[int, ...]]] = [
        (cost(s), (s,)) for s in range(grid.cols) if s not in rocks
    ]
    heapq.heapify(queue)
    best: dict[int, int] = {}
    while queue:
        spent, route = heapq.heappop(queue)
        last = route[-1]
        if bottom_row(last):
            return route
        if best.get(last, 1 << 30) <= spent:
            continue
        best[last] = spent
        for cell in neighbors(_cell(last)):
            if grid.contains(cell):
                n = grid.index(cell)
                if n not in rocks and n not in route:
                    heapq.heappush(queue, (spent + cost(n), (*route, n)))
    return ()


def _picks(half: ScratchHalf, rng: Rng) -> tuple[int, ...]:
    return tuple(sorted(draw_random(range(len(half.pool)), content().variable_per_half, rng)))


def generate(area: ScratchArea, rng: Rng) -> Scratch:
    """A new card's woods or mine: rocks, preview and path (everything printed on it)."""
    c = content()
    cols, top_rows = c.scratch.cols, c.top_rows
    top = range(cols, top_rows * cols)
    bottom = range(top_rows * cols, c.scratch.rows * cols - cols)
    while True:
        rocks = tuple(
            sorted(
                draw_random(top, c.rocks_per_half, rng) + draw_random(bottom, c.rocks_per_half, rng)
            )
        )
        path = _path(rocks)
        if path:
            break
    return Scratch(
        rocks=rocks,
        path=path,
        picks_top=_picks(area.top, rng),
        picks_bottom=_picks(area.bottom, rng),
    )
