"""Moves and events in words: what a player reads in a menu or a log, never a secret."""

from __future__ import annotations

from engines.core.game import menus
from engines.core.testing import given
from engines.freunde.engine import ENGINE
from tests.engines.freunde.positions import (
    GREEN,
    GREEN_STRAIGHT,
    GREEN_TRIANGLE,
    YELLOW,
    YELLOW_FERTILIZER,
    claim,
    garden,
    grow_with_rain,
    move_gardener,
    objective_drawn,
    plots_drawn,
    started,
    turn,
)

PLOTS = {(1, 0): GREEN[0], (1, -1): YELLOW[0], (2, -1): GREEN[1]}


def test_moves_name_what_the_player_sees() -> None:
    """A move reads as the table shows it, in the menu of its action or weather."""
    position = given(ENGINE, started(), garden(PLOTS), turn(0, weather="rain"))
    rain = ENGINE.describe_command(position.state, grow_with_rain((1, -1)), 0)
    assert (rain.group, rain.text) == (
        "Weather",
        "Let the rain grow bamboo on the yellow plot at (1, -1)",
    )
    actions = given(ENGINE, started(), garden(PLOTS), turn(0))
    moved = ENGINE.describe_command(actions.state, move_gardener((1, 0)), 0)
    assert (moved.group, moved.text) == (
        "Gardener",
        "Move the gardener to the green plot at (1, 0)",
    )
    pond = ENGINE.describe_command(actions.state, move_gardener((0, 0)), 0)
    assert pond.text == "Move the gardener to the pond"


def test_a_completed_card_is_named_to_its_owner() -> None:
    """Claiming names the card and its points (it is the claimer's own)."""
    laid = garden(PLOTS, chips={(2, -1): "watershed"})
    position = given(ENGINE, started(hands={0: [GREEN_TRIANGLE]}), laid, turn(0))
    words = ENGINE.describe_command(position.state, claim(GREEN_TRIANGLE), 0)
    assert words.text == "Complete Green Triangle (2 points)"


def test_every_listed_move_fits_a_menu_of_at_most_25() -> None:
    """Every legal command has words, and the menus hold at most 25 options each."""
    position = given(
        ENGINE, started(), garden(PLOTS), turn(0), plots_drawn(0, [3, 4, YELLOW_FERTILIZER])
    )
    legal = ENGINE.legal_commands(position.state, 0)
    words = [ENGINE.describe_command(position.state, c, 0) for c in legal]
    assert all(w.group and w.text for w in words)
    assert "Place the yellow fertilizer plot at (0, 1)" in [w.text for w in words]
    grouped = menus(words)
    assert sorted(i for _, members in grouped for i in members) == list(range(len(legal)))
    assert all(len(members) <= 25 for _, members in grouped)


def test_a_hidden_card_is_never_named_in_a_log() -> None:
    """An objective drawn is named to its drawer only; others read its kind."""
    drawn = objective_drawn(0, GREEN_STRAIGHT)
    mine = ENGINE.describe_event(ENGINE.redact(drawn, 0), 0)
    theirs = ENGINE.describe_event(ENGINE.redact(drawn, 1), 1)
    assert mine == "Seat 0 draws a plot objective: Green Straight"
    assert theirs == "Seat 0 draws a plot objective"
    plots = plots_drawn(0, [YELLOW_FERTILIZER, 3])
    assert "yellow fertilizer" in ENGINE.describe_event(ENGINE.redact(plots, 0), 0)
    assert ENGINE.describe_event(ENGINE.redact(plots, None), None) == "Seat 0 draws 2 plots"
