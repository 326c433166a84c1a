"""Bots fill seats: they choose only legal commands and play whole games."""

from __future__ import annotations

from google.protobuf.message import Message

from engines.core.bots import RandomBot
from engines.core.contract import TableConfig
from engines.core.play import Table
from engines.harvest.bots import HarvestGreedyBot, farm_value
from engines.harvest.engine import ENGINE

from .helpers import crop, started, with_player


def test_greedy_values_crops_in_the_field_above_seeds_in_hand() -> None:
    """A planted Pumpkin is worth more than the seed it came from."""
    seed = with_player(started(), 0, seeds=(0, 0, 0, 1), crops=())
    planted = with_player(
        started(), 0, seeds=(0, 0, 0, 0), crops=(crop("pumpkin", (0, 0), (1, 0), (1, 1)),)
    )
    assert farm_value(planted, 0) > farm_value(seed, 0)


def test_greedy_bot_beats_random_in_most_fixed_seed_games() -> None:
    """Over six seeded two-player games the greedy bot wins most against random."""
    wins = 0
    for seed in range(6):
        greedy, rand = HarvestGreedyBot(seed), RandomBot(seed)

        def choose(
            t: Table, seat: int, greedy: HarvestGreedyBot = greedy, rand: RandomBot = rand
        ) -> Message:
            if seat == 0:
                return greedy.choose(ENGINE, t.state, seat)
            return rand.choose(ENGINE, t.state, seat)

        table = Table.create(ENGINE, TableConfig(f"bots-{seed}", 2), bytes([seed]))
        table.play(choose)
        outcome = ENGINE.outcome(table.state)
        assert outcome.finished
        wins += 0 in outcome.winners
    assert wins >= 4
