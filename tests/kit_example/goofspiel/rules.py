"""Goofspiel's rules: one move (bid) and the automatic steps after it.

The rulebook in full: every player holds the cards 1 to N; the prize deck holds 1 to N
too. Each round a prize is turned up and every player bids one card from their hand in
secret. When all have bid, the bids are shown: the single highest bid takes the prize,
a tie for the highest takes nothing; bids are spent. After N rounds the prizes taken are
added up, and the highest total wins (ties share the win).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engines.core.codes import Refusal
from engines.core.contract import TableConfig
from engines.core.deck import draw_random
from engines.core.flow import Flow, Stage
from engines.core.recorders import Recorders
from engines.core.rng import Rng
from proto import goofspiel_pb2 as pb

__all__ = ["FLOW", "RECORDERS", "Goofspiel", "advance", "bid", "bids", "set_up"]

CARD_NOT_IN_HAND = Refusal("bid.not_in_hand", "You can only bid a card still in your hand.")


@dataclass(frozen=True, slots=True)
class Goofspiel:
    """A table between commands. ``bids[s]`` is 0 until seat ``s`` has bid this round."""

    seats: int = 0
    cards: int = 0
    hands: tuple[tuple[int, ...], ...] = ()
    bids: tuple[int, ...] = ()
    prize: int = 0
    unseen: tuple[int, ...] = ()
    taken: tuple[tuple[int, ...], ...] = ()
    finished: bool = False
    winners: tuple[int, ...] = ()


def _set(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return (*values[:index], value, *values[index + 1 :])


# -- set-up --------------------------------------------------------------------------------


def set_up(config: TableConfig, rng: Rng) -> list[pb.Event]:
    """Set-up: every hand and the prize deck hold 1..N (the first prize is turned up by
    ``advance``, as every later one)."""
    started = pb.GameStarted(seats=config.seats, cards=config.options["cards"])
    return [pb.Event(game_started=started)]


# -- the one move -------------------------------------------------------------------------


def bid(state: Goofspiel, cmd: pb.Bid, seat: int) -> list[pb.Event]:
    """Bid one card of your hand, in secret."""
    if cmd.card not in state.hands[seat]:
        raise CARD_NOT_IN_HAND()
    return [pb.Event(bid_placed=pb.BidPlaced(seat=seat, card=cmd.card))]


def bids(state: Goofspiel, seat: int) -> list[pb.Bid]:
    """Every card the seat could bid."""
    return [pb.Bid(card=card) for card in state.hands[seat]]


# -- what follows on its own ---------------------------------------------------------------


def advance(state: Goofspiel, rng: Rng) -> list[pb.Event]:
    """Once every seat has bid, show the bids and award the prize; then turn up the next
    prize, or end the game when none is left."""
    if state.finished or (state.prize and not all(state.bids)):
        return []
    events: list[pb.Event] = []
    if state.prize:
        events += _award(state)
    if state.unseen:
        (prize,) = draw_random(state.unseen, 1, rng)
        events.append(pb.Event(prize_revealed=pb.PrizeRevealed(prize=prize)))
    else:
        events.append(_game_ended(state, events))
    return events


def _award(state: Goofspiel) -> list[pb.Event]:
    shown = pb.Event(bids_shown=pb.BidsShown(cards=state.bids))
    best = max(state.bids)
    highest = [seat for seat, card in enumerate(state.bids) if card == best]
    if len(highest) > 1:
        return [shown, pb.Event(prize_discarded=pb.PrizeDiscarded(prize=state.prize))]
    won = pb.PrizeWon(seat=highest[0], prize=state.prize)
    return [shown, pb.Event(prize_won=won)]


def scores(state: Goofspiel) -> tuple[int, ...]:
    return tuple(sum(taken) for taken in state.taken)


def _game_ended(state: Goofspiel, awarded: list[pb.Event]) -> pb.Event:
    totals = list(scores(state))
    for event in awarded:
        if event.WhichOneof("kind") == "prize_won":
            totals[event.prize_won.seat] += event.prize_won.prize
    best = max(totals)
    winners = [seat for seat, total in enumerate(totals) if total == best]
    return pb.Event(game_ended=pb.GameEnded(scores=totals, winners=winners))


# -- the flow -------------------------------------------------------------------------------


def _still_to_bid(state: Goofspiel) -> tuple[int, ...]:
    return tuple(seat for seat, card in enumerate(state.bids) if card == 0)


FLOW: Flow[Goofspiel] = Flow(
    stages=(Stage("bidding", ("bid",), waiting_for="Bid a card for the prize."),),
    stage_of=lambda state: "bidding",
    to_act=_still_to_bid,
    finished=lambda state: state.finished,
)


# -- evolve: one recorder per event -------------------------------------------------------

RECORDERS: Recorders[Goofspiel] = Recorders(pb.Event)


@RECORDERS.on("game_started")
def game_started(state: Goofspiel, event: pb.GameStarted) -> Goofspiel:
    cards = tuple(range(1, event.cards + 1))
    seats = event.seats
    return Goofspiel(
        seats=seats,
        cards=event.cards,
        hands=(cards,) * seats,
        bids=(0,) * seats,
        unseen=cards,
        taken=((),) * seats,
    )


@RECORDERS.on("prize_revealed")
def prize_revealed(state: Goofspiel, event: pb.PrizeRevealed) -> Goofspiel:
    unseen = tuple(p for p in state.unseen if p != event.prize)
    return replace(state, prize=event.prize, unseen=unseen, bids=(0,) * state.seats)


@RECORDERS.on("bid_placed")
def bid_placed(state: Goofspiel, event: pb.BidPlaced) -> Goofspiel:
    hand = tuple(card for card in state.hands[event.seat] if card != event.card)
    hands = (*state.hands[: event.seat], hand, *state.hands[event.seat + 1 :])
    return replace(state, hands=hands, bids=_set(state.bids, event.seat, event.card))


@RECORDERS.on("bids_shown")
def bids_shown(state: Goofspiel, event: pb.BidsShown) -> Goofspiel:
    return state


@RECORDERS.on("prize_won")
def prize_won(state: Goofspiel, event: pb.PrizeWon) -> Goofspiel:
    taken = (*state.taken[: event.seat], (*state.taken[event.seat], event.prize))
    return replace(state, taken=taken + state.taken[event.seat + 1 :], prize=0)


@RECORDERS.on("prize_discarded")
def prize_discarded(state: Goofspiel, event: pb.PrizeDiscarded) -> Goofspiel:
    return replace(state, prize=0)


@RECORDERS.on("game_ended")
def game_ended(state: Goofspiel, event: pb.GameEnded) -> Goofspiel:
    return replace(state, finished=True, winners=tuple(event.winners), prize=0)
