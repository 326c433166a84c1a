"""A Harvest-specific greedy bot (the generic one chases immediate points only).

It looks one command ahead and values the whole farm, not just the score track: crops
in the field at their harvest value, buildings, and a little for goods that can still
become points. Bots are players, not rules: they may use their own seeded random.
"""

from __future__ import annotations

import random
from typing import Any

from engines.core.errors import RuleViolation
from engines.core.rng import Rng
from engines.harvest.content import content
from engines.harvest.state import HarvestState
from proto import harvest_pb2 as pb

__all__ = ["HarvestGreedyBot", "farm_value"]

SEED_WORTH = (0.5, 1.0, 2.5, 3.5)


def farm_value(state: HarvestState, seat: int) -> float:
    """What the seat's position is worth in points, roughly."""
    c = content()
    p = state.players[seat]
    if state.final:
        return float(state.final[seat].total)
    crops = 0.0
    for x in p.crops:
        crops += 2.0 if x.kind == "bush" else c.crop(x.kind).points * 0.9
        crops += 3.6 if x.berry else 0.0
    buildings = sum(c.building_value(b.building) + 1.5 for b in p.buildings)
    goods = 0.5 * p.coins + 0.3 * p.water + 0.3 * p.fertilizer + 0.15 * p.bucket
    seeds = sum(n * w for n, w in zip(p.seeds, SEED_WORTH, strict=True))
    return p.points + crops + buildings + goods + seeds


class HarvestGreedyBot:
    """Takes the command that most raises its own ``farm_value``; ties at random."""

    name = "harvest-greedy"

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, engine: Any, state: HarvestState, seat: int) -> pb.Command:
        options = engine.legal_commands(state, seat)
        if not options:
            raise RuntimeError(f"seat {seat} has no legal command")
        best: list[pb.Command] = []
        best_value = float("-inf")
        for command in options:
            value = self._value_after(engine, state, command, seat)
            if value > best_value + 1e-9:
                best, best_value = [command], value
            elif abs(value - best_value) <= 1e-9:
                best.append(command)
        acting = [c for c in best if c.WhichOneof("kind") != "finish"]
        return self._random.choice(acting or best)

    @staticmethod
    def _value_after(engine: Any, state: HarvestState, command: pb.Command, seat: int) -> float:
        try:
            events = engine.decide(state, command, seat, Rng(b"greedy-lookahead", "bot", 0))
        except RuleViolation:
            return float("-inf")
        for event in events:
            state = engine.evolve(state, event)
        return farm_value(state, seat)
