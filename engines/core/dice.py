"""Dice with arbitrary faces: a roll is a uniform draw from the faces."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from engines.core.rng import Rng

__all__ = ["Die", "roll_many"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Die(Generic[T]):
    """A die; faces may repeat (a face printed twice is twice as likely)."""

    faces: tuple[T, ...]

    def roll(self, rng: Rng) -> T:
        if not self.faces:
            raise ValueError("a die needs at least one face")
        return rng.choice(self.faces)

    @classmethod
    def numbered(cls, sides: int) -> Die[int]:
        """A standard die showing 1..sides."""
        return Die(tuple(range(1, sides + 1)))


def roll_many(die: Die[T], count: int, rng: Rng) -> tuple[T, ...]:
    """``count`` independent rolls of one die, in order."""
    return tuple(die.roll(rng) for _ in range(count))
