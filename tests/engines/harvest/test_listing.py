"""Listing's memories are derived data: what they give back is what the rules accept."""

from __future__ import annotations

import itertools

from google.protobuf.message import Message

from engines.core.contract import TableConfig
from engines.core.play import Table
from engines.harvest import legal
from engines.harvest.engine import ENGINE
from engines.harvest.rules import priced_spaces, space_cost, spaces_in_play
from engines.harvest.trading import trade_refusal

from .helpers import resolving, started, with_player


def test_open_trades_are_those_the_trading_post_accepts_whatever_was_listed_before() -> None:
    """Trading Post: the trades listed (remembered by what the player holds, capped at
    what a trade asks) are exactly the trades ``trade_refusal`` accepts, for players
    whose holdings share a memory entry and for those that do not."""
    base = resolving(started(), 0, ("trade", 1))
    holdings = itertools.product((0, 1, 2, 5), (0, 2, 3, 4), ((0, 0, 0, 0), (3, 0, 1, 0)))
    for water, fertilizer, seeds in holdings:
        state = with_player(base, 0, water=water, fertilizer=fertilizer, seeds=seeds)
        player = state.players[0]
        expected = [t for t in legal._trade_offers() if trade_refusal(player, t) is None]
        assert list(legal.trades(state, 0)) == expected


def test_priced_spaces_are_the_spaces_in_play_with_their_costs() -> None:
    """Action spaces: the remembered costs are ``space_cost`` of each space in play,
    every round and with every market tile a game shows."""
    bot = ENGINE.bots["random"](4)
    table = Table.create(ENGINE, TableConfig("priced", 4), (4).to_bytes(8, "big"))
    seen = set()

    def choose(t: Table, seat: int) -> Message:
        state = t.state
        seen.add((state.round, state.market_large, state.market_small))
        expected = tuple((s, space_cost(state, s)) for s in spaces_in_play(state))
        assert priced_spaces(state) == expected
        return bot.choose(ENGINE, state, seat)

    table.play(choose)
    assert len(seen) >= 4
