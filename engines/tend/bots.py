"""Tend's bots: a random player and a greedy one, both choosing among the legal commands.

- ``random`` picks a kind of move at random (choose a card, chop, ship, sell...), then
  one command of that kind: a uniform pick over commands would mostly ship goods to
  random boxes, since one good has many placements. It rarely finishes early and rarely
  swaps neighbour cards, so its games reach every part of the rules.
- ``greedy`` looks one command ahead and takes the one that most raises its
  :func:`worth`: the points it would score now, plus what its sheets promise (progress
  towards upgrades, badges and unlocks, the season objectives to come, crops and
  animals, tasks and actions in hand). Ties are broken at random.

Bots are players, not rules: they use their own seeded ``random.Random``, and the
greedy look-ahead decides with a fixed ``Rng`` of its own, so it never sees the table's
draws before they happen.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from google.protobuf.message import Message

from engines.core.errors import RuleViolation
from engines.core.rng import Rng
from engines.tend.content import Feature, content
from engines.tend.measures import measure
from engines.tend.scoring import final_score
from engines.tend.state import Player, TendState

__all__ = ["BOTS", "GreedyBot", "RandomBot", "kind_first", "worth"]

# Kinds a random player seldom wants: ending a task or phase early, swapping neighbours.
_RARELY = {"finish": 0.15, "discard_neighbour": 0.1, "move_animal": 0.2, "call_time": 0.2}


def _kind(command: Message) -> str:
    return command.WhichOneof("kind") or ""


def kind_first(legal: Sequence[Message], rnd: random.Random, _state: Any = None) -> Message:
    """A kind of move at random (some rarely), then one of its commands."""
    by_kind: dict[str, list[Message]] = {}
    for command in legal:
        by_kind.setdefault(_kind(command), []).append(command)
    kinds = sorted(by_kind)
    weights = [_RARELY.get(k, 1.0) for k in kinds]
    chosen = rnd.choices(kinds, weights)[0]
    return rnd.choice(by_kind[chosen])


class _Bot:
    """A seeded player: its own ``random.Random``, and the seat's legal commands."""

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    @staticmethod
    def _legal(engine: Any, state: TendState, seat: int) -> list[Message]:
        legal: list[Message] = engine.legal_commands(state, seat)
        if not legal:
            raise RuntimeError(f"seat {seat} has no legal command")
        return legal


class RandomBot(_Bot):
    """Random legal moves, kind first (see the module docstring)."""

    name = "random"

    def choose(self, engine: Any, state: TendState, seat: int) -> Message:
        return kind_first(self._legal(engine, state, seat), self._random)


# -- greedy --------------------------------------------------------------------------------

_UNLOCK = {
    "area": 7.0,
    "tool": 7.0,
    "rod": 5.0,
    "lure": 5.0,
    "energy": 3.0,
    "ability": 5.0,
    "explorer": 8.0,
    "animal": 5.0,
    "trellis": 2.0,
    "task": 3.0,
    "buyback": 1.0,
}
_ACTION = {"tend": 2.0, "chop": 2.2, "mine": 2.4, "fish": 2.2, "any": 2.4}


def _feature_value(feature: Feature, row: int) -> float:
    """What completing a row (or the whole grid) of a feature is worth to a player."""
    value = 0.0
    for effect in feature.rewards[row]:
        if effect.kind == "good":
            info = content().goods[effect.name]
            value += (info.coins or 0) + len(info.shape)
        elif effect.kind == "coins":
            value += 0.5 * effect.amount
        elif effect.kind in ("tilled", "fence"):
            value += 0.3 * effect.amount
        else:
            value += _UNLOCK.get(effect.kind, 2.0)
    if feature.group == "badge":
        value += feature.points / 2
    return value


def _sheet_progress(player: Player) -> float:
    """Crossed spaces count for the share of their row's reward they bring closer."""
    features = content().features
    crossed: dict[tuple[str, int], int] = {}
    for feature_id, space in player.crossed:
        feature = features[feature_id]
        row = feature.row_of(space) if feature.lined else 0
        crossed[(feature_id, row)] = crossed.get((feature_id, row), 0) + 1
    value = 0.0
    done = set(player.rows_done)
    for (feature_id, row), count in crossed.items():
        feature = features[feature_id]
        size = len(feature.rows[row]) if feature.lined else len(feature.spaces)
        share = 1.0 if (feature_id, row) in done else 0.7 * count / size
        value += share * _feature_value(feature, row)
    return value


def _objectives_ahead(state: TendState, player: Player) -> float:
    ahead = 0.0
    for season in range(len(player.objectives) + 1, 4):
        objective = content().objectives[state.objectives[season - 1]]
        ahead += 0.8 * measure(player, objective.measure) / objective.every * objective.points
    return ahead


def _farm(player: Player) -> float:
    dice = content().dice
    value = sum(6.0 if dice[d.die].kind == "animal" else 4.0 for d in player.dice)
    value += 0.25 * min(len(player.tilled), 40) + 1.5 * len(player.trellises)
    return value + 4.0 * len(player.owed_animals)


def _in_hand(player: Player) -> float:
    value = 0.3 * player.purse + 0.5 * len(player.pending)
    if player.task is not None:
        value += player.task.actions * _ACTION.get(player.task.kind, 2.0)
    value += sum(_ACTION[w.task] * (1 + w.bonus) for w in (*player.line, *player.bonus))
    return value


def worth(state: TendState, seat: int) -> float:
    """The greedy player's estimate of a seat's position (see the module docstring)."""
    player = state.players[seat]
    score = final_score(state, seat).total
    upgrades = 1.5 * sum(c for _, c in player.energy) + 2.0 * (
        player.chop_level + player.mine_level
    )
    explored = 0.4 * (len(player.woods.scratched) + len(player.mine.scratched))
    return (
        score
        + _objectives_ahead(state, player)
        + _sheet_progress(player)
        + _farm(player)
        + _in_hand(player)
        + upgrades
        + explored
    )


class GreedyBot(_Bot):
    """One command ahead, for the most :func:`worth` (see the module docstring)."""

    name = "greedy"
    _LOOKAHEAD = Rng(b"tend-greedy-lookahead", "bot", 0)

    def choose(self, engine: Any, state: TendState, seat: int) -> Message:
        legal = self._legal(engine, state, seat)
        best: list[Message] = []
        best_value = float("-inf")
        for command in legal:
            value = self._after(engine, state, command, seat)
            if value > best_value + 1e-9:
                best, best_value = [command], value
            elif abs(value - best_value) <= 1e-9:
                best.append(command)
        return self._random.choice(best)

    def _after(self, engine: Any, state: TendState, command: Message, seat: int) -> float:
        try:
            events = engine.decide(state, command, seat, self._LOOKAHEAD)
        except RuleViolation:
            return float("-inf")
        for event in events:
            state = engine.evolve(state, event)
        return worth(state, seat)


BOTS: dict[str, Any] = {"random": RandomBot, "greedy": GreedyBot}
