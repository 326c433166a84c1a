"""Goofspiel, the kit's worked example: its rules as scenarios, and the conformance check
every engine passes."""

from __future__ import annotations

import random

import pytest

from engines.core.testing import budget, conformance, given
from proto import goofspiel_pb2 as pb
from tests.kit_example.goofspiel.engine import ENGINE
from tests.kit_example.goofspiel.rules import Goofspiel


def started(seats: int = 2, cards: int = 3) -> pb.Event:
    return pb.Event(game_started=pb.GameStarted(seats=seats, cards=cards))


def revealed(prize: int) -> pb.Event:
    return pb.Event(prize_revealed=pb.PrizeRevealed(prize=prize))


def placed(seat: int, card: int) -> pb.Event:
    return pb.Event(bid_placed=pb.BidPlaced(seat=seat, card=card))


def bids_shown(*cards: int) -> pb.Event:
    return pb.Event(bids_shown=pb.BidsShown(cards=cards))


def prize_won(seat: int, prize: int) -> pb.Event:
    return pb.Event(prize_won=pb.PrizeWon(seat=seat, prize=prize))


def bid(card: int) -> pb.Command:
    return pb.Command(bid=pb.Bid(card=card))


def test_a_bid_is_placed_in_secret() -> None:
    """A bid from the hand is recorded; the other seat and spectators do not see the card."""
    placed_ = given(ENGINE, started(), revealed(2)).when(0, bid(3)).then(placed(0, 3))
    assert placed_.view(0)["private"]["bid"] == 3
    assert placed_.view(1)["players"][0]["has_bid"] is True
    other_card = given(ENGINE, started(), revealed(2)).when(0, bid(1)).accepted()
    assert placed_.view(1) == other_card.view(1) and placed_.view(None) == other_card.view(None)
    shown = ENGINE.redact(placed(0, 3), 1)
    assert shown.bid_placed.seat == 0 and shown.bid_placed.card == 0


def test_the_highest_bid_takes_the_prize_when_all_have_bid() -> None:
    """The last bid shows every bid and awards the prize, then the next prize comes up."""
    last = given(ENGINE, started(), revealed(2), placed(0, 3)).when(1, bid(1))
    last.then_starts_with(placed(1, 1), bids_shown(3, 1), prize_won(seat=0, prize=2))
    assert last.events[-1].WhichOneof("kind") == "prize_revealed"
    assert last.view(1)["players"][0]["taken"] == [2]


def test_a_tie_for_the_highest_bid_takes_nothing() -> None:
    """Equal highest bids: the prize is discarded."""
    tie = given(ENGINE, started(3), revealed(3), placed(0, 2), placed(1, 2)).when(2, bid(1))
    tie.then_starts_with(
        placed(2, 1), bids_shown(2, 2, 1), pb.Event(prize_discarded=pb.PrizeDiscarded(prize=3))
    )


def test_after_the_last_prize_the_totals_decide_and_ties_share() -> None:
    """The last round ends the game: totals of prizes taken, highest wins, ties share."""
    history = [
        started(cards=2),
        revealed(2),
        placed(0, 2),
        placed(1, 1),
        bids_shown(2, 1),
        prize_won(seat=0, prize=2),
        revealed(1),
        placed(0, 1),
    ]
    final = given(ENGINE, history).when(1, bid(2))
    final.then(
        placed(1, 2),
        bids_shown(1, 2),
        prize_won(seat=1, prize=1),
        pb.Event(game_ended=pb.GameEnded(scores=[2, 1], winners=[0])),
    )
    assert ENGINE.outcome(final.state).finished
    assert final.view(None)["finished"] is True


def test_a_card_already_spent_cannot_be_bid() -> None:
    """Only cards still in hand may be bid: refused with the game's own code."""
    history = [started(), revealed(2), placed(0, 3), placed(1, 1)]
    history += [bids_shown(3, 1), prize_won(seat=0, prize=2), revealed(1)]
    given(ENGINE, history).when(0, bid(3)).refused("bid.not_in_hand")


def test_the_shared_checks_come_first() -> None:
    """Not your turn (already bid), empty command and game over use the shared codes."""
    position = given(ENGINE, started(), revealed(2), placed(0, 3))
    position.when(0, bid(1)).refused("turn.not_yours")
    position.when(1, pb.Command()).refused("command.empty")
    over = [started(cards=1), revealed(1), placed(0, 1)]
    over += [pb.Event(game_ended=pb.GameEnded(scores=[0, 0], winners=[0, 1]))]
    given(ENGINE, over).when(1, bid(1)).refused("game.over")


def test_moves_and_events_read_as_sentences() -> None:
    """Menus and logs can use the game's own words; a hidden bid stays hidden in them."""
    position = given(ENGINE, started(), revealed(2))
    words = [
        ENGINE.describe_command(position.state, c, 0)
        for c in ENGINE.legal_commands(position.state, 0)
    ]
    assert [w.text for w in words] == [f"Bid your {card} for the 2 prize" for card in (1, 2, 3)]
    assert {w.group for w in words} == {"Bid a card"}
    assert ENGINE.describe_event(ENGINE.redact(placed(0, 3), 1), 1) == "Seat 0 bid a card"
    assert ENGINE.describe_event(placed(0, 3), 0) == "Seat 0 bid their 3"


def reshuffle(state: Goofspiel, viewer: int, rnd: random.Random) -> Goofspiel:
    """The same table as ``viewer`` knows it: every other seat's secret bid swapped for
    another card of its hand."""
    bids = list(state.bids)
    hands = list(state.hands)
    for seat in range(state.seats):
        if seat == viewer or not bids[seat] or not hands[seat]:
            continue
        pool = [bids[seat], *hands[seat]]
        chosen = rnd.choice(pool)
        pool.remove(chosen)
        bids[seat], hands[seat] = chosen, tuple(sorted(pool))
    return Goofspiel(
        state.seats, state.cards, tuple(hands), tuple(bids), state.prize, state.unseen,
        state.taken, state.finished, state.winners,
    )  # fmt: skip


def test_hands_are_kept_sorted_so_reshuffling_is_fair() -> None:
    """Hands stay in card order whatever was bid (the reshuffle above relies on it)."""
    state = given(ENGINE, started(cards=5), revealed(2), placed(0, 3)).state
    assert state.hands[0] == (1, 2, 4, 5)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_conform(seats: int) -> None:
    """Every seeded random game passes the kit's conformance check."""
    games = budget(40)
    report = conformance(
        ENGINE,
        seats,
        seeds=range(games),
        options=({"cards": 7}, {"cards": 3}, {"cards": 13}),
        deep_every=4,
        reshuffle=reshuffle,
    )
    assert report.games == games
    assert set(report.event_kinds) == {
        "game_started", "prize_revealed", "bid_placed", "bids_shown", "prize_won",
        "prize_discarded", "game_ended",
    }  # fmt: skip
