"""Freunde random playouts: every game ends, legal_commands and decide agree, replay and
re-execution are exact, and no seat sees another's secrets.

A seeded loop, not hypothesis: each game is one seed, so a failure names its seed.
``BW_PROPERTY_GAMES`` (default 1800) is the total number of games, spread evenly over
2, 3 and 4 players and over the test cases below so xdist can share them out.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from engines.core.canonical import digest, message_bytes
from engines.core.contract import TableConfig
from engines.core.errors import RuleViolation
from engines.core.messages import from_json, to_json
from engines.core.play import Table, fold, reexecute
from engines.core.rng import Rng
from engines.freunde.engine import ENGINE
from engines.freunde.state import FreundeState
from proto import freunde_pb2 as pb

TOTAL_GAMES = int(os.environ.get("BW_PROPERTY_GAMES", "1800"))
CHUNKS = 6
SEATS = (2, 3, 4)
GAMES_PER_CASE = max(1, TOTAL_GAMES // (CHUNKS * len(SEATS)))

_SECRET_BY_OWNER = {
    "objectives_dealt": "cards",
    "plots_drawn": "tiles",
    "objective_drawn": "card",
    "objective_returned": "card",
}
_DECKS = ("plot_stack", "plot_objectives", "gardener_objectives", "panda_objectives")


def _random_hex(r: random.Random) -> pb.Hex:
    return pb.Hex(q=r.randint(-4, 4), r=r.randint(-4, 4))


def random_command(r: random.Random) -> pb.Command:
    """Any command at all, most of them nonsense at this point of the game."""
    field = r.choice([f.name for f in pb.Command.DESCRIPTOR.oneofs_by_name["kind"].fields])
    command = pb.Command()
    body = getattr(command, field)
    body.SetInParent()
    for f in body.DESCRIPTOR.fields:
        if f.message_type is not None:
            if r.random() < 0.9:
                getattr(body, f.name).CopyFrom(_random_hex(r))
        elif f.enum_type is not None:
            setattr(body, f.name, r.randint(0, len(f.enum_type.values) + 1))
        else:
            setattr(body, f.name, r.randint(0, 50))
    return command


def mutate(command: pb.Command, r: random.Random) -> pb.Command:
    """A legal command with one hex nudged or one number changed."""
    out = pb.Command()
    out.CopyFrom(command)
    field = out.WhichOneof("kind")
    assert field is not None
    body = getattr(out, field)
    for f in body.DESCRIPTOR.fields:
        if f.message_type is not None and body.HasField(f.name):
            getattr(body, f.name).q += r.choice((-1, 1))
            return out
        if f.message_type is None:
            setattr(body, f.name, getattr(body, f.name) + r.randint(1, 3))
            return out
    return random_command(r)


def choose(r: random.Random, options: list[pb.Command], eager: bool) -> pb.Command:
    """Uniform, or (eager) claim whatever is complete first: both only pick legal commands."""
    if eager:
        claims = [c for c in options if c.WhichOneof("kind") == "claim_objective"]
        if claims:
            return claims[0]
    return r.choice(options)


def check_rejections(
    state: FreundeState, seat: int, legal: list[pb.Command], r: random.Random
) -> None:
    """Commands outside legal_commands are refused and change nothing; legal ones survive
    the HTTP JSON form unchanged (a hex at the pond stays named)."""
    before = digest(state)
    allowed = {message_bytes(c) for c in legal}
    candidates = [random_command(r) for _ in range(3)]
    if legal:
        candidates.append(mutate(r.choice(legal), r))
    for command in candidates:
        if message_bytes(command) in allowed:
            continue
        with pytest.raises(RuleViolation):
            ENGINE.decide(state, command, seat, Rng(b"x", "t", 0))
    if legal:
        other = (seat + 1) % state.seats
        assert ENGINE.legal_commands(state, other) == []
        with pytest.raises(RuleViolation) as refused:
            ENGINE.decide(state, legal[0], other, Rng(b"x", "t", 0))
        assert refused.value.code == "turn.not_your_turn"
    assert digest(state) == before
    for command in legal:
        assert from_json(pb.Command, to_json(command)) == command


def check_views(state: FreundeState) -> None:
    """Everything but "you" is the same for every seat; "you" holds only one's own secrets."""
    public = ENGINE.view(state, None)
    assert public["you"] is None
    for seat in range(state.seats):
        view = ENGINE.view(state, seat)
        mine = view.pop("you")
        assert view == {k: v for k, v in public.items() if k != "you"}
        assert [c["card"] for c in mine["hand"]] == list(state.hands[seat])
        drawn = [t["tile"] for t in mine["drawn_plots"]]
        assert drawn == (list(state.drawn_plots) if seat == state.turn else [])


def check_redaction(event: Any, seats: int) -> None:
    """Deck orders are hidden from all; cards and drawn plots from all but their owner."""
    kind = event.WhichOneof("kind")
    assert kind is not None
    for seat in (None, *range(seats)):
        seen = ENGINE.redact(event, seat)
        assert seen is not None and seen.WhichOneof("kind") == kind
        body, original = getattr(seen, kind), getattr(event, kind)
        if kind == "game_started":
            for deck in _DECKS:
                assert list(getattr(body, deck)) == [0] * len(getattr(original, deck))
        elif kind in _SECRET_BY_OWNER:
            name = _SECRET_BY_OWNER[kind]
            value: Any = getattr(body, name)
            if original.seat == seat:
                assert seen == event
            elif isinstance(value, int):
                assert value == 0
            else:
                assert list(value) == [0] * len(getattr(original, name))
        else:
            assert seen == event


def play_one(seats: int, game: int) -> None:
    r = random.Random(f"freunde-{seats}-{game}")
    eager = game % 3 != 0
    # Every fourth game keeps the default round limit; the others a random shorter one.
    options = {} if game % 4 == 0 else {"round_limit": r.randint(3, 40)}
    config = TableConfig(f"prop-{seats}-{game}", seats, options)
    table = Table.create(ENGINE, config, f"seed-{game}".encode())
    for event in table.events:
        check_redaction(event, seats)
    steps = 0
    while not (outcome := ENGINE.outcome(table.state)).finished:
        steps += 1
        assert steps < 20_000, "game did not end"
        seat = outcome.to_act[0]
        legal = ENGINE.legal_commands(table.state, seat)
        assert legal, f"seat {seat} has nothing to do in {table.state.phase}"
        if r.random() < 0.05:
            check_rejections(table.state, seat, legal, r)
        if r.random() < 0.02:
            check_views(table.state)
        for event in table.execute(seat, choose(r, legal, eager)):
            check_redaction(event, seats)
    check_views(table.state)
    assert ENGINE.legal_commands(table.state, 0) == []
    outcome = ENGINE.outcome(table.state)
    assert outcome.winners and set(outcome.winners) <= set(range(seats))
    assert digest(fold(ENGINE, table.events)) == table.digest()
    replayed = reexecute(ENGINE, config, table.seed, [(c.seat, c.command) for c in table.commands])
    assert replayed == [message_bytes(e) for e in table.events]


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("seats", SEATS)
def test_random_games_keep_every_invariant(seats: int, chunk: int) -> None:
    """Random games from legal commands end, replay and re-execute exactly, hide secrets."""
    for game in range(chunk * GAMES_PER_CASE, (chunk + 1) * GAMES_PER_CASE):
        play_one(seats, game)
