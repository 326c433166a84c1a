"""A Freunde bot that plays for points (the random bot is engines.core.bots.RandomBot).

It claims the best objective it can; otherwise it looks one command ahead and takes
the one that brings the objectives in its hand closest to completion. It never peeks:
drawing plots or objectives is valued without looking at the decks, so the bot only
uses what its seat may see. Bots are players, not rules, so they keep their own
seeded ``random.Random`` for ties.
"""

from __future__ import annotations

import random
from typing import Any

from engines.core import hexgrid
from engines.core.errors import RuleViolation
from engines.core.rng import Rng
from engines.freunde.content import OBJECTIVES, TILES, Objective
from engines.freunde.game_end import score
from engines.freunde.garden import improvement_at
from engines.freunde.objectives import HAND_LIMIT
from engines.freunde.state import FreundeState
from proto import freunde_pb2 as pb

__all__ = ["GreedyFreundeBot", "closeness"]

_BLIND = frozenset({"draw_plots", "draw_objective"})
_SCORE_WEIGHT = 100.0
_CARD_IN_HAND = 1.5
_BLIND_DRAW = 1.0
_BAMBOO_IN_RESERVE = 0.3
_BAMBOO_HOARDED = 0.3
_SPARE_BAMBOO = 2


def _panda_closeness(state: FreundeState, seat: int, obj: Objective) -> float:
    have = state.players[seat].bamboo
    return sum(min(h, n) for h, n in zip(have, obj.bamboo, strict=True)) / sum(obj.bamboo)


def _gardener_closeness(state: FreundeState, obj: Objective) -> float:
    plots = state.garden.plots
    heights = []
    for h, height in state.bamboo.items():
        if TILES[plots[h]].colour != obj.colour or height > obj.height:
            continue
        if obj.improvement in ("any", improvement_at(state, h)):
            heights.append(height)
    best = sorted(heights, reverse=True)[: obj.count]
    return sum(best) / (obj.count * obj.height)


def _plot_closeness(state: FreundeState, obj: Objective) -> float:
    colours = {h: TILES[t].colour for h, t in state.garden.plots.items()}
    irrigated = state.garden.irrigated
    best = 0
    for steps in range(6):
        cells = [(hexgrid.rotate(c, steps), colour) for c, colour in obj.cells]
        for anchor, colour in colours.items():
            if colour != cells[0][1]:
                continue
            found = 0
            for offset, wanted in cells:
                at = hexgrid.add(anchor, offset)
                if colours.get(at) == wanted:
                    found += 2 if (at, wanted) in irrigated else 1
            best = max(best, found)
    return best / (2 * len(obj.cells))


def closeness(state: FreundeState, seat: int, card: int) -> float:
    """How near a card of ``seat``'s hand is to completion, from 0 to 1."""
    obj = OBJECTIVES[card]
    if obj.kind == "panda":
        return _panda_closeness(state, seat, obj)
    if obj.kind == "gardener":
        return _gardener_closeness(state, obj)
    return _plot_closeness(state, obj)


def _stock(state: FreundeState, seat: int) -> float:
    """What the reserve's bamboo is worth: the sections panda cards could still use
    (what the hand's panda cards ask for, and a little more of each colour for cards to
    come) count for; hoarding beyond that counts against, since eaten bamboo only goes
    back to the supply through panda cards, and an empty supply grows nothing."""
    wanted = [_SPARE_BAMBOO] * 3
    for card in state.players[seat].hand:
        for index, need in enumerate(OBJECTIVES[card].bamboo):
            wanted[index] += need
    worth = 0.0
    for have, cap in zip(state.players[seat].bamboo, wanted, strict=True):
        worth += _BAMBOO_IN_RESERVE * min(have, cap) - _BAMBOO_HOARDED * max(0, have - cap)
    return worth


def _worth(state: FreundeState, seat: int) -> float:
    hand = state.players[seat].hand
    # Squared, so finishing a nearly done card beats starting a new one.
    progress = sum(OBJECTIVES[c].points * closeness(state, seat, c) ** 2 for c in hand)
    stock = _stock(state, seat)
    return _SCORE_WEIGHT * score(state, seat) + progress + _CARD_IN_HAND * len(hand) + stock


class GreedyFreundeBot:
    """Prefers points: claims first, then whatever brings its hand nearest completion."""

    name = "freunde-greedy"

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, engine: Any, state: FreundeState, seat: int) -> pb.Command:
        options: list[pb.Command] = engine.legal_commands(state, seat)
        if not options:
            raise RuntimeError(f"seat {seat} has no legal command")
        claims = [c for c in options if c.WhichOneof("kind") == "claim_objective"]
        if claims:
            return max(claims, key=lambda c: OBJECTIVES[c.claim_objective.card].points)
        now = _worth(state, seat)
        best: list[pb.Command] = []
        best_value = float("-inf")
        for command in options:
            value = self._value(engine, state, command, seat, now)
            if value > best_value:
                best, best_value = [command], value
            elif value == best_value:
                best.append(command)
        return self._random.choice(best)

    @staticmethod
    def _value(
        engine: Any, state: FreundeState, command: pb.Command, seat: int, now: float
    ) -> float:
        kind = command.WhichOneof("kind")
        if kind in _BLIND:
            room = kind == "draw_plots" or len(state.players[seat].hand) < HAND_LIMIT - 1
            return now + (_BLIND_DRAW if room else 0.0)
        try:
            events = engine.decide(state, command, seat, Rng(b"freunde-greedy", "bot", 0))
        except RuleViolation:
            return float("-inf")
        for event in events:
            state = engine.evolve(state, event)
        return _worth(state, seat)
