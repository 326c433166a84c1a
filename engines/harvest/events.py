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


# The most frequent events, built once per set of arguments and afterwards parsed from
# their bytes (see the core's ``built_once``): a game repeats few distinct ones. Each
# constructor is decorated itself, so a call is one lookup and one parse (profiled: a
# shared builder taking field names and values added a call and two tuples). Each call
# still returns a new message.
_built_once = built_once(pb.Event.FromString, maxsize=1 << 16)


def cell_numbers(cells: Iterable[Cell]) -> list[int]:
    """Field cells by number (row by row), in increasing order."""
    cols = content().grid.cols
    return sorted(r * cols + c for r, c in cells)


def cells_of(numbers: Iterable[int]) -> frozenset[Cell]:
    grid = content().grid
    return frozenset(grid.cell(n) for n in numbers)


@_built_once
def resources(seat: int, reason: str, **deltas: int) -> pb.Event:
    """A signed change of one player's supply and tracks."""
    return wrap(resources_changed={"seat": seat, "reason": reason, **deltas})


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


@_built_once
def resolved(seat: int, task: int, used: str = "") -> pb.Event:
    return wrap(task_resolved={"seat": seat, "task": task, "used": used})


@_built_once
def turn_began(phase: str, seat: int) -> pb.Event:
    return wrap(turn_began={"phase": phase, "seat": seat})


@_built_once
def step_finished(seat: int) -> pb.Event:
    return wrap(step_finished={"seat": seat})


@_built_once
def worker_placed(seat: int, space: str) -> pb.Event:
    return wrap(worker_placed={"seat": seat, "space": space})


@_built_once
def sunrise_taken(seat: int, tile: int) -> pb.Event:
    return wrap(sunrise_taken={"seat": seat, "tile": tile})


@_built_once
def die_rolled(seat: int, face: int) -> pb.Event:
    return wrap(forest_die_rolled={"seat": seat, "face": face})


@_built_once
def land_cleared(seat: int, forest: int, building: str, slot: int) -> pb.Event:
    fields = {"seat": seat, "forest": forest, "building": building, "slot": slot}
    return wrap(land_cleared=fields)
