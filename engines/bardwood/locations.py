"""Activating Locations: next to your Bard, once a turn; Rangestones for reach.

"You can activate each adjacent Location once while Singing." A Bard stands on a space
and is next to every Location that space touches. Rangestones (Bardstones › Rangestone)
reach one space further for one, anywhere for two, for Challenge, Soothe and Assist
only (see RULES.md); the fewest that reach are spent.
"""

from __future__ import annotations

from engines.bardwood import codes
from engines.bardwood.batch import Batch
from engines.bardwood.content import Location, content
from engines.bardwood.state import BardwoodState

__all__ = [
    "activate",
    "bards_apart",
    "location_of",
    "next_to",
    "open_to",
    "reach",
    "spend_range",
    "usable",
]


def location_of(location_id: str, kind: str) -> Location:
    """The Location ``location_id`` of ``kind``, or ``location.unknown``."""
    try:
        location = content().location(location_id)
    except KeyError:
        raise codes.LOCATION_UNKNOWN(location=location_id[:40]) from None
    if location.kind != kind:
        raise codes.LOCATION_UNKNOWN(location=location_id[:40])
    return location


def next_to(state: BardwoodState, seat: int) -> tuple[str, ...]:
    """The Locations next to ``seat``'s Bard."""
    space = state.player(seat).space
    return content().space(space).touches if space else ()


def _distance_to(state: BardwoodState, seat: int, location: str) -> int:
    """0 next to it, 1 from a neighbouring space, 2 farther."""
    space = state.player(seat).space
    c = content()
    if location in c.space(space).touches:
        return 0
    if any(location in c.space(n).touches for n in c.neighbours(space)):
        return 1
    return 2


def bards_apart(state: BardwoodState, seat: int, other: int) -> int:
    """0 on the same space, 1 on neighbouring spaces, 2 farther."""
    here, there = state.player(seat).space, state.player(other).space
    if here == there:
        return 0
    return 1 if there in content().neighbours(here) else 2


def open_to(state: BardwoodState, seat: int, location: str) -> bool:
    """Whether ``seat`` is next to ``location`` and has not activated it this turn."""
    return location in next_to(state, seat) and location not in state.turn.used


def usable(state: BardwoodState, seat: int, location: Location) -> None:
    """Refuse a Location the Bard is not next to, or already activated this turn."""
    if location.id not in next_to(state, seat):
        raise codes.NOT_ADJACENT(location=location.name)
    if location.id in state.turn.used:
        raise codes.LOCATION_USED(location=location.name)


def reach(state: BardwoodState, seat: int, location: Location) -> int:
    """Rangestones needed to act at ``location`` (Challenge, Soothe, Assist), or refuse;
    also refuses a Location already activated this turn."""
    if location.id in state.turn.used:
        raise codes.LOCATION_USED(location=location.name)
    needed = _distance_to(state, seat, location.id)
    if needed > state.player(seat).rangestones:
        raise codes.OUT_OF_RANGE(target=location.name)
    return needed


def spend_range(batch: Batch, seat: int, rangestones: int) -> None:
    """Spend the Rangestones a reach needed."""
    if rangestones:
        batch.add("resources_changed", seat=seat, reason="range", rangestones=-rangestones)


def activate(batch: Batch, seat: int, location: str) -> None:
    """Mark ``location`` as activated this turn."""
    batch.add("location_used", seat=seat, location=location)
