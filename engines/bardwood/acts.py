"""Events: the Act I Event is active from the start; when its Act ends (after the turn its
pool ran out) its end effect resolves for every player and the Act II Event begins. The
Act II Event's end effect resolves after the last final turn (see RULES.md).

"You can not spend any Bardstones for any Events' effects": an Event's offer is paid
from the turn's Melody and Lyric (and coins) only.
"""

from __future__ import annotations

from engines.bardwood import codes
from engines.bardwood.batch import Batch
from engines.bardwood.content import Event, content
from engines.bardwood.costs import affordable, pay
from engines.bardwood.crystals import take_crystals
from engines.bardwood.icons import gain
from engines.bardwood.legal import passing
from engines.bardwood.scoring import count
from engines.bardwood.state import BardwoodState
from proto import bardwood_pb2 as pb

__all__ = ["active_event", "check_offer", "end_act", "event_offers", "use_event_offer"]


def active_event(state: BardwoodState) -> Event | None:
    """The Event of the current Act (none once Act II has ended)."""
    if not state.act_events or state.act > len(state.act_events):
        return None
    return content().event(state.act_events[state.act - 1])


def check_offer(state: BardwoodState, cmd: pb.UseEventOffer, seat: int) -> Event:
    """The current Event makes an offer, unused this Song, payable without Bardstones."""
    event = active_event(state)
    if event is None or not event.offer_gain:
        raise codes.NO_OFFER()
    if state.turn.offer_used:
        raise codes.OFFER_USED()
    affordable(state, seat, event.offer_pay, stones=False)
    return event


def use_event_offer(state: BardwoodState, cmd: pb.UseEventOffer, seat: int) -> list[pb.Event]:
    """The current Event's offer, once a Song, never paid with Bardstones."""
    event = check_offer(state, cmd, seat)
    batch = Batch(state)
    pay(batch, seat, event.offer_pay, "event", stones=False)
    batch.add("event_offer_used", seat=seat, event=event.id)
    gain(batch, seat, event.offer_gain, "event")
    return batch.events


def event_offers(state: BardwoodState, seat: int) -> list[pb.UseEventOffer]:
    """The Event's offer, when the rule's check accepts it."""
    return passing(check_offer, state, seat, [pb.UseEventOffer()])


def end_act(batch: Batch, act: int) -> None:
    """The Act's Event ends: each player, in turn order from the current one, gains what
    its end effect scores."""
    state = batch.state
    event = active_event(state)
    batch.add("act_ended", act=act)
    if event is None:
        return
    start = max(state.turn.seat, 0)
    for step in range(state.seats):
        seat = (start + step) % state.seats
        take_crystals(
            batch, seat, event.end.value(count(batch.state, seat, event.end.count)), "act"
        )
