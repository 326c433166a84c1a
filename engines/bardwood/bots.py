"""Bardwood Grove's greedy bot: it plays for points, one command at a time.

It tries each legal command, folds the events, and keeps the one that raises its own
``worth`` the most (ties at random). ``worth`` counts what the end of the game will
count (green crystals, Legends with a Rune, blue VP) and, at a discount, what turns into
points later: coins and Bardstones, opponents' Badges held, bought cards and Creatures,
uncovered Tempo bonuses, the boat's discount, Melody and Lyric not yet spent this turn,
and standing next to useful Locations. It never looks further than one command, so it
is a fair opponent, not a strong one.
"""

from __future__ import annotations

import random
from typing import Any

from engines.bardwood.badges import visible_blue_halves
from engines.bardwood.content import content
from engines.bardwood.locations import next_to
from engines.bardwood.scoring import count, owned
from engines.bardwood.state import BardwoodState
from engines.core.errors import RuleViolation
from engines.core.rng import Rng
from proto import bardwood_pb2 as pb

__all__ = ["GreedyBot", "worth"]

VP = 3.0
_STOCK = {"songstones": 1.2, "rangestones": 0.6, "loudstones": 2.0, "volume": 0.25}
_COIN, _COINS_ENOUGH, _MORE_COINS = 0.8, 8, 0.3  # beyond a purse of 8, coins are worth less
_CARD = {"market": 4.0, "creature": 2.0, "fan": 1.0}
_POOL = 0.4  # a point of Melody or Lyric not yet spent (gone at the end of the turn)
_HELD = 1.3  # an opponent's Badge: 3 of them buy 4 VP
_NEAR = 0.3  # a Location next to the Bard


def worth(state: BardwoodState, seat: int) -> float:
    """How good ``seat``'s position is, in (roughly) thirds of a VP."""
    c = content()
    player = state.player(seat)
    value = VP * player.crystals
    for legend, _ in state.legend_runes:
        scoring = c.legend(legend).scoring
        value += VP * scoring.value(count(state, seat, scoring.count))
    market = c.market_cards
    for card_id in owned(state, seat):
        card = c.card(card_id)
        value += VP / 2 * card.blue_halves
        if card_id in market:
            value += _CARD["market"]
        elif card.kind in _CARD:
            value += _CARD[card.kind]
    value += VP / 2 * visible_blue_halves(state, seat)
    value += sum(weight * getattr(player, name) for name, weight in _STOCK.items())
    coins = player.coins
    value += _COIN * min(coins, _COINS_ENOUGH) + _MORE_COINS * max(coins - _COINS_ENOUGH, 0)
    value += _HELD * player.held
    value += 1.0 * count(state, seat, "uncovered_bonuses")
    value += 0.8 * c.legend_discounts[player.boat]
    if state.turn.seat == seat:
        value += _POOL * (state.turn.melody + state.turn.lyric)
    value += _NEAR * len(next_to(state, seat))
    return value


class GreedyBot:
    """Takes the legal command that raises its own ``worth`` the most."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)
        self._rng_seed = seed.to_bytes(8, "big", signed=True)

    def choose(self, engine: Any, state: BardwoodState, seat: int) -> pb.Command:
        options = engine.legal_commands(state, seat)
        if not options:
            raise RuntimeError(f"seat {seat} has no legal command")
        before = worth(state, seat)
        best: list[pb.Command] = []
        best_gain = float("-inf")
        for command in options:
            gain = self._after(engine, state, command, seat) - before
            if gain > best_gain + 1e-9:
                best, best_gain = [command], gain
            elif abs(gain - best_gain) <= 1e-9:
                best.append(command)
        return self._random.choice(best)

    def _after(self, engine: Any, state: BardwoodState, command: pb.Command, seat: int) -> float:
        try:
            after = engine.decided(state, command, seat, Rng(self._rng_seed, "greedy", 0)).state
        except RuleViolation:
            return float("-inf")
        return worth(after, seat)
