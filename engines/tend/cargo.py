"""Cargo Manifest: placing goods, completed rows, and scoring the three stalls.

A good listed by the commissary fills as many boxes as its shape, rotated or flipped
any way, anywhere in the manifest, but never orthogonally touching another good of its
type. Completing a row awards that row's bonus task. At the end each box scores 1, or
what its stall says for its type (the rulebook's example: 2 + 5 + 3 goods in stalls 1, 2
and 3 score 4 + 18 + 5).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from engines.core.polyomino import Cell, Shape, neighbors, normalize, orientations, placements
from engines.tend import codes
from engines.tend.content import Effect, content
from engines.tend.events import manifest_cell, manifest_numbers, wrap
from engines.tend.marking import reward_events
from engines.tend.state import Player, TendState
from proto import tend_pb2 as pb

__all__ = ["filled", "ship", "ship_candidates", "spots", "stall_scores"]


def filled(player: Player) -> dict[Cell, str]:
    """Each filled box and the good in it."""
    grid = content().manifest.grid
    return {grid.cell(n): good for good, numbers in player.shipped for n in numbers}


def _touches_own_type(boxes: dict[Cell, str], shape: Shape, kind: str) -> bool:
    goods = content().goods
    return any(
        n in boxes and goods[boxes[n]].type == kind
        for cell in shape
        for n in neighbors(cell)
        if n not in shape
    )


def spots(player: Player, good: str) -> list[Shape]:
    """Every placement of ``good`` the manifest takes now."""
    info = content().goods.get(good)
    if info is None or not info.listed:
        return []
    boxes = filled(player)
    free = content().manifest.grid.cells - boxes.keys()
    return [s for s in placements(info.shape, free) if not _touches_own_type(boxes, s, info.type)]


def ship(state: TendState, cmd: pb.Ship, seat: int) -> list[pb.Event]:
    """Place a gained good in the manifest; a completed row queues its bonus task."""
    player = state.players[seat]
    if cmd.good not in player.pending:
        raise codes.GOOD_NOT_HELD(good=cmd.good or "that")
    info = content().goods.get(cmd.good)
    if info is None or not info.listed:
        raise codes.SHIP_UNLISTED()
    numbers = list(cmd.cells)
    grid = content().manifest.grid
    if numbers != sorted(set(numbers)) or not all(0 <= n < grid.rows * grid.cols for n in numbers):
        raise codes.SHIP_BAD_CELLS(good=cmd.good)
    shape = frozenset(manifest_cell(n) for n in numbers)
    boxes = filled(player)
    if shape & boxes.keys() or normalize(shape) not in _orientations(cmd.good):
        raise codes.SHIP_BAD_CELLS(good=cmd.good)
    if _touches_own_type(boxes, shape, info.type):
        raise codes.SHIP_TOUCHES()
    events = [wrap(good_shipped=pb.GoodShipped(seat=seat, good=cmd.good, cells=numbers))]
    after = boxes.keys() | shape
    for row in sorted({r for r, _ in shape}):
        if all((row, c) in after for c in range(grid.cols)):
            done = pb.RowCompleted(seat=seat, feature="manifest", row=row)
            events.append(wrap(row_completed=done))
            task = content().manifest.row_tasks[row]
            events += reward_events(seat, [Effect("task", task)], source="manifest")
    return events


@lru_cache(maxsize=64)
def _orientations(good: str) -> frozenset[Shape]:
    return frozenset(orientations(content().goods[good].shape))


def ship_candidates(state: TendState, seat: int) -> Iterator[pb.Ship]:
    player = state.players[seat]
    for good in sorted(set(player.pending)):
        for shape in spots(player, good):
            yield pb.Ship(good=good, cells=manifest_numbers(shape))


def stall_scores(player: Player) -> tuple[int, ...]:
    """Each stall's points: 1 a box, unless the stall scores the box's type otherwise."""
    manifest = content().manifest
    goods = content().goods
    points = [0] * len(manifest.stalls)
    for cell, good in filled(player).items():
        index = manifest.stall_of(cell)
        stall = manifest.stalls[index]
        points[index] += stall.scores.get(goods[good].type, manifest.default_score)
    return tuple(points)
