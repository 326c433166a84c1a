"""Every game says every legal command and every event in words (the contract's
``describe_command`` and ``describe_event``), so a client can build menus from them:
each move has a menu and a sentence, no menu holds more than 25, and a viewer's line for
an event never names what that viewer may not see."""

from __future__ import annotations

import random

import pytest

import engines
from engines.core.contract import TableConfig
from engines.core.game import MENU_SIZE, menus
from engines.core.play import Table
from engines.core.testing import budget

GAMES = engines.available()


@pytest.mark.parametrize("game", GAMES)
def test_every_move_and_event_is_said_in_words(game: str) -> None:
    engine = engines.get(game)
    for number in range(budget(2)):
        seats = engine.info.min_seats + number % (engine.info.max_seats - engine.info.min_seats + 1)
        choose = random.Random(number)
        table = Table.create(
            engine, TableConfig(f"words-{number}", seats), seed=b"words-seed-%04d-0123" % number
        )
        for _ in range(3000):
            outcome = engine.outcome(table.state)
            if outcome.finished:
                break
            seat = outcome.to_act[0]
            legal = engine.legal_commands(table.state, seat)
            words = [engine.describe_command(table.state, command, seat) for command in legal]
            assert all(word.group.strip() and word.text.strip() for word in words)
            grouped = menus(words)
            assert sorted(i for _, members in grouped for i in members) == list(range(len(legal)))
            assert all(len(members) <= MENU_SIZE for _, members in grouped)
            table.execute(seat, choose.choice(legal))
        assert engine.outcome(table.state).finished
        for event in table.events:
            for viewer in (None, *range(seats)):
                seen = engine.redact(event, viewer)
                if seen is not None:
                    assert engine.describe_event(seen, viewer).strip()


def test_harvest_never_names_a_start_kept_in_secret() -> None:
    """Before the reveal, another seat's kept Character is not in the line others read."""
    engine = engines.get("harvest")
    table = Table.create(engine, TableConfig("secret-start", 2), seed=b"secret-start-0123456")
    seat = engine.outcome(table.state).to_act[0]
    table.execute(seat, engine.legal_commands(table.state, seat)[0])
    kept = next(e for e in reversed(table.events) if e.WhichOneof("kind") == "start_kept")
    character = getattr(kept, "start_kept").character  # noqa: B009 (a message of any game)
    assert character
    own = engine.describe_event(engine.redact(kept, seat), seat)
    assert character in own.lower()
    for viewer in (None, 1 - seat):
        line = engine.describe_event(engine.redact(kept, viewer), viewer)
        assert "has chosen a start" in line
        assert character.lower() not in line.lower()
