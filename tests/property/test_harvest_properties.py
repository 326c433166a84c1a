"""Random Harvest games through the kit's conformance check, plus Harvest's own limits.

``engines.core.testing.conformance`` plays seeded random games at each player count and
checks what every engine must hold (they end; listed commands are accepted and others
refused without change; replay and re-execution; views and redaction; no seat's view or
legal commands change when what it may not see is shuffled). Harvest adds:

- the rulebook's limits after every command (Water below the Bucket, Bucket 10,
  Fertilizer 9, nothing negative, the Supply never overdrawn, one tile per field space);
- no command listed twice;
- a solo challenge's result agrees with its goals.

Options rotate plain / draft / first game; every other solo game plays a Solo Challenge.
Default budget: ``GAMES`` = 60 games per player count, split into ``CHUNKS`` cases so
``-n 2`` spreads them; every ``DEEP_EVERY``-th game of a case (its first, by default) is
deep: every listed command decided, unlisted and mutated ones refused, every view and
event checked for every seat (a deep 4-player game costs about seventy light ones).
About 25 s of CPU in all. ``BW_PROPERTY_SCALE=20 make test`` plays twenty times as many
(1,200 games a player count, 40 of them deep).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from google.protobuf.message import Message

from engines.core.testing import budget, conformance
from engines.harvest.content import content
from engines.harvest.engine import ENGINE
from engines.harvest.rules import forest_blocks, supply_left
from engines.harvest.state import HarvestState

GAMES = budget(60)
DEEP_EVERY = 30
CHUNKS = 2
OPTIONS: tuple[dict[str, Any], ...] = ({}, {"draft": True}, {"first_game": True})
SOLO_OPTIONS = tuple(
    option
    for pair in zip(
        OPTIONS * len(content().challenges),
        ({"challenge": c.id} for c in content().challenges),
        strict=False,
    )
    for option in pair
)


def check_limits(state: HarvestState) -> None:
    """Limits the rulebook states: Water below the Bucket, Bucket at most 10, Fertilizer
    at most 9, nothing negative, no Supply overdrawn, and no two tiles on one field space;
    a finished challenge's result agrees with its goals."""
    c = content()
    for player in state.players:
        assert 0 <= player.water < player.bucket <= c.max_bucket
        assert 0 <= player.fertilizer <= c.max_fertilizer
        assert player.coins >= 0 and player.points >= 0 and min(player.seeds) >= 0
        tiles = [forest_blocks((f,)) for f in player.forests]
        tiles += [b.cells for b in player.buildings] + [x.cells for x in player.crops]
        covered = [cell for tile in tiles for cell in tile]
        assert len(covered) == len(set(covered)) and set(covered) <= c.grid.cells
    for piece in ("wheat", "strawberry", "bush", "berry", "pumpkin"):
        assert supply_left(state, piece) >= 0
    if state.phase == "finished" and state.challenge:
        result = ENGINE.outcome(state).breakdown["challenge"]
        assert result["met"] == all(goal["met"] for goal in result["goals"])


def reshuffle(state: HarvestState, viewer: int, rnd: random.Random) -> HarvestState:
    """``state`` with what ``viewer`` may not see dealt again at random: another seat's
    unkept Characters and Farmhouses, and while seats choose, all it was dealt and kept."""
    if state.first_game or state.draft:
        return state
    c = content()
    mine = state.players[viewer]
    characters = [x for x in c.characters if x not in mine.dealt_characters]
    farmhouses = [f for f, _ in c.farmhouses if f not in mine.dealt_farmhouses]
    players = list(state.players)
    for seat, player in enumerate(players):
        if seat == viewer or not player.dealt_characters:
            continue
        if state.phase == "choose_start":
            dealt_c = tuple(rnd.sample(characters, len(player.dealt_characters)))
            dealt_f = tuple(rnd.sample(farmhouses, len(player.dealt_farmhouses)))
            kept_c = rnd.choice(dealt_c) if player.character else ""
            kept_f = rnd.choice(dealt_f) if player.farmhouse else ""
        else:
            kept_c, kept_f = player.character, player.farmhouse
            dealt_c = (kept_c, rnd.choice([x for x in characters if x != kept_c]))
            dealt_f = (kept_f, rnd.choice([f for f in farmhouses if f != kept_f]))
        players[seat] = replace(
            player,
            dealt_characters=dealt_c,
            dealt_farmhouses=dealt_f,
            character=kept_c,
            farmhouse=kept_f,
        )
    return replace(state, players=tuple(players))


def keep_acting(legal: list[Message], rnd: random.Random, state: Any) -> Message:
    """Mostly keep acting rather than finish, so games reach deep into the rules; each
    command is listed once."""
    keys = [c.SerializeToString(deterministic=True) for c in legal]
    assert len(set(keys)) == len(keys), "a command is listed twice"
    acting = [c for c in legal if c.WhichOneof("kind") != "finish"]
    if acting and rnd.random() < 0.85:
        return rnd.choice(acting)
    return rnd.choice(legal)


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("seats", [1, 2, 3, 4])
def test_random_games_conform(seats: int, chunk: int) -> None:
    """Every game conforms to the engine contract and keeps the rulebook's limits."""
    seeds = range(1000 * seats + chunk, 1000 * seats + GAMES, CHUNKS)
    report = conformance(
        ENGINE,
        seats,
        seeds=seeds,
        options=SOLO_OPTIONS if seats == 1 else OPTIONS,
        deep_every=DEEP_EVERY,
        reshuffle=reshuffle,
        invariants=check_limits,
        pick=keep_acting,
    )
    assert report.games == len(seeds) and report.deep_games >= 1
