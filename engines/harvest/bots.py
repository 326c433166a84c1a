"""Harvest's greedy bot: a fair opponent that plans a little.

It values a position by what it can still become (``position_value``): a Pumpkin in the
field is worth its 6 Points while a harvest is still likely and 1 Point at the end; Water
is worth what tending the crops it has can grow; Seeds, Fertilizer and Coins are worth
the crops they can buy and plant, and nothing once no action is left. So early on it
buys, plants and tends, and by the end it harvests and spends what it holds.

It plans a turn at a time: a choice that opens actions (a space, a Sunrise tile, a
Field Action) is judged by the position after resolving those actions greedily, not by
the bare choice. Choices that differ only in where a crop or building goes are judged by
one representative spot, so planning stays cheap. Bots are players, not rules: they
may use their own seeded random (ties are broken at random).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from engines.core.errors import RuleViolation
from engines.core.polyomino import Cell, neighbors
from engines.core.rng import Rng
from engines.harvest.buildings import end_game_points
from engines.harvest.content import content
from engines.harvest.rules import SEED_FIELDS, empty_cells
from engines.harvest.state import HarvestState, Player, Step
from proto import harvest_pb2 as pb

__all__ = ["HarvestGreedyBot", "position_value"]

# The kinds of choice judged by playing out the actions they open.
PLANNED = frozenset({"place_worker", "choose_sunrise", "move_piece", "reuse_space"})
# How many commands a plan may look ahead in one turn, and how deeply the actions a
# planned action opens are planned in turn.
PLAN_DEPTH = 24
PLAN_NESTING = 3
LOOKAHEAD = Rng(b"greedy-lookahead", "bot", 0)

# What a waiting task is worth, roughly in Points, before it is used (less than what it
# usually becomes, so using it is worth more than giving it up).
TASK_WORTH = {
    "field": 1.0,
    "purchase": 0.8,
    "workshop": 1.2,
    "trade": 0.6,
    "build": 1.5,
    "rose": 1.0,
    "clear_land": 0.5,
    "clear_land_no_die": 0.5,
    "seed_upgrade": 0.6,
    "two_space": 2.0,
    "repeat_space": 1.5,
    "repeat_built": 1.0,
    "plant_free": 1.0,
    "tend_free": 1.0,
    "roll_die": 0.6,
    "coin": 0.5,
    "water": 0.4,
    "fertilizer": 0.2,
    "fill_bucket": 0.8,
    "upgrade_bucket": 0.2,
    "water_or_fertilizer": 0.4,
    "points": 0.5,
    "remi": 0.5,
    "reroll": 0.1,
}


def actions_left(state: HarvestState, seat: int) -> int:
    """Pieces the seat will still place this game (this round's and later rounds')."""
    rounds = content().rounds
    later = max(0, rounds - max(state.round, 1)) * content().pieces
    return state.players[seat].pieces + later


def _crop_worth(kind: str, harvest: float) -> float:
    """A crop in the field: its harvest (Points, Wheat's Fertilizer, a share of the Coin
    per type) while a harvest is likely, else 1 Point at the end."""
    crop = content().crop(kind)
    harvested = crop.points + 0.3 * crop.harvest_fertilizer + 0.4
    # A harvest still to come is worth a little less than one made (it may not come,
    # and the crop holds land that could grow another).
    likely = 0.85 * harvest
    return likely * harvested + (1 - likely) * 1.0


def _tending_worth(player: Player, room: int, later: float) -> float:
    """What one Water is worth: the best crop it can grow by tending (Points per Water)."""
    if later <= 0:
        return 0.0
    kinds = {c.kind for c in player.crops}
    best = 0.3  # nothing to tend yet: it may be planted later
    if room:
        if "strawberry" in kinds:
            best = max(best, 1.8)
        if "pumpkin" in kinds and room >= 3:
            best = max(best, 1.8)
        if "wheat" in kinds and room >= 3:
            best = max(best, 1.0)
    if any(c.kind == "bush" and not c.berry for c in player.crops):
        best = max(best, 1.8)
    return best * later


def _seeds_worth(player: Player, room: int, harvest: float, later: float) -> float:
    """Seeds are worth part of the crops they become, as many as the empty field holds
    (the best first), less the Fertilizer to plant them."""
    worth = 0.0
    by_value = sorted(
        (
            (_planted_worth(kind, harvest, later), kind, n)
            for kind, n in zip(SEED_FIELDS, player.seeds, strict=True)
        ),
        reverse=True,
    )
    for value, kind, count in by_value:
        size = len(content().crop(kind).shape)
        for _ in range(count):
            fits = room >= size
            room -= size if fits else 0
            # A seed with no room yet may still be planted once land is cleared.
            worth += (0.6 if fits else 0.25) * later * value
    return worth


def _planted_worth(kind: str, harvest: float, later: float) -> float:
    cost = 0.3 * later * content().crop(kind).fertilizer
    if kind == "blueberry":
        return 2.0 + 0.5 * later * _crop_worth("blueberry", harvest) - cost
    return _crop_worth(kind, harvest) - cost


def _task_worth(step: Step, seat: int) -> float:
    if step.seat != seat:
        return 0.0
    return sum(
        TASK_WORTH.get(t.kind.split(":")[0], 0.5) * (t.amount if t.amount > 0 else 1)
        for t in step.tasks
    )


def position_value(state: HarvestState, seat: int) -> float:
    """What the seat's position is worth in Points, counting what its goods can become
    with the actions it has left."""
    if state.final:
        return float(state.final[seat].total)
    p = state.players[seat]
    left = actions_left(state, seat)
    harvest = 1.0 if left >= 4 else 0.8 if left >= 2 else 0.5 if left >= 1 else 0.0
    later = min(1.0, left / 6)
    room = len(empty_cells(p))
    crops = 0.0
    for crop in p.crops:
        if crop.kind == "bush":
            crops += 2.0 + (_crop_worth("blueberry", harvest) if crop.berry else 0.0)
        else:
            crops += _crop_worth(crop.kind, harvest)
    buildings = sum(
        content().building_value(b.building) + end_game_points(state, seat, b.building)
        for b in p.buildings
    )
    goods = (
        (0.5 - 0.15 * later) * p.coins
        + _tending_worth(p, room, later) * p.water
        + 0.25 * later * p.fertilizer
        + 0.2 * later * (p.bucket - content().start_bucket)
        + 0.1 * later * room
    )
    seeds = _seeds_worth(p, room, harvest, later)
    waiting = sum(_task_worth(step, seat) for step in state.steps)
    return p.points + crops + buildings + seeds + goods + waiting


class HarvestGreedyBot:
    """Takes the command whose planned outcome ``position_value`` rates highest."""

    name = "harvest-greedy"

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, engine: Any, state: HarvestState, seat: int) -> pb.Command:
        options = engine.legal_commands(state, seat)
        if not options:
            raise RuntimeError(f"seat {seat} has no legal command")
        return self._best(engine, state, seat, options, PLAN_NESTING)

    def _best(
        self,
        engine: Any,
        state: HarvestState,
        seat: int,
        options: Sequence[pb.Command],
        plans: int,
    ) -> pb.Command:
        best: list[pb.Command] = []
        best_value = float("-inf")
        for command in _representatives(state, options):
            value = self._judge(engine, state, seat, command, plans)
            if value > best_value + 1e-9:
                best, best_value = [command], value
            elif abs(value - best_value) <= 1e-9:
                best.append(command)
        acting = [c for c in best if c.WhichOneof("kind") != "finish"]
        return self._random.choice(acting or best)

    def _judge(
        self, engine: Any, state: HarvestState, seat: int, command: pb.Command, plans: int
    ) -> float:
        """The value after ``command`` and, where it opens actions, after resolving them
        (``plans``: how many more levels of opened actions are planned)."""
        depth = len(state.steps)
        after = _apply(engine, state, seat, command)
        if after is None:
            return float("-inf")
        opens = command.WhichOneof("kind") in PLANNED or len(after.steps) > depth
        if plans > 0 and opens:
            after = self._resolve(engine, after, seat, depth, plans - 1)
        return position_value(after, seat)

    def _resolve(
        self, engine: Any, state: HarvestState, seat: int, depth: int, plans: int
    ) -> HarvestState:
        """Play the seat's actions greedily until it is done with what the judged command
        opened (its steps above ``depth`` are resolved)."""
        for _ in range(PLAN_DEPTH):
            if state.phase == "finished" or seat not in engine.outcome(state).to_act:
                return state
            if len(state.steps) <= depth:
                return state
            options = engine.legal_commands(state, seat)
            command = self._best(engine, state, seat, options, plans)
            after = _apply(engine, state, seat, command)
            if after is None:
                return state
            state = after
        return state


def _apply(engine: Any, state: HarvestState, seat: int, command: pb.Command) -> HarvestState | None:
    try:
        after: HarvestState = engine.decided(state, command, seat, LOOKAHEAD).state
    except RuleViolation:
        return None
    return after


def _site_key(state: HarvestState, command: pb.Command) -> tuple[Any, ...]:
    """What a choice does, leaving out where on the farm it happens: planting or tending
    one crop, building one building, are judged by one spot."""
    kind = command.WhichOneof("kind")
    if kind == "plant_seed":
        return (kind, command.plant_seed.seed)
    if kind == "tend_crop" and not state.steps[-1].owed:
        return (kind, command.tend_crop.crop)
    if kind == "build":
        payment = command.build.payment
        return (kind, command.build.slot, payment.coins, payment.water, payment.fertilizer)
    return (kind, command.SerializeToString(deterministic=True))


def _spot_order(state: HarvestState, seat: int) -> Callable[[pb.Command], tuple[int, Cell]]:
    """Prefer a building's spot that covers no crop, and a crop's spot that touches crops
    of its own kind (so it can be tended), then the top-left-most."""
    player = state.players[seat]
    crops = {cell: crop.kind for crop in player.crops for cell in crop.cells}
    grid = content().grid

    def order(command: pb.Command) -> tuple[int, Cell]:
        kind = command.WhichOneof("kind")
        if kind == "build":
            top, left = grid.cell(command.build.cell)
            covered = sum(1 for r in range(2) for c in range(2) if (top + r, left + c) in crops)
            return (covered, (top, left))
        body = getattr(command, kind or "")
        cells = [grid.cell(n) for n in getattr(body, "cells", ())]
        seed = getattr(body, "seed", "") or getattr(body, "crop", "")
        crop = "bush" if seed == "blueberry" and kind == "plant_seed" else seed
        touching = sum(1 for cell in cells for n in neighbors(cell) if crops.get(n) == crop)
        return (-touching, min(cells) if cells else (0, 0))

    return order


def _representatives(state: HarvestState, options: Sequence[pb.Command]) -> list[pb.Command]:
    """One command per distinct effect (see ``_site_key``), the best-placed spot of each."""
    if not state.steps:
        return list(options)
    seat = state.steps[-1].seat
    order = _spot_order(state, seat)
    chosen: dict[tuple[Any, ...], pb.Command] = {}
    for command in sorted(options, key=order):
        chosen.setdefault(_site_key(state, command), command)
    return list(chosen.values())
