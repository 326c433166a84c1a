"""Tend's bots: only legal commands, the same game for the same seed whatever was played
before, and the greedy one takes the move that is plainly better."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from google.protobuf.message import Message

from engines.core.contract import TableConfig
from engines.core.options import resolve_options
from engines.core.play import Table
from engines.tend.bots import GreedyBot, RandomBot, worth
from engines.tend.content import content
from engines.tend.engine import ENGINE
from proto import tend_pb2 as pb
from tests.engines.tend.given import (
    FISH_SLOT,
    cmd,
    crossed,
    gained,
    opening,
    position,
    shipped,
    step,
    unlocked,
)


def _opening_commands(seed: int, commands: int) -> list[Message]:
    """The first commands of a seeded two-seat game of a greedy and a random bot, each
    checked against the seat's legal commands."""
    config = TableConfig(f"bots-{seed}", 2, resolve_options(ENGINE.info.options, {}))
    table = Table.create(ENGINE, config, seed.to_bytes(8, "big"))
    players: list[GreedyBot | RandomBot] = [GreedyBot(seed), RandomBot(seed + 1)]
    order = random.Random(seed)
    played: list[Message] = []
    while len(played) < commands and not ENGINE.outcome(table.state).finished:
        seat = order.choice(ENGINE.outcome(table.state).to_act)
        command = players[seat].choose(ENGINE, table.state, seat)
        assert command in ENGINE.legal_commands(table.state, seat)
        table.execute(seat, command)
        played.append(command)
    return played


def test_bots_play_legal_commands_and_a_seed_plays_the_same_game_whatever_came_before() -> None:
    first = _opening_commands(3, 60)
    _opening_commands(4, 60)
    assert _opening_commands(3, 60) == first
    assert len(first) == 60


def test_the_greedy_bot_ships_a_good_where_it_completes_a_manifest_row() -> None:
    """Row 0 is full but for its first box: a stone there completes the row (its bonus
    task) and scores 1 in stall 1; anywhere else it only scores."""
    filler = ("egg", "heart")
    row = [e for col in range(1, 10) for e in shipped(0, filler[col % 2], [(0, col)])]
    at = position([*opening(), *row, gained(0, "stone")])
    completing = cmd(ship=pb.Ship(good="stone", cells=[0]))
    elsewhere = cmd(ship=pb.Ship(good="stone", cells=[content().manifest.grid.index((3, 1))]))
    legal = ENGINE.legal_commands(at.state, 0)
    assert completing in legal and elsewhere in legal
    completed = at.when(0, completing).accepted()
    assert any(e.HasField("row_completed") for e in completed.events)
    other = at.when(0, elsewhere).accepted()
    assert worth(completed.state, 0) > worth(other.state, 0)
    for seed in range(3):
        assert GreedyBot(seed).choose(ENGINE, at.state, 0) == completing


def _casts(*areas: str) -> Counter[str]:
    """Where random players of 60 seeds cast with these areas open beyond the pond."""
    history = [*opening(), *(unlocked(0, "area", a) for a in areas)]
    history += step(history, 0, cmd(choose_card=pb.ChooseCard(slot=FISH_SLOT)))
    fishing = position(history).state
    legal = ENGINE.legal_commands(fishing, 0)
    casts = [c for c in legal if c.WhichOneof("kind") == "cast"]
    assert sorted(c.cast.area for c in casts) == sorted(("pond", *areas))
    chosen: list[Any] = [RandomBot(seed).choose(ENGINE, fishing, 0) for seed in range(60)]
    assert all(c in legal for c in chosen)
    return Counter(c.cast.area for c in chosen if c.WhichOneof("kind") == "cast")


def test_the_random_bot_fishes_every_area_it_opened_and_mostly_beyond_the_pond() -> None:
    """With the river open, a random player's casts over many seeds go mostly to the
    river, some to the pond; with the river and the lake, mostly to the lake it dug its
    way to (opened late: the grotto's and the lake's squares went unfished when the
    river was as likely), the river and the pond still some."""
    river = _casts("river")
    assert river["river"] > river["pond"] > 0, river
    both = _casts("river", "lake")
    assert set(both) == {"pond", "river", "lake"}, both
    assert both["lake"] > both["river"] + both["pond"], both


def test_a_random_player_that_dug_to_the_grotto_picks_a_fishing_card_first() -> None:
    """The row offers each task once. Having opened the river, fishing is one of the
    tasks a random player is after; having dug to the grotto, the one it is after first:
    over 60 seeds it takes the fish card far more often."""

    def fish_cards(area: str) -> int:
        state = position([*opening(), unlocked(0, "area", area)]).state
        chosen = [RandomBot(seed).choose(ENGINE, state, 0) for seed in range(60)]
        assert all(c in ENGINE.legal_commands(state, 0) for c in chosen)
        return sum(c == cmd(choose_card=pb.ChooseCard(slot=FISH_SLOT)) for c in chosen)

    grotto, river = fish_cards("grotto"), fish_cards("river")
    assert grotto > 30 and grotto > river + 10, (grotto, river)


def test_a_random_player_mostly_finishes_a_row_it_started_with_what_it_holds() -> None:
    """A fish in hand: with the smokehouse one fish short, most of 60 random players
    put it there (the rest ship or sell it); with two goods still missing, none does
    (the seasoned explorer's fish comes first, and shipping and selling keep their
    share)."""

    def uses(smoked: list[int]) -> Counter[str]:
        state = position([*opening(), *crossed(0, "smokehouse", smoked), gained(0, "mamble")]).state
        chosen: list[Any] = [RandomBot(seed).choose(ENGINE, state, 0) for seed in range(60)]
        assert all(c in ENGINE.legal_commands(state, 0) for c in chosen)
        return Counter(
            c.spend.feature if c.HasField("spend") else c.WhichOneof("kind") or "" for c in chosen
        )

    one_short, two_short = uses([0, 1, 3]), uses([0, 1])
    assert one_short["smokehouse"] > 30, one_short
    assert two_short["smokehouse"] == 0 and two_short["seasoned_explorer"] > 0, two_short
