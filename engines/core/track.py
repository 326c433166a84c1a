"""Tracks and counters with limits (bucket size, bamboo height, score tracks)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Track"]


@dataclass(frozen=True, slots=True)
class Track:
    """A value that lives within ``[low, high]``."""

    low: int
    high: int

    def clamp(self, value: int) -> int:
        """The value, held to the track's ends (growth past the top is lost)."""
        return max(self.low, min(self.high, value))

    def fits(self, value: int) -> bool:
        return self.low <= value <= self.high

    def room(self, value: int) -> int:
        """How far ``value`` may still rise."""
        return self.high - value

    def advance(self, value: int, delta: int) -> int:
        """``value + delta``; raises ``ValueError`` when it would leave the track."""
        moved = value + delta
        if not self.fits(moved):
            raise ValueError(f"{moved} is off the track [{self.low}, {self.high}]")
        return moved
