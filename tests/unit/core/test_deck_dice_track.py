"""Decks, dice and tracks: the shared mechanics behave as at the table."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.core.deck import bury, draw, draw_with_reshuffle, shuffled
from engines.core.dice import Die, roll_many
from engines.core.rng import Rng
from engines.core.track import Track


def test_draw_takes_from_the_top_and_stops_when_empty() -> None:
    """Drawing 2 of 3 leaves 1; drawing past the end gives what is left."""
    drawn, rest = draw(("a", "b", "c"), 2)
    assert (drawn, rest) == (("a", "b"), ("c",))
    assert draw(rest, 5) == (("c",), ())


def test_bury_puts_cards_underneath_in_order() -> None:
    """Buried cards come back last."""
    assert bury(("a",), ("x", "y")) == ("a", "x", "y")


def test_shuffled_is_a_seeded_permutation() -> None:
    """The same stream shuffles the same way."""
    cards = tuple(range(20))
    one = shuffled(cards, Rng(b"s", "t", 1))
    assert sorted(one) == list(cards)
    assert one == shuffled(cards, Rng(b"s", "t", 1))
    assert one != cards


def test_draw_with_reshuffle_shuffles_the_discard_only_when_needed() -> None:
    """An empty deck takes in its discard pile, shuffled, and the draw goes on."""
    drawn, deck, discard = draw_with_reshuffle(("a",), ("x", "y", "z"), 1, Rng(b"s", "t", 0))
    assert (drawn, deck, discard) == (("a",), (), ("x", "y", "z"))
    drawn, deck, discard = draw_with_reshuffle(("a",), ("x", "y", "z"), 3, Rng(b"s", "t", 0))
    assert drawn[0] == "a"
    assert sorted(drawn[1:] + deck) == ["x", "y", "z"]
    assert len(deck) == 1
    assert discard == ()


def test_a_die_rolls_only_its_faces_weighted_by_repeats() -> None:
    """A face printed twice comes up about twice as often."""
    die = Die(("sun", "rain", "rain"))
    rolls = Counter(roll_many(die, 3000, Rng(b"d", "t", 0)))
    assert set(rolls) == {"sun", "rain"}
    assert 1.6 < rolls["rain"] / rolls["sun"] < 2.5
    assert set(roll_many(Die.numbered(6), 200, Rng(b"d", "t", 1))) == {1, 2, 3, 4, 5, 6}


def test_track_clamps_and_refuses_to_leave_its_range() -> None:
    """A bamboo of 3 grown by 2 stops at 4; advancing off the track is an error."""
    height = Track(0, 4)
    assert height.clamp(3 + 2) == 4
    assert height.room(1) == 3
    assert height.advance(1, 2) == 3
    with pytest.raises(ValueError):
        height.advance(3, 2)
