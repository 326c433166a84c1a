"""Random Harvest games: they end, legal_commands agrees with decide, replay and
re-execution are identical, and nobody sees another seat's dealt cards.

Two tiers, so thousands of games fit in a few minutes of CPU:

- every game (``BW_PROPERTY_GAMES`` per player count, default 250: 1,000 in all; every
  other solo game plays a Solo Challenge) ends,
  is played only with listed commands that ``decide`` accepts, folds back to the
  same state, keeps the dealt cards secret while seats choose, and has a JSON view;
- a subset (``BW_PROPERTY_DEEP_GAMES`` per player count, default 40: 160) also tries
  unlisted and mutated commands on every step (refused, nothing changes), checks every
  seat's view for another seat's unkept cards on every step (and every event sent to
  it at the end), and re-executes the whole game from its commands.

Games are split into ``CHUNKS`` parametrized cases per player count so ``-n 2`` spreads
them.
"""

from __future__ import annotations

import json
import os
import random

import pytest

from engines.core.canonical import digest
from engines.core.contract import TableConfig
from engines.core.errors import RuleViolation
from engines.core.play import Table, fold, reexecute
from engines.harvest.content import content
from engines.harvest.engine import ENGINE
from engines.harvest.rules import forest_blocks, supply_left
from engines.harvest.state import HarvestState
from proto import harvest_pb2 as pb

GAMES = int(os.environ.get("BW_PROPERTY_GAMES", "250"))
DEEP_GAMES = int(os.environ.get("BW_PROPERTY_DEEP_GAMES", "40"))
CHUNKS = 5
OPTIONS: tuple[dict[str, bool], ...] = ({}, {"draft": True}, {"first_game": True})
CHALLENGES = tuple(c.id for c in content().challenges)


def _key(command: pb.Command) -> bytes:
    return command.SerializeToString(deterministic=True)


def _mutated(command: pb.Command, rnd: random.Random) -> pb.Command:
    """A copy of ``command`` with one field changed to a likely-wrong value."""
    changed = pb.Command()
    changed.CopyFrom(command)
    kind = changed.WhichOneof("kind")
    if kind is None:
        return changed
    message = getattr(changed, kind)
    fields = message.DESCRIPTOR.fields
    if not fields:
        return changed
    field = rnd.choice(fields)
    if field.is_repeated:
        values = getattr(message, field.name)
        if len(values) > 1 and rnd.random() < 0.5:
            values.reverse()
        else:
            values.append(rnd.choice([-1, 0, 5, 35, 36, 1000]))
    elif field.type == field.TYPE_STRING:
        words = ["", "x", "wheat", "blueberry", "store_3", "mercantile", "seed", "field"]
        setattr(message, field.name, rnd.choice(words))
    elif field.type == field.TYPE_MESSAGE:
        getattr(message, field.name).coins = rnd.choice([-1, 0, 1, 5, 99])
        getattr(message, field.name).water = rnd.choice([0, 1, -2])
    else:
        setattr(message, field.name, rnd.choice([-1, 0, 1, 2, 7, 99, 2**31 - 1]))
    return changed


def _check_rejections(
    table: Table, seat: int, legal: list[pb.Command], pool: list[pb.Command], rnd: random.Random
) -> None:
    """Commands not listed are refused, and refusing changes nothing."""
    before = digest(table.state)
    allowed = {_key(c) for c in legal}
    tries = rnd.sample(pool, min(6, len(pool))) + [
        _mutated(rnd.choice(legal), rnd) for _ in range(3)
    ]
    for command in tries:
        if _key(command) in allowed:
            continue
        with pytest.raises(RuleViolation):
            ENGINE.decide(table.state, command, seat, table.rng())
    others = [s for s in range(table.config.seats) if s not in ENGINE.outcome(table.state).to_act]
    if others and legal:
        with pytest.raises(RuleViolation):
            ENGINE.decide(table.state, legal[0], others[0], table.rng())
    assert digest(table.state) == before


def _secrets(state: HarvestState, viewer: int | None, other: int) -> set[str]:
    """Names ``viewer`` must not see of seat ``other``: while seats choose, all of its
    dealt Characters and Farmhouses; afterwards, the ones it did not keep."""
    player = state.players[other]
    dealt = set(player.dealt_characters) | set(player.dealt_farmhouses)
    if state.phase != "choose_start":
        dealt -= {player.character, player.farmhouse}
    if viewer is not None:
        own = state.players[viewer]
        dealt -= set(own.dealt_characters) | set(own.dealt_farmhouses)
    return dealt


