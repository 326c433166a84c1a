"""Given/when/then helpers for Harvest scenarios: positions are plain frozen data."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engines.core.contract import TableConfig
from engines.core.play import Table
from engines.core.rng import Rng
from engines.harvest.content import content
from engines.harvest.engine import ENGINE
from engines.harvest.state import Crop, HarvestState, Step, Task
from proto import harvest_pb2 as pb


def cell(row: int, col: int) -> int:
    return content().grid.index((row, col))


def cells(*pairs: tuple[int, int]) -> list[int]:
    return sorted(cell(r, c) for r, c in pairs)


def crop(kind: str, *pairs: tuple[int, int], berry: bool = False) -> Crop:
    return Crop(kind, frozenset(pairs), berry)


def table(seats: int = 2, seed: int = 7, **options: Any) -> Table:
    return Table.create(
        ENGINE, TableConfig(f"scenario-{seats}-{seed}", seats, options), bytes([seed])
    )


def started(seats: int = 2, seed: int = 7) -> HarvestState:
    """A table past Player Setup (first-game combos), in round 1's Sunrise."""
    return table(seats, seed, first_game=True).state


def with_player(state: HarvestState, seat: int, **changes: Any) -> HarvestState:
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def resolving(
    state: HarvestState, seat: int, *tasks: tuple[str, int], mode: str = "", phase: str = "actions"
) -> HarvestState:
    """``seat`` is in the middle of its turn with these benefits waiting."""
    step = Step(seat, "test", tuple(Task(k, a) for k, a in tasks), mode=mode)
    return replace(state, phase=phase, turn=seat, awaiting="", steps=(step,))


def placing(state: HarvestState, seat: int) -> HarvestState:
    """``seat`` is about to place a Player Piece."""
    return replace(state, phase="actions", turn=seat, awaiting="place", steps=())


def command(**kind: Any) -> pb.Command:
    return pb.Command(**kind)


def run(
    state: HarvestState, seat: int, cmd: pb.Command, version: int = 1
) -> tuple[list[pb.Event], HarvestState]:
    """When ``seat`` sends ``cmd``: the events and the state after them."""
    events = ENGINE.decide(state, cmd, seat, Rng(b"scenario", "harvest", version))
    for event in events:
        state = ENGINE.evolve(state, event)
    return events, state


def kinds(events: list[pb.Event]) -> list[str]:
    return [e.WhichOneof("kind") or "" for e in events]


def first(events: list[pb.Event], kind: str) -> Any:
    return next(getattr(e, kind) for e in events if e.WhichOneof("kind") == kind)
