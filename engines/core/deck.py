"""Decks as immutable tuples: the top of a deck is index 0.

Drawing, burying and reshuffling return new tuples, so deck order lives in state
(and, being secret, is only ever shown through ``view`` as a count).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, TypeVar

from engines.core.rng import Rng

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

__all__ = ["bury", "draw", "draw_random", "draw_with_reshuffle", "shuffled"]

T = TypeVar("T")
K = TypeVar("K", bound="SupportsRichComparison")


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


def draw_random(pool: Iterable[K], n: int, rng: Rng) -> tuple[K, ...]:
    """Up to ``n`` different pieces picked at random, one by one, from an unordered pool.

    For face-down stacks whose order is never stored: the pool is sorted first, so a
    draw depends only on what is in it, and each pick is one ``rng.below`` over what
    is left (a single pick is exactly ``rng.choice`` of the sorted pool).
    """
    if n < 0:
        raise ValueError("cannot draw a negative number of pieces")
    left = sorted(pool)
    return tuple(left.pop(rng.below(len(left))) for _ in range(min(n, len(left))))
