"""Boast: "Discard the top one card from each of your Creature piles ... You can't discard
2 from one pile, even if the other one is empty." """

from __future__ import annotations

from engines.bardwood import codes
from engines.bardwood.batch import Batch
from engines.bardwood.legal import passing
from engines.bardwood.locations import activate, location_of, usable
from engines.bardwood.state import BardwoodState
from proto import bardwood_pb2 as pb

__all__ = ["boast", "boast_piles", "boasts"]


def boast_piles(batch: Batch, seat: int) -> None:
    """The top card of each of ``seat``'s Creature piles goes to its discard pile."""
    tops = [spot[-1] for spot in batch.state.player(seat).creatures if spot]
    if tops:
        batch.add("boasted", seat=seat, cards=tops)


def check_boast(state: BardwoodState, cmd: pb.Boast, seat: int) -> None:
    """The Boast Location (once a turn, next to it), with a Creature to Boast about."""
    usable(state, seat, location_of("boast", "boast"))
    if not any(state.player(seat).creatures):
        raise codes.NO_CREATURES()


def boast(state: BardwoodState, cmd: pb.Boast, seat: int) -> list[pb.Event]:
    """Boast at its Location: the top of each of your Creature piles to the discard pile."""
    check_boast(state, cmd, seat)
    batch = Batch(state)
    activate(batch, seat, "boast")
    boast_piles(batch, seat)
    return batch.events


def boasts(state: BardwoodState, seat: int) -> list[pb.Boast]:
    """Boast, when the rule's check allows it."""
    return passing(check_boast, state, seat, [pb.Boast()])
