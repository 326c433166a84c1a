"""Bots: a random and a points-greedy player fill seats and play whole games."""

from __future__ import annotations

from typing import Any

import pytest

from engines.core.bots import GreedyBot, RandomBot
from engines.core.contract import TableConfig
from engines.core.play import Table
from engines.core.testing import given
from engines.freunde.bots import GreedyFreundeBot
from engines.freunde.engine import ENGINE
from tests.engines.freunde.positions import DECKS, GREEN, garden, started, turn


def test_the_greedy_bot_beats_the_random_bot_in_a_whole_game() -> None:
    """Greedy (seat 0) against random (seat 1): the game ends by the Emperor, greedy ahead."""
    bots: list[Any] = [GreedyFreundeBot(1), RandomBot(1)]
    table = Table.create(ENGINE, TableConfig("bots", 2), b"b0")
    table.play(lambda t, seat: bots[seat].choose(ENGINE, t.state, seat))
    outcome = ENGINE.outcome(table.state)
    assert outcome.finished and outcome.breakdown["end_reason"] == "emperor"
    assert outcome.winners == (0,)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_greedy_players_finish_the_game_by_the_emperor(seats: int) -> None:
    """A table of Freunde's own greedy bots plays to the Emperor, not the round limit."""
    bot = ENGINE.bots["greedy"](seats)
    table = Table.create(ENGINE, TableConfig(f"greedy-{seats}", seats), b"greedy")
    table.play(lambda t, seat: bot.choose(ENGINE, t.state, seat))
    outcome = ENGINE.outcome(table.state)
    assert outcome.breakdown["end_reason"] == "emperor"
    assert max(outcome.scores) >= 20


def test_the_generic_bots_can_fill_a_four_player_table() -> None:
    """engines.core bots only pick legal commands, so a mixed table plays to the end."""
    bots: list[Any] = [GreedyBot(2), RandomBot(2), GreedyFreundeBot(2), RandomBot(3)]
    table = Table.create(ENGINE, TableConfig("bots4", 4, {"round_limit": 30}), b"b4")
    table.play(lambda t, seat: bots[seat].choose(ENGINE, t.state, seat))
    assert ENGINE.outcome(table.state).finished


def test_the_greedy_bot_never_peeks_at_the_decks() -> None:
    """Two positions that differ only in deck order get the same choice."""
    plots = {(1, 0): GREEN[0], (1, -1): GREEN[1]}
    hands = {0: [1, 16, 31], 1: [2, 17, 32]}
    stack = [t for t in range(1, 28) if t not in plots.values()]
    ordered = given(ENGINE, started(hands=hands, plot_stack=stack), garden(plots), turn(0))
    reversed_decks = [list(reversed(deck)) for deck in DECKS]
    upside_down = started(hands=hands, plot_stack=stack[::-1], decks=reversed_decks)
    shuffled = given(ENGINE, upside_down, garden(plots), turn(0))
    first = GreedyFreundeBot(5).choose(ENGINE, ordered.state, 0)
    second = GreedyFreundeBot(5).choose(ENGINE, shuffled.state, 0)
    assert first == second


def test_each_game_s_own_bots_are_the_ones_it_offers() -> None:
    """The engine names its bots: random, and Freunde's own greedy player."""
    assert set(ENGINE.bots) == {"random", "greedy"}
    assert isinstance(ENGINE.bots["greedy"](1), GreedyFreundeBot)
    assert isinstance(ENGINE.bots["random"](1), RandomBot)
