"""Turn clocks: each seat's time, as the times the service wrote into the log set it.

Rules never read the clock. A clock is arithmetic over the append times of the log
(``StoredEvent.time_ms``, written by the engine service) and who was to act around each
event, so two readers of one log always compute the same deadlines, and an audit can
check every timeout against them.

A seat's *turn* starts when it becomes one of the seats to act, and again at each of its
own commands while it stays to act (a seat in a simultaneous phase, or one whose turn is
several commands, has the limit for each command). The turn limit counts from there; the
total is the sum of the time a seat spent between the start of each turn and its end (its
command, or the moment it stopped being to act).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from proto import common_pb2

__all__ = ["NOT_TO_ACT", "ON_TIMEOUT", "ClockRules", "Clocks", "deadline", "start", "tick"]

# ``Clocks.since`` of a seat that is not to act.
NOT_TO_ACT = -1
# What a table may do when a seat's time runs out.
ON_TIMEOUT = ("bot", "forfeit")


@dataclass(frozen=True, slots=True)
class ClockRules:
    """A table's clock in milliseconds (0: no such limit)."""

    turn_ms: int
    total_ms: int
    on_timeout: str

    @classmethod
    def of(cls, clock: common_pb2.TurnClock) -> ClockRules | None:
        """The rules of a ``TurnClock``; ``None`` when it sets no limit."""
        if not clock.turn_seconds and not clock.total_seconds:
            return None
        return cls(clock.turn_seconds * 1000, clock.total_seconds * 1000, clock.on_timeout)


@dataclass(frozen=True, slots=True)
class Clocks:
    """Per seat, in seat order: when its current turn began (``NOT_TO_ACT``: it is not to
    act), and the milliseconds it spent in its turns before that one."""

    since: tuple[int, ...]
    spent: tuple[int, ...]


def start(seats: int) -> Clocks:
    """Nobody's clock runs before the first event."""
    return Clocks(since=(NOT_TO_ACT,) * seats, spent=(0,) * seats)


def tick(
    clocks: Clocks, at_ms: int, actor: int, before: Collection[int], after: Collection[int]
) -> Clocks:
    """The clocks after an event appended at ``at_ms`` by ``actor`` (-1: the service),
    with ``before`` the seats to act before it and ``after`` those to act after it."""
    since = list(clocks.since)
    spent = list(clocks.spent)
    for seat in range(len(since)):
        was, now = seat in before, seat in after
        if was and since[seat] != NOT_TO_ACT and (seat == actor or not now):
            spent[seat] += max(0, at_ms - since[seat])
        if now and (not was or seat == actor or since[seat] == NOT_TO_ACT):
            since[seat] = at_ms
        elif not now:
            since[seat] = NOT_TO_ACT
    return Clocks(tuple(since), tuple(spent))


def deadline(rules: ClockRules, clocks: Clocks, seat: int) -> int | None:
    """When ``seat``'s time runs out (milliseconds since the epoch); ``None`` when it is
    not to act. The earlier of its turn limit and what is left of its total."""
    since = clocks.since[seat]
    if since == NOT_TO_ACT:
        return None
    limits = []
    if rules.turn_ms:
        limits.append(since + rules.turn_ms)
    if rules.total_ms:
        limits.append(since + max(0, rules.total_ms - clocks.spent[seat]))
    return min(limits) if limits else None
