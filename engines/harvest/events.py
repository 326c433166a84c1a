"""Small constructors for Harvest's events, so rules read in the game's words."""

from __future__ import annotations

from collections.abc import Iterable

from engines.core.polyomino import Cell
from engines.harvest.content import TaskSpec, content
from proto import harvest_pb2 as pb

__all__ = [
    "cell_numbers",
    "cells_of",
    "granted",
    "resolved",
    "resources",
    "wrap",
]


def wrap(**kind: object) -> pb.Event:
    """An ``Event`` holding the one message given by keyword (``wrap(turn_began=...)``),
    or built from a dict of its fields (faster: built in place rather than copied)."""
    return pb.Event(**kind)  # type: ignore[arg-type]


def cell_numbers(cells: Iterable[Cell]) -> list[int]:
    """Field cells by number (row by row), in increasing order."""
    cols = content().grid.cols
    return sorted(r * cols + c for r, c in cells)


def cells_of(numbers: Iterable[int]) -> frozenset[Cell]:
    grid = content().grid
    return frozenset(grid.cell(n) for n in numbers)


def resources(seat: int, reason: str, **deltas: int) -> pb.Event:
    """A signed change of one player's supply and tracks."""
    return wrap(resources_changed={"seat": seat, "reason": reason, **deltas})


def granted(
    seat: int, source: str, tasks: Iterable[TaskSpec], new_step: bool, mode: str = ""
) -> pb.Event:
    return wrap(
        tasks_granted={
            "seat": seat,
            "source": source,
            "tasks": [{"kind": k, "amount": a} for k, a in tasks],
            "new_step": new_step,
            "mode": mode,
        }
    )


def resolved(seat: int, task: int, used: str = "") -> pb.Event:
    return wrap(task_resolved={"seat": seat, "task": task, "used": used})
