"""Goofspiel's moves and events in words, for menus, logs and chat."""

from __future__ import annotations

from engines.core.game import MoveWords
from proto import goofspiel_pb2 as pb
from tests.kit_example.goofspiel.rules import Goofspiel

__all__ = ["WORDS"]


class GoofspielWords:
    def command(self, state: Goofspiel, command: pb.Command, seat: int) -> MoveWords:
        return MoveWords(
            group="Bid a card", text=f"Bid your {command.bid.card} for the {state.prize} prize"
        )

    def event(self, event: pb.Event, viewer: int | None) -> str:
        kind = event.WhichOneof("kind")
        if kind == "game_started":
            return f"{event.game_started.seats} players, cards 1 to {event.game_started.cards}"
        if kind == "prize_revealed":
            return f"The {event.prize_revealed.prize} prize is turned up"
        if kind == "bid_placed":
            placed = event.bid_placed
            card = f" their {placed.card}" if placed.card else " a card"
            return f"Seat {placed.seat} bid{card}"
        if kind == "bids_shown":
            return "Bids: " + ", ".join(str(card) for card in event.bids_shown.cards)
        if kind == "prize_won":
            return f"Seat {event.prize_won.seat} takes the {event.prize_won.prize} prize"
        if kind == "prize_discarded":
            return f"A tie: nobody takes the {event.prize_discarded.prize} prize"
        ended = event.game_ended
        winners = " and ".join(f"seat {seat}" for seat in ended.winners)
        return f"Game over: {winners} won with {max(ended.scores)}"


WORDS = GoofspielWords()
