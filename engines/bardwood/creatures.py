"""Assist and Soothe: the aggressive Creatures swarming around the Grove.

A Creature pile is one Location: a Bard Soothes its top Creature or Assists it, once a
turn (see RULES.md). An exhausted pile is still activated as printed: 5 Melody for 1 VP.
"""

from __future__ import annotations

from engines.bardwood import codes
from engines.bardwood.acts import active_event
from engines.bardwood.batch import Batch
from engines.bardwood.content import Gains, content
from engines.bardwood.costs import affordable, pay
from engines.bardwood.crystals import take_crystals
from engines.bardwood.icons import gain
from engines.bardwood.legal import passing
from engines.bardwood.locations import activate, location_of, reach, spend_range
from engines.bardwood.state import BardwoodState, Pile
from proto import bardwood_pb2 as pb

__all__ = [
    "assist",
    "assists",
    "check_assist",
    "check_soothe",
    "soothe",
    "soothe_cost",
    "soothes",
]


def soothe_cost(state: BardwoodState, pile: Pile) -> int:
    """The top-left Melody, less 1 per Badge on the card (any player's) when it shows the
    discount icon, less the current Event's discount."""
    creature = content().card(pile.top)
    cost = creature.soothe - (len(pile.badges) if creature.discount else 0)
    event = active_event(state)
    if event is not None:
        cost -= event.soothe_discount
    return max(cost, 0)


def _pile(state: BardwoodState, location: str) -> Pile:
    location_of(location, "creatures")
    pile = state.pile(location)
    assert pile is not None
    return pile


def check_soothe(state: BardwoodState, cmd: pb.Soothe, seat: int) -> tuple[Pile, int, Gains]:
    """In reach, not visited this turn, a Creature spot of yours (spot 0 for an
    exhausted pile), and the Melody: ``(pile, Rangestones, cost)``."""
    pile = _pile(state, cmd.location)
    rangestones = reach(state, seat, location_of(cmd.location, "creatures"))
    if not 0 <= cmd.spot < (content().creature_spots if pile.cards else 1):
        raise codes.NO_SUCH_SPOT()
    if pile.cards:
        cost: Gains = (("melody", soothe_cost(state, pile)),)
    else:
        cost = content().exhausted_creature_pay
    cost = tuple((name, n) for name, n in cost if n)
    affordable(state, seat, cost)
    return pile, rangestones, cost


def soothe(state: BardwoodState, cmd: pb.Soothe, seat: int) -> list[pb.Event]:
    """Soothe the top Creature: pay, then 1. your own Badge to the box, 2. every other
    Badge's owner gains the bonus, 3. take the Badges, gain the bonus, place the card."""
    pile, rangestones, cost = check_soothe(state, cmd, seat)
    batch = Batch(state)
    spend_range(batch, seat, rangestones)
    pay(batch, seat, cost, "soothe")
    activate(batch, seat, cmd.location)
    if not pile.cards:
        take_crystals(batch, seat, dict(content().exhausted_gain)["vp"], "exhausted")
        return batch.events
    creature = content().card(pile.top)
    if seat in pile.badges:
        batch.add("badge_returned", seat=seat, source=cmd.location)
    others = [owner for owner in pile.badges if owner != seat]
    for owner in others:
        gain(batch, owner, creature.bonus, "assist")
    if others:
        batch.add("badges_taken", seat=seat, source=cmd.location, owners=others)
    gain(batch, seat, creature.bonus, "creature")
    batch.add(
        "creature_soothed", seat=seat, location=cmd.location, creature=pile.top, spot=cmd.spot
    )
    return batch.events


def soothes(state: BardwoodState, seat: int) -> list[pb.Soothe]:
    """Every pile and Creature spot the rule's check accepts."""
    spots = range(content().creature_spots)
    bodies = (pb.Soothe(location=p.location, spot=s) for p in state.piles for s in spots)
    return passing(check_soothe, state, seat, bodies)


def check_assist(state: BardwoodState, cmd: pb.Assist, seat: int) -> tuple[int, Gains]:
    """In reach, not visited this turn, a Creature without your Badge, a Badge left on
    your track, and the top-right Melody: ``(Rangestones, cost)``."""
    pile = _pile(state, cmd.location)
    rangestones = reach(state, seat, location_of(cmd.location, "creatures"))
    if not pile.cards:
        raise codes.EMPTY_PILE(location=content().location(cmd.location).name)
    if state.player(seat).badges == 0:
        raise codes.NO_BADGES()
    if seat in pile.badges:
        raise codes.ALREADY_ASSISTED()
    cost = (("melody", content().card(pile.top).assist),)
    affordable(state, seat, cost)
    return rangestones, cost


def assist(state: BardwoodState, cmd: pb.Assist, seat: int) -> list[pb.Event]:
    """Assist the top Creature: pay its top-right Melody, place your left-most Badge."""
    rangestones, cost = check_assist(state, cmd, seat)
    batch = Batch(state)
    spend_range(batch, seat, rangestones)
    pay(batch, seat, cost, "assist")
    activate(batch, seat, cmd.location)
    batch.add("badge_placed", seat=seat, to=cmd.location)
    return batch.events


def assists(state: BardwoodState, seat: int) -> list[pb.Assist]:
    """Every pile the rule's check accepts."""
    bodies = (pb.Assist(location=pile.location) for pile in state.piles)
    return passing(check_assist, state, seat, bodies)
