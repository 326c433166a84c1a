"""Buying Cards, Searching the deck, Market Cost.

"Pay the Market cost to take the top card from an adjacent deck and place it face down
on top of your deck. You can buy up to one card from each adjacent deck." "You may pay 1
extra coin to buy any card in that deck; shuffle the deck afterwards." "The Market cost
is equal to the number by the boat. When the Boat is at 5, ignore further movement.
Each time any player buys an Action card immediately move the Market boat to the next
number right." An empty deck still sells: "pay the current cost to buy a card, but
instead gain 1 VP".
"""

from __future__ import annotations

from engines.bardwood import codes
from engines.bardwood.acts import active_event
from engines.bardwood.batch import Batch
from engines.bardwood.content import Gains, content
from engines.bardwood.costs import affordable, pay
from engines.bardwood.crystals import take_crystals
from engines.bardwood.legal import passing
from engines.bardwood.locations import activate, location_of, open_to, usable
from engines.bardwood.state import BardwoodState
from engines.core.rng import Rng
from proto import bardwood_pb2 as pb

__all__ = ["buy", "buys", "check_buy", "market_cost"]


def market_cost(state: BardwoodState) -> int:
    """The number by the market boat."""
    return content().market_costs[state.market_boat]


def _price(state: BardwoodState, searched: bool) -> int:
    event = active_event(state)
    discount = event.buy_discount if event is not None else 0
    price = max(market_cost(state) - discount, 1)
    return price + (content().search_extra if searched else 0)


def check_buy(state: BardwoodState, cmd: pb.Buy, seat: int) -> Gains:
    """Next to the deck, not bought there this turn, the card in it, and the coins."""
    usable(state, seat, location_of(cmd.location, "market"))
    deck = state.market_deck(cmd.location) or ()
    if not deck and cmd.card:
        raise codes.DECK_EXHAUSTED()
    if cmd.card and cmd.card not in deck:
        raise codes.NOT_IN_DECK(card=cmd.card[:40])
    cost = (("coin", _price(state, bool(cmd.card))),)
    affordable(state, seat, cost)
    return cost


def buy(state: BardwoodState, cmd: pb.Buy, seat: int, rng: Rng) -> list[pb.Event]:
    """Buy the top card (``card`` empty) or search for ``card`` at an adjacent deck."""
    cost = check_buy(state, cmd, seat)
    deck = state.market_deck(cmd.location) or ()
    batch = Batch(state)
    pay(batch, seat, cost, "buy")
    activate(batch, seat, cmd.location)
    if not deck:
        take_crystals(batch, seat, dict(content().exhausted_gain)["vp"], "exhausted")
        return batch.events
    searched = bool(cmd.card)
    card = cmd.card or deck[0]
    batch.add(
        "card_bought",
        seat=seat,
        location=cmd.location,
        card=card,
        coins=cost[0][1],
        searched=searched,
    )
    last = len(content().market_costs) - 1
    if content().card(card).kind == "action" and state.market_boat < last:
        batch.add("market_boat_moved", position=state.market_boat + 1)
    if searched:
        rest = batch.state.market_deck(cmd.location) or ()
        batch.add("market_deck_shuffled", location=cmd.location, cards=rng.shuffle(rest))
    return batch.events


def buys(state: BardwoodState, seat: int) -> list[pb.Buy]:
    """At each market deck: the top card, and each design in it (a search)."""
    bodies = []
    for location, deck in state.market:
        if not open_to(state, seat, location):
            continue
        bodies.append(pb.Buy(location=location))
        bodies.extend(pb.Buy(location=location, card=card) for card in sorted(set(deck)))
    return passing(check_buy, state, seat, bodies)