def _check_secrets(table: Table, events: bool) -> None:
    """A seat never sees another seat's unkept Characters and Farmhouses, nor what the
    others kept before everyone has chosen: not in its view, nor (``events``) in any
    event sent to it."""
    state = table.state
    for viewer in (None, *range(state.seats)):
        seen = json.dumps(ENGINE.view(state, viewer))
        redacted = [ENGINE.redact(e, viewer) for e in table.events] if events else []  # type: ignore[arg-type]
        for other in range(state.seats):
            if other == viewer:
                continue
            for name in _secrets(state, viewer, other):
                assert f'"{name}"' not in seen
                for event in redacted:
                    assert event is not None
                    assert name.encode() not in event.SerializeToString()


def _check_tracks_and_fields(state: HarvestState) -> None:
    """Limits the rulebook states: Water below the Bucket, Bucket at most 10, Fertilizer
    at most 9, nothing negative, no Supply overdrawn, and no two tiles on one field space."""
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


def _pick(legal: list[pb.Command], rnd: random.Random) -> pb.Command:
    """Mostly keep acting, so games reach deep into the rules before finishing."""
    acting = [c for c in legal if c.WhichOneof("kind") != "finish"]
    if acting and rnd.random() < 0.85:
        return rnd.choice(acting)
    return rnd.choice(legal)


def _play(seats: int, seed: int, deep: bool) -> Table:
    rnd = random.Random(seed)
    options: dict[str, object] = dict(OPTIONS[seed % len(OPTIONS)])
    if seats == 1 and seed % 2:
        options["challenge"] = CHALLENGES[seed // 2 % len(CHALLENGES)]
    table = Table.create(
        ENGINE, TableConfig(f"prop-{seats}-{seed}", seats, options), seed.to_bytes(8, "big")
    )
    pool: list[pb.Command] = [pb.Command(), pb.Command(finish=pb.Finish())]
    for _ in range(5000):
        outcome = ENGINE.outcome(table.state)
        if outcome.finished:
            break
        assert outcome.to_act, outcome.phase
        if deep or table.state.phase == "choose_start":
            _check_secrets(table, events=table.state.phase == "choose_start")
        _check_tracks_and_fields(table.state)
        seat = rnd.choice(outcome.to_act)
        legal = ENGINE.legal_commands(table.state, seat)
        assert legal, (outcome.phase, table.state.steps)
        if deep:
            json.dumps(outcome.as_dict())
            _check_rejections(table, seat, legal, pool, rnd)
            pool = pool[:2] + (pool[2:] + legal[:3])[-58:]
        table.execute(seat, _pick(legal, rnd))
    else:
        pytest.fail("game did not end")
    return table


def _chunk(total: int, chunk: int) -> range:
    """The games of one parametrized case: every CHUNKS-th game from ``chunk``."""
    return range(chunk, total, CHUNKS)


def _ends_and_folds(table: Table) -> None:
    outcome = ENGINE.outcome(table.state)
    assert outcome.finished and outcome.winners
    if table.state.challenge:
        result = outcome.breakdown["challenge"]
        assert result["met"] == all(goal["met"] for goal in result["goals"])
    assert len(outcome.scores) == table.config.seats
    assert digest(fold(ENGINE, table.events)) == table.digest()
    assert ENGINE.legal_commands(table.state, 0) == []
    json.dumps(ENGINE.view(table.state, 0))


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("seats", [1, 2, 3, 4])
def test_random_games_end_and_fold_back(seats: int, chunk: int) -> None:
    """Every game ends with a winner, and folding its events gives the same state."""
    for game in _chunk(GAMES, chunk):
        table = _play(seats, 1000 * seats + game, deep=False)
        _ends_and_folds(table)


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("seats", [1, 2, 3, 4])
def test_deep_random_games_refuse_what_is_unlisted_and_reexecute(seats: int, chunk: int) -> None:
    """On every step unlisted and mutated commands are refused without change; every
    seat's view renders; re-executing the commands reproduces the events exactly."""
    for game in _chunk(DEEP_GAMES, chunk):
        table = _play(seats, 500_000 + 1000 * seats + game, deep=True)
        _ends_and_folds(table)
        _check_secrets(table, events=True)
        commands = [(r.seat, r.command) for r in table.commands]
        again = reexecute(ENGINE, table.config, table.seed, commands)
        assert again == [e.SerializeToString(deterministic=True) for e in table.events]
