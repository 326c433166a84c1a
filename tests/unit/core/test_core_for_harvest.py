"""``draw_random``: drawing from an unordered pool of face-down pieces."""

from __future__ import annotations

import pytest

from engines.core.deck import draw_random
from engines.core.rng import Rng


def test_a_single_draw_is_a_choice_from_the_sorted_pool() -> None:
    """One piece costs exactly one ``choice`` over the sorted pool, so logs replay alike."""
    pool = {"c", "a", "d", "b"}
    for version in range(20):
        expected = Rng(b"s", "t", version).choice(sorted(pool))
        assert draw_random(pool, 1, Rng(b"s", "t", version)) == (expected,)


def test_the_draw_depends_only_on_what_is_in_the_pool() -> None:
    """The same pieces in any order (a set, a list) give the same draw."""
    one = draw_random(["e", "b", "a", "d", "c"], 3, Rng(b"s", "t", 1))
    two = draw_random({"a", "b", "c", "d", "e"}, 3, Rng(b"s", "t", 1))
    assert one == two


def test_each_pick_is_one_draw_over_what_is_left() -> None:
    """Pieces are picked one by one without putting any back."""
    rng = Rng(b"s", "t", 2)
    left = [1, 2, 3, 4, 5]
    expected = [left.pop(rng.below(len(left))) for _ in range(3)]
    drawn = draw_random([5, 4, 3, 2, 1], 3, Rng(b"s", "t", 2))
    assert drawn == tuple(expected)
    assert len(set(drawn)) == 3


def test_drawing_more_than_the_pool_holds_gives_every_piece() -> None:
    """A short pool gives what it has; an empty one gives nothing and draws no chance."""
    assert sorted(draw_random((3, 1, 2), 5, Rng(b"s", "t", 3))) == [1, 2, 3]
    rng = Rng(b"s", "t", 4)
    assert draw_random((), 2, rng) == ()
    assert rng.u64() == Rng(b"s", "t", 4).u64()


def test_a_negative_draw_is_refused() -> None:
    with pytest.raises(ValueError):
        draw_random((1, 2), -1, Rng(b"s", "t", 5))
