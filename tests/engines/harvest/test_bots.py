"""Harvest's greedy bot: it values goods by what they can become, and plays a fair game."""

from __future__ import annotations

from collections import Counter

from google.protobuf.message import Message

from engines.core.bots import RandomBot
from engines.core.contract import TableConfig
from engines.core.play import Table
from engines.harvest.bots import HarvestGreedyBot, position_value
from engines.harvest.engine import ENGINE
from proto import harvest_pb2 as pb

from .helpers import at_round, crop, pieces_all_placed, started, with_player


def test_a_planted_crop_is_worth_more_than_its_seed() -> None:
    """Mid-game, a Pumpkin in the field is worth more than the Pumpkin seed in hand."""
    seed = with_player(started(), 0, seeds=(0, 0, 0, 1))
    planted = with_player(
        started(), 0, seeds=(0, 0, 0, 0), crops=(crop("pumpkin", (0, 0), (1, 0), (1, 1)),)
    )
    assert position_value(planted, 0) > position_value(seed, 0)


def test_water_is_worth_more_with_a_crop_to_tend() -> None:
    """Water is worth what it can grow: more beside a Strawberry than on a bare field."""
    bare = with_player(started(), 0, water=2, bucket=5)
    growing = with_player(bare, 0, crops=(crop("strawberry", (0, 0)),))
    one_more = with_player(growing, 0, water=3)
    assert position_value(one_more, 0) - position_value(growing, 0) > 1.0
    bare_more = with_player(bare, 0, water=3)
    assert position_value(bare_more, 0) - position_value(bare, 0) < 0.5


def test_goods_left_at_the_end_are_worth_nothing_but_coins() -> None:
    """With no action left, Seeds, Water and Fertilizer score nothing; Coins score 1 per 2
    and a crop in the field 1 Point."""
    last = pieces_all_placed(at_round(started(1), 4))
    rich = with_player(last, 0, seeds=(2, 2, 2, 2), water=2, fertilizer=5)
    assert position_value(rich, 0) == position_value(last, 0)
    with_crop = with_player(last, 0, crops=(crop("pumpkin", (0, 0), (1, 0), (1, 1)),))
    assert position_value(with_crop, 0) == position_value(last, 0) + 1


def _play(seats: int, seed: int, greedy: set[int]) -> Table:
    bots = {
        s: HarvestGreedyBot(seed * 10 + s) if s in greedy else RandomBot(seed * 10 + s)
        for s in range(seats)
    }

    def choose(table: Table, seat: int) -> Message:
        return bots[seat].choose(ENGINE, table.state, seat)

    table = Table.create(ENGINE, TableConfig(f"bots-{seats}-{seed}", seats), bytes([seed]))
    table.play(choose)
    return table


def test_greedy_beats_random_in_two_player_games() -> None:
    """Over four seeded two-player games (the greedy bot in either seat) it wins all."""
    for seed in range(4):
        table = _play(2, seed, {seed % 2})
        assert ENGINE.outcome(table.state).winners == (seed % 2,)


def test_greedy_plays_the_whole_farm_solo() -> None:
    """Solo, the greedy bot plants several crop types, tends them, scores well past what
    random play reaches, and ends with few goods unused."""
    planted: Counter[str] = Counter()
    tended = 0
    for seed in range(2):
        table = _play(1, seed, {0})
        final = table.state.final[0]
        assert final.total >= 25 and final.leftovers <= 20
        for record in table.commands:
            command = record.command
            assert isinstance(command, pb.Command)
            if command.HasField("plant_seed"):
                planted[command.plant_seed.seed] += 1
            tended += command.HasField("tend_crop")
    assert len(planted) >= 3 and tended > 0


def test_every_bot_the_table_offers_is_harvests_own() -> None:
    """The CLI, the services and the benchmarks take the engine's bots: greedy is Harvest's."""
    assert ENGINE.bots["greedy"] is HarvestGreedyBot
    assert isinstance(ENGINE.bots["greedy"](0), HarvestGreedyBot)
