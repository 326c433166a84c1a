"""Snapshots are data: every state of random games of every engine goes to its snapshot
and back unchanged (same type, equal, byte-identical canonical form)."""

from __future__ import annotations

import os
from typing import Any

import pytest

import engines
from engines.core.bots import RandomBot
from engines.core.canonical import canonical_bytes
from engines.core.clock import Clocks
from engines.core.contract import TableConfig
from engines.core.control import Control, End
from engines.core.play import Table
from services.engine.tables import (
    SnapshotUnusable,
    decode_control,
    decode_snapshot,
    encode_snapshot,
    rules_fingerprint,
)
from tests.kit_example.goofspiel import engine as goofspiel

GAMES = int(os.environ.get("BW_PROPERTY_GAMES", "0")) or 6
CONFIGS: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "freunde": [(2, {"round_limit": 6}), (3, {"round_limit": 6}), (4, {"round_limit": 6})],
    "harvest": [(1, {}), (2, {"draft": True}), (3, {"first_game": True}), (4, {})],
    "bardwood": [(2, {"short_game": True}), (3, {"loudstones": True, "unlocked": True})],
}
# A Bardwood game has about a thousand states: a third of the games covers as many.
SHARE = {"bardwood": 3}


@pytest.mark.parametrize("game", ["freunde", "harvest", "bardwood"])
def test_every_state_of_random_games_survives_its_snapshot(game: str) -> None:
    engine = engines.get(game)
    rules = rules_fingerprint(engine)
    state_type = type(engine.initial_state())
    checked = 0
    games = max(1, GAMES // SHARE.get(game, 1))
    for n in range(games):
        seats, options = CONFIGS[game][n % len(CONFIGS[game])]
        table = Table.create(engine, TableConfig(f"snap-{n}", seats, options), b"snap-%d" % n)
        bot = RandomBot(n)
        states = [table.state]
        while not engine.outcome(table.state).finished:
            seat = engine.outcome(table.state).to_act[0]
            table.execute(seat, bot.choose(engine, table.state, seat))
            states.append(table.state)
        for state in states:
            again = decode_snapshot(rules, state_type, encode_snapshot(rules, state))
            assert type(again) is type(state) and again == state
            assert canonical_bytes(again) == canonical_bytes(state)
            checked += 1
    assert checked > games * 10


def test_a_snapshot_of_another_game_or_other_rules_is_unusable() -> None:
    """The decoder refuses a Harvest state read as Freunde's, and other rules' snapshots."""
    freunde, harvest = engines.get("freunde"), engines.get("harvest")
    rules = rules_fingerprint(freunde)
    assert rules != rules_fingerprint(harvest)
    assert rules != rules_fingerprint(goofspiel.ENGINE), "two games on the kit share no rules"
    table = Table.create(harvest, TableConfig("snap-other", 2, {}), b"seed")
    blob = encode_snapshot(rules, table.state)
    with pytest.raises(SnapshotUnusable):
        decode_snapshot(rules, type(freunde.initial_state()), blob)
    with pytest.raises(SnapshotUnusable):
        decode_snapshot(rules_fingerprint(harvest), type(harvest.initial_state()), blob)


def test_the_table_control_comes_back_whatever_bytes_the_fingerprint_holds() -> None:
    """The control follows the state after a newline; a fingerprint holding newlines (it
    is a SHA-256 digest) does not split the snapshot in the wrong place."""
    freunde = engines.get("freunde")
    table = Table.create(freunde, TableConfig("snap-control", 3, {"round_limit": 6}), b"seed")
    control = Control(
        clocks=Clocks(since=(5, -1, 7), spent=(1, 2, 3)), left=(1,), end=End("abandoned", 1)
    )
    rules = b"\n" * 32
    blob = encode_snapshot(rules, table.state, control)
    assert decode_snapshot(rules, type(table.state), blob) == table.state
    assert decode_control(rules, blob) == control
    with pytest.raises(SnapshotUnusable):
        decode_control(rules, encode_snapshot(rules, table.state))
