"""Perform: a Rune from your Tempo wheel onto an empty Runestone spot, its VP, and the
top Fan face down on top of your deck.

"Pay the Lyric cost for any empty Runestone spot; then: 1. Take any one Rune off your
Tempo wheel. 2. Place it on the empty Rune spot and immediately take the shown number
of VP crystals. 3. Take the top Fan card from the Fan deck. Place it face down on top of
your deck." With no Fan left, "gain 1 VP instead" (Activating Locations).
"""

from __future__ import annotations

from engines.bardwood import codes
from engines.bardwood.batch import Batch
from engines.bardwood.content import PerformSpot, content
from engines.bardwood.costs import affordable, pay
from engines.bardwood.crystals import take_crystals
from engines.bardwood.legal import passing
from engines.bardwood.locations import activate, location_of, open_to, usable
from engines.bardwood.state import BardwoodState
from proto import bardwood_pb2 as pb

__all__ = ["check_perform", "perform", "performances", "take_fan"]


def take_fan(batch: Batch, seat: int) -> None:
    """Gain the top Fan (on top of your deck, in view of all), or 1 VP once none is left."""
    fans = batch.state.fans
    if fans:
        batch.add("fan_taken", seat=seat, fan=fans[0])
    else:
        take_crystals(batch, seat, dict(content().exhausted_gain)["vp"], "no_fan")


def check_perform(state: BardwoodState, cmd: pb.Perform, seat: int) -> PerformSpot:
    """Next to the stage, not there yet this turn, an empty spot, a Rune, the Lyric."""
    usable(state, seat, location_of("perform", "perform"))
    spots = content().perform_spots
    if not 0 <= cmd.spot < len(spots) or state.perform[cmd.spot] != -1:
        raise codes.PERFORM_SPOT(spot=cmd.spot)
    runes = state.player(seat).runes
    if not 0 <= cmd.rune < len(runes) or runes[cmd.rune] == 0:
        raise codes.NO_RUNE_THERE(area=cmd.rune)
    affordable(state, seat, spots[cmd.spot].cost)
    return spots[cmd.spot]


def perform(state: BardwoodState, cmd: pb.Perform, seat: int) -> list[pb.Event]:
    """Perform at spot ``cmd.spot`` with the Rune of Tempo area ``cmd.rune``."""
    spot = check_perform(state, cmd, seat)
    batch = Batch(state)
    pay(batch, seat, spot.cost, "perform")
    activate(batch, seat, "perform")
    batch.add("rune_placed", seat=seat, area=cmd.rune, to=f"perform:{cmd.spot}")
    take_crystals(batch, seat, spot.vp, "perform")
    take_fan(batch, seat)
    return batch.events


def performances(state: BardwoodState, seat: int) -> list[pb.Perform]:
    """Every empty spot the Song can pay for, with every Tempo area that has a Rune."""
    if not open_to(state, seat, "perform"):
        return []
    bodies = (
        pb.Perform(spot=spot, rune=area)
        for spot in range(len(state.perform))
        for area in range(len(state.player(seat).runes))
    )
    return passing(check_perform, state, seat, bodies)
