"""The game registry names the four games and refuses anything else."""

from __future__ import annotations

import pytest

import engines


def test_unknown_games_are_refused() -> None:
    """A name outside the four games is an UnknownGame, not an import error."""
    with pytest.raises(engines.UnknownGame):
        engines.get("chess")


def test_available_games_load_and_describe_themselves() -> None:
    """Every available engine returns itself by name and declares its seat range."""
    for game in engines.available():
        engine = engines.get(game)
        assert engine.info.game == game
        assert 1 <= engine.info.min_seats <= engine.info.max_seats
