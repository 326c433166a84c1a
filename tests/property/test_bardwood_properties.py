"""Bardwood Grove: seeded random games through the kit's conformance check, at 2, 3 and 4
players, with the rulebook's limits checked after every command.

Default budget: 6 games per player count, the first of them deep (every listed command
decided, unlisted and mutated ones refused, views reshuffled, re-execution); options
rotate so each player count's deep game has other ones. A deep game costs about 30 times
a plain one (mostly the kit's state digests around every refused command). Scale it
with ``BW_PROPERTY_SCALE`` (see ``engines.core.testing.budget``): ``BW_PROPERTY_SCALE=20``
plays 120 games per player count, 20 of them deep.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from engines.bardwood.content import content
from engines.bardwood.engine import ENGINE
from engines.bardwood.scoring import owned
from engines.bardwood.state import BardwoodState, put
from engines.core.testing import budget, conformance

OPTIONS: tuple[dict[str, Any], ...] = (
    {},
    {"short_game": True},
    {"loudstones": True, "unlocked": True},
    {"unlocked": True, "all_market_cards": True},
)


def reshuffle(state: BardwoodState, viewer: int, rnd: random.Random) -> BardwoodState:
    """The table as ``viewer`` knows it: every other seat's Skill cards dealt again at
    random between its hand and the unseen part of its deck (a drawn Fan or Creature
    waiting in hand is public, and stays)."""
    c = content()
    players = state.players
    for seat, player in enumerate(players):
        if seat == viewer:
            continue
        in_hand = [card for card in player.hand if c.card(card).skill]
        pool = in_hand + [card for card in player.unseen if c.card(card).skill]
        rnd.shuffle(pool)
        hand = pool[: len(in_hand)]
        kept = [card for card in player.hand if not c.card(card).skill]
        unseen = [card for card in player.unseen if not c.card(card).skill] + pool[len(in_hand) :]
        changed = replace(player, hand=tuple(sorted(hand + kept)), unseen=tuple(sorted(unseen)))
        players = put(players, seat, changed)
    return replace(state, players=players)


def check_limits(state: BardwoodState) -> None:
    """The rulebook's limits and the conservation of every component."""
    c = content()
    if not state.players or not all(p.character for p in state.players):
        return
    assert state.act1_pool >= 0 and state.act2_pool >= 0
    assert state.act1_pool == 0 or not state.end_triggered
    turn = state.turn
    assert turn.melody >= 0 and turn.lyric >= 0 and turn.movement >= 0
    badges = Counter[int]()
    for pile in state.piles:
        badges.update(pile.badges)
        assert len(set(pile.badges)) == len(pile.badges), "one Badge of each player a Creature"
    badges.update(state.bank)
    assert all(n <= 1 for n in Counter(state.bank).values()), "one Badge each on the Bank"
    for seat, player in enumerate(state.players):
        assert 0 <= player.volume <= c.volume_max
        for amount in (player.coins, player.songstones, player.rangestones, player.loudstones):
            assert amount >= 0
        assert player.loudstones == 0 or state.loudstones
        assert 0 <= player.boat < len(c.legend_discounts)
        assert all(0 <= left <= c.runes_per_bonus for left in player.runes)
        placed = sum(1 for s in state.perform if s == seat)
        placed += sum(1 for _, s in state.legend_runes if s == seat)
        assert placed + sum(player.runes) == c.runes_per_bonus * len(player.runes)
        assert 0 <= player.badges <= c.badges and player.held >= 0
        assert player.badges + badges[seat] <= c.badges
        skills = sum(1 for card in player.hand if c.card(card).skill)
        assert skills <= c.hand_size and len(player.hand) <= skills + 1
        assert sum(1 for held in player.song if c.card(held.card).kind == "instrument") == 1
    cards = Counter[str]()
    for seat in range(state.seats):
        cards.update(owned(state, seat))
    for _, deck in state.market:
        cards.update(deck)
    cards.update(state.fans)
    for pile in state.piles:
        cards.update(pile.cards)
    in_play = [design for design in c.market_cards if cards[design]]
    assert all(cards[design] == 2 for design in in_play), "two copies of each design in play"
    per_type = Counter(c.card(design).kind for design in in_play)
    first_game = len(c.market_designs["improv"])
    every = first_game + len(c.market_unlockable["improv"])
    assert per_type["improv"] == per_type["action"] in (first_game, every)
    if not state.unlocked:
        assert set(in_play) == {d for designs in c.market_designs.values() for d in designs}
    assert all(cards[fan] <= 1 for fan in c.fans)
    assert all(cards[creature] == 1 for creature in c.creatures)
    assert sum(1 for tier_up in state.legends_up for _ in tier_up) + sum(state.legends_down) == 15


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_conform(seats: int) -> None:
    """Random games end, listed commands are exactly the accepted ones, replay and
    re-execution agree, and no seat sees another's hand or deck."""
    games = budget(6)
    rotated = OPTIONS[seats % len(OPTIONS) :] + OPTIONS[: seats % len(OPTIONS)]
    report = conformance(
        ENGINE,
        seats,
        seeds=range(1000 * seats, 1000 * seats + games),
        options=rotated,
        deep_every=6,
        reshuffle=reshuffle,
        invariants=check_limits,
        max_commands=40_000,
    )
    assert report.games == games
    assert report.event_kinds["game_finished"] == games
    assert report.event_kinds["card_drawn"] > 0 and report.command_kinds["finish"] > 0
