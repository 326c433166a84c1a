"""Decks as immutable tuples: the top of a deck is index 0.

Drawing, burying and reshuffling return new tuples, so deck order lives in state
(and, being secret, is only ever shown through ``view`` as a count).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from engines.core.rng import Rng

__all__ = ["bury", "draw", "draw_with_reshuffle", "shuffled"]

T = TypeVar("T")


def shuffled(cards: Sequence[T], rng: Rng) -> tuple[T, ...]:
    """A freshly shuffled deck."""
    return rng.shuffle(cards)


def draw(deck: Sequence[T], n: int = 1) -> tuple[tuple[T, ...], tuple[T, ...]]:
    """``(drawn, rest)``: up to ``n`` cards from the top; fewer when the deck runs out."""
    if n < 0:
        raise ValueError("cannot draw a negative number of cards")
    return tuple(deck[:n]), tuple(deck[n:])


def bury(deck: Sequence[T], cards: Sequence[T]) -> tuple[T, ...]:
    """The deck with ``cards`` put underneath, in the order given."""
    return (*deck, *cards)


def draw_with_reshuffle(
    deck: Sequence[T], discard: Sequence[T], n: int, rng: Rng
) -> tuple[tuple[T, ...], tuple[T, ...], tuple[T, ...]]:
    """``(drawn, deck, discard)``: when the deck runs dry, the discard is shuffled in.

    Only shuffles when needed, so callers record a reshuffle only when one happened
    (compare the returned discard with the one given).
    """
    drawn, rest = draw(deck, n)
    discard = tuple(discard)
    if len(drawn) < n and discard:
        rest = shuffled(discard, rng)
        discard = ()
        more, rest = draw(rest, n - len(drawn))
        drawn = (*drawn, *more)
    return drawn, rest, discard
