"""Growth Phase: every crop and animal die ticks up once; white symbols are harvested.

A die that ticks onto its symbol in white is harvested at once: its goods are gained,
then a return mark sends the die back to the supply and a reset mark turns it back to
1. Watering ticks crops the same way during the task phase (never animals).
"""

from __future__ import annotations

from collections.abc import Iterable

from engines.tend.content import content
from engines.tend.events import gained, wrap
from engines.tend.state import Die, TendState
from proto import tend_pb2 as pb

__all__ = ["grow", "harvest_of", "tick"]


def tick(die: Die) -> pb.DieTicked:
    """The die ticked up one: its new value, what it harvests, and what happens to it."""
    value = die.value + 1
    face = content().dice[die.die].face(value)
    return pb.DieTicked(
        cell=die.cell, die=die.die, value=value, harvest=face.harvest, then=face.then
    )


def harvest_of(ticked: Iterable[pb.DieTicked]) -> list[str]:
    return [good for t in ticked for good in t.harvest]


def grow(state: TendState, seat: int) -> list[pb.Event]:
    """The seat's growth phase (nothing at all when its farm has no dice)."""
    dice = state.players[seat].dice
    if not dice:
        return []
    ticked = [tick(d) for d in dice]
    events = [wrap(dice_grew=pb.DiceGrew(seat=seat, dice=ticked))]
    harvest = harvest_of(ticked)
    if harvest:
        events.append(gained(seat, harvest, "growth"))
    return events
