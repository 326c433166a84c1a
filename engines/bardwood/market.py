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
from engines.bardwood.content import content
from engines.bardwood.costs import pay
from engines.bardwood.crystals import take_crystals
from engines.bardwood.locations import activate, location_of, usable
from engines.bardwood.state import BardwoodState
from engines.core.rng import Rng
from proto import bardwood_pb2 as pb

__all__ = ["buy", "buys", "market_cost"]


def market_cost(state: BardwoodState) -> int:
    """The number by the market boat."""
    return content().market_costs[state.market_boat]


def _price(state: BardwoodState, searched: bool) -> int:
    event = active_event(state)
    discount = event.buy_discount if event is not None else 0
    price = max(market_cost(state) - discount, 1)
    return price + (content().search_extra if searched else 0)


def buy(state: BardwoodState, cmd: pb.Buy, seat: int, rng: Rng) -> list[pb.Event]:
    """Buy the top card (``card`` empty) or search for ``card`` at an adjacent deck."""
    location = location_of(cmd.location, "market")
    usable(state, seat, location)
    deck = state.market_deck(cmd.location) or ()
    batch = Batch(state)
    if not deck:
        if cmd.card:
            raise codes.DECK_EXHAUSTED()
        pay(batch, seat, (("coin", _price(state, False)),), "buy")
        activate(batch, seat, cmd.location)
        take_crystals(batch, seat, dict(content().exhausted_gain)["vp"], "exhausted")
        return batch.events
    searched = bool(cmd.card)
    if searched and cmd.card not in deck:
        raise codes.NOT_IN_DECK(card=cmd.card[:40])
    card = cmd.card or deck[0]
    coins = _price(state, searched)
    pay(batch, seat, (("coin", coins),), "buy")
    activate(batch, seat, cmd.location)
    batch.add(
        "card_bought", seat=seat, location=cmd.location, card=card, coins=coins, searched=searched
    )
    if (
        content().card(card).kind == "action"
        and state.market_boat < len(content().market_costs) - 1
    ):
        batch.add("market_boat_moved", position=state.market_boat + 1)
    if searched:
        rest = batch.state.market_deck(cmd.location) or ()
        batch.add("market_deck_shuffled", location=cmd.location, cards=rng.shuffle(rest))
    return batch.events


def buys(state: BardwoodState, seat: int) -> list[pb.Buy]:
    """At each market deck: the top card, and each other design in it (a search)."""
    out = []
    for location, deck in state.market:
        out.append(pb.Buy(location=location))
        out.extend(pb.Buy(location=location, card=card) for card in sorted(set(deck)))
    return out
