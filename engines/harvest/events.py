"""Small constructors for Harvest's events, so rules read in the game's words."""

from __future__ import annotations

from collections.abc import Iterable

from engines.core.messages import built_once
from engines.core.polyomino import Cell
from engines.harvest.content import TaskSpec, content
from proto import harvest_pb2 as pb

__all__ = [
    "cell_numbers",
    "cells_of",
    "die_rolled",
    "granted",
    "land_cleared",
    "resolved",
    "resources",
    "step_finished",
    "sunrise_taken",
    "turn_began",
    "worker_placed",
    "wrap",
]


def wrap(**kind: object) -> pb.Event:
    """An ``Event`` holding the one message given by keyword (``wrap(turn_began=...)``),
    or built from a dict of its fields (faster: built in place rather than copied)."""
    return pb.Event(**kind)  # type: ignore[arg-type]


# The most frequent events, built once per set of fields and afterwards parsed from
# their bytes (see the core's ``built_once``): a game repeats few distinct ones. Each call
# still returns a new message (the recorders remember their answers by the event's
# identity).
_built_once = built_once(pb.Event.FromString, maxsize=1 << 16)


@_built_once
def _event(kind: str, names: tuple[str, ...], values: tuple[object, ...]) -> pb.Event:
    """A new ``Event`` of ``kind`` whose fields ``names`` hold ``values``."""
    return wrap(**{kind: dict(zip(names, values, strict=True))})


def cell_numbers(cells: Iterable[Cell]) -> list[int]:
    """Field cells by number (row by row), in increasing order."""
    cols = content().grid.cols
    return sorted(r * cols + c for r, c in cells)


def cells_of(numbers: Iterable[int]) -> frozenset[Cell]:
    grid = content().grid
    return frozenset(grid.cell(n) for n in numbers)


def resources(seat: int, reason: str, **deltas: int) -> pb.Event:
    """A signed change of one player's supply and tracks."""
    return _event(
        "resources_changed", ("seat", "reason", *deltas), (seat, reason, *deltas.values())
    )


def granted(
    seat: int, source: str, tasks: Iterable[TaskSpec], new_step: bool, mode: str = ""
) -> pb.Event:
    return _granted(seat, source, tuple(tasks), new_step, mode)


@_built_once
def _granted(
    seat: int, source: str, tasks: tuple[TaskSpec, ...], new_step: bool, mode: str
) -> pb.Event:
    fields = {
        "seat": seat,
        "source": source,
        "tasks": [{"kind": k, "amount": a} for k, a in tasks],
        "new_step": new_step,
        "mode": mode,
    }
    return wrap(tasks_granted=fields)


def resolved(seat: int, task: int, used: str = "") -> pb.Event:
    return _event("task_resolved", ("seat", "task", "used"), (seat, task, used))


def turn_began(phase: str, seat: int) -> pb.Event:
    return _event("turn_began", ("phase", "seat"), (phase, seat))


def step_finished(seat: int) -> pb.Event:
    return _event("step_finished", ("seat",), (seat,))


def worker_placed(seat: int, space: str) -> pb.Event:
    return _event("worker_placed", ("seat", "space"), (seat, space))


def sunrise_taken(seat: int, tile: int) -> pb.Event:
    return _event("sunrise_taken", ("seat", "tile"), (seat, tile))


def die_rolled(seat: int, face: int) -> pb.Event:
    return _event("forest_die_rolled", ("seat", "face"), (seat, face))


def land_cleared(seat: int, forest: int, building: str, slot: int) -> pb.Event:
    names = ("seat", "forest", "building", "slot")
    return _event("land_cleared", names, (seat, forest, building, slot))
