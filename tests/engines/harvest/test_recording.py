"""The recorders' shortcuts write what the events say: the step a grant opens (shared
from the grant's memory) and a supply change read from the fields it sets."""

from __future__ import annotations

from dataclasses import replace

from engines.core.contract import TableConfig
from engines.core.play import Table
from engines.harvest import evolve
from engines.harvest.engine import ENGINE
from engines.harvest.rules import SEED_FIELDS
from engines.harvest.state import HarvestState, Step, Task
from proto import harvest_pb2 as pb


def _played(seed: int) -> list[tuple[HarvestState, pb.Event]]:
    """Each event of a seeded random 4-player game with the state it was recorded in."""
    bot = ENGINE.bots["random"](seed)
    table = Table.create(ENGINE, TableConfig(f"recording-{seed}", 4), seed.to_bytes(8, "big"))
    table.play(lambda t, seat: bot.choose(ENGINE, t.state, seat))
    state, pairs = ENGINE.initial_state(), []
    for message in table.events:
        event = pb.Event.FromString(message.SerializeToString())
        pairs.append((state, event))
        state = ENGINE.evolve(state, event)
    return pairs


def test_a_new_step_grant_opens_the_step_it_names_remembered_or_not() -> None:
    """Tasks Granted with a new step pushes Step(seat, source, tasks, mode, kinds),
    whether the grant's step is built now or shared from an earlier grant."""
    checked = 0
    for forget in (True, False):
        for state, event in _played(3):
            if event.WhichOneof("kind") != "tasks_granted" or not event.tasks_granted.new_step:
                continue
            if forget:
                evolve._GRANTS.clear()
            g = event.tasks_granted
            tasks = tuple(Task(t.kind, t.amount) for t in g.tasks)
            step = Step(
                g.seat, g.source, tasks, mode=g.mode, kinds=frozenset(t.kind for t in tasks)
            )
            assert ENGINE.evolve(state, event).steps == (*state.steps, step)
            checked += 1
    assert checked > 20


def test_a_supply_change_moves_exactly_the_fields_it_names() -> None:
    """Resources Changed adds each signed amount to the player's supply and tracks."""
    checked = 0
    for state, event in _played(5):
        if event.WhichOneof("kind") != "resources_changed":
            continue
        e = event.resources_changed
        p = state.players[e.seat]
        expected = replace(
            p,
            coins=p.coins + e.coins,
            water=p.water + e.water,
            bucket=p.bucket + e.bucket,
            fertilizer=p.fertilizer + e.fertilizer,
            points=p.points + e.points,
            rerolls=p.rerolls + e.rerolls,
            seeds=tuple(n + getattr(e, seed) for n, seed in zip(p.seeds, SEED_FIELDS, strict=True)),
        )
        assert ENGINE.evolve(state, event).players[e.seat] == expected
        checked += 1
    assert checked > 20
