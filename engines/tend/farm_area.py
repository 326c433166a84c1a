"""Farm Sheet › farm area: where soil, fences, trellises, crops and animals may go.

Players draw tilled soil, fences and trellises on the farm's squares and put crop and
animal dice on them. A die covers a ``size`` x ``size`` square named by its top-left
cell. Fences are drawn on squares; a pen is a group of fence-free squares closed off by
fences on every side, corners included (the FAQ: corner fences must be filled), and the
farm's edge is no fence, so a pen never reaches the edge.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from engines.core.polyomino import Cell, Shape, translate
from engines.tend import codes
from engines.tend.content import content
from engines.tend.events import farm_cell, farm_number, wrap
from engines.tend.state import Die, Player, TendState
from proto import tend_pb2 as pb

__all__ = [
    "MARKS",
    "animal_spots",
    "cells",
    "crop_spots",
    "dice_in_use",
    "die_cells",
    "draw",
    "draw_candidates",
    "mark_spots",
    "occupied",
    "pens",
    "square_at",
]

MARKS: tuple[str, ...] = ("tilled", "fence", "trellis")


@lru_cache(maxsize=64)
def square_at(cell: Cell, size: int) -> Shape:
    """The ``size`` x ``size`` square whose top-left is ``cell``."""
    return translate(frozenset((r, c) for r in range(size) for c in range(size)), *cell)


def _size(die: str) -> int:
    return {"small": 2, "medium": 3, "large": 4}[content().dice[die].size]


@lru_cache(maxsize=4096)
def cells(numbers: tuple[int, ...]) -> frozenset[Cell]:
    """Farm cells from their numbers (a state's sorted tuple)."""
    return frozenset(farm_cell(n) for n in numbers)


def die_cells(die: Die) -> Shape:
    return square_at(farm_cell(die.cell), _size(die.die))


def occupied(player: Player, ignoring: int | None = None) -> frozenset[Cell]:
    """Squares under a crop or animal die (except the die whose corner is ``ignoring``)."""
    return frozenset(c for d in player.dice if d.cell != ignoring for c in die_cells(d))


def _trellis_cells(player: Player) -> frozenset[Cell]:
    return frozenset(c for t in cells(player.trellises) for c in square_at(t, 2))


def dice_in_use(state: TendState, die: str) -> int:
    """How many dice of that colour are on farms (the supply is shared and limited)."""
    return sum(d.die == die for p in state.players for d in p.dice)


def mark_spots(player: Player, mark: str) -> list[Cell]:
    """Where ``mark`` may be drawn: soil on any square without soil, fence or die; a fence
    on a bare square (no soil, trellis or die); a trellis over a 2 x 2 with no fence, no
    other trellis and no die, tilled or not (Trellises)."""
    farm = content().farm
    tilled = cells(player.tilled)
    taken = occupied(player) | cells(player.fences)
    if mark == "tilled":
        free = farm.cells - taken - tilled
        return sorted(free)
    if mark == "fence":
        free = farm.cells - taken - tilled - _trellis_cells(player)
        return sorted(free)
    clear = farm.cells - taken - _trellis_cells(player)
    return sorted(c for c in clear if square_at(c, 2) <= clear)


def pens(player: Player) -> tuple[frozenset[Cell], ...]:
    """The fully fenced areas: fence-free squares joined side or corner, none on the edge."""
    return _pens(player.fences)


@lru_cache(maxsize=4096)
def _pens(fences: tuple[int, ...]) -> tuple[frozenset[Cell], ...]:
    # Cached on the fences alone: soil, trellises and dice, which change far more often,
    # do not move a pen.
    farm = content().farm
    free = set(farm.cells - cells(fences))
    found: list[frozenset[Cell]] = []
    while free:
        start = free.pop()
        group = {start}
        frontier = [start]
        while frontier:
            r, c = frontier.pop()
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    n = (r + dr, c + dc)
                    if n in free:
                        free.discard(n)
                        group.add(n)
                        frontier.append(n)
        edge = any(r in (0, farm.rows - 1) or c in (0, farm.cols - 1) for r, c in group)
        if not edge:
            found.append(frozenset(group))
    return tuple(found)


def crop_spots(player: Player, crop: str) -> list[Cell]:
    """Top-left cells where ``crop`` may be planted: its whole square tilled and free of
    dice, and for a trellis crop a whole trellis under it (Planting Crops, Trellises)."""
    info = content().crops[crop]
    ground = cells(player.tilled) - occupied(player)
    trellises = cells(player.trellises)
    spots = []
    for cell in sorted(ground):
        square = square_at(cell, info.size)
        if not square <= ground:
            continue
        if info.trellis and not any(square_at(t, 2) <= square for t in trellises):
            continue
        spots.append(cell)
    return spots


def animal_spots(player: Player, animal: str, ignoring: int | None = None) -> list[Cell]:
    """Top-left cells where ``animal`` may stand: its whole square inside one pen, free
    of other dice; soil does not matter (Animals, FAQ)."""
    size = content().animals[animal].size
    taken = occupied(player, ignoring)
    spots = []
    for pen in pens(player):
        room = pen - taken
        spots += [cell for cell in room if square_at(cell, size) <= room]
    return sorted(spots)


def draw(state: TendState, cmd: pb.Draw, seat: int) -> list[pb.Event]:
    """Draw one mark you hold (soil from tilling or groundskeeping, a fence, a trellis)."""
    player = state.players[seat]
    if cmd.mark not in MARKS or cmd.mark not in player.pending:
        raise codes.MARK_UNKNOWN(mark=cmd.mark or "mark")
    try:
        cell = farm_cell(cmd.cell)
    except ValueError:
        raise codes.MARK_NO_ROOM(mark=cmd.mark) from None
    if cell not in mark_spots(player, cmd.mark):
        raise codes.MARK_NO_ROOM(mark=cmd.mark)
    return [wrap(mark_drawn=pb.MarkDrawn(seat=seat, mark=cmd.mark, cell=cmd.cell))]


def draw_candidates(state: TendState, seat: int) -> Iterator[pb.Draw]:
    player = state.players[seat]
    for mark in MARKS:
        if mark in player.pending:
            for cell in mark_spots(player, mark):
                yield pb.Draw(mark=mark, cell=farm_number(cell))
