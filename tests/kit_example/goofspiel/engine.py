"""Goofspiel assembled from the kit's parts: everything a game declares, in one place."""

from __future__ import annotations

import random
from typing import Any

from engines.core.bots import RandomBot
from engines.core.contract import GameInfo, OptionSpec
from engines.core.game import Game, Move, Standing
from proto import goofspiel_pb2 as pb
from tests.kit_example.goofspiel.rules import (
    FLOW,
    RECORDERS,
    Goofspiel,
    advance,
    bid,
    bids,
    scores,
    set_up,
)
from tests.kit_example.goofspiel.seen import REDACTION, board, players, private
from tests.kit_example.goofspiel.words import WORDS

__all__ = ["ENGINE", "MatchingBot"]


def standing(state: Goofspiel) -> Standing:
    return Standing(scores=scores(state), winners=state.winners)


class MatchingBot:
    """Bids the card equal to the prize when it still has it, else its nearest card:
    a simple, decent strategy, and all a greedy player needs here."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, engine: Any, state: Goofspiel, seat: int) -> pb.Command:
        hand = state.hands[seat]
        best = min(hand, key=lambda card: (abs(card - state.prize), self._random.random()))
        return pb.Command(bid=pb.Bid(card=best))


ENGINE: Game[Goofspiel, pb.Command, pb.Event] = Game(
    info=GameInfo(
        "goofspiel",
        "Goofspiel",
        2,
        4,
        (OptionSpec("cards", "int", 7, "Cards in each hand and in the prize deck.", (), 2, 13),),
    ),
    command_type=pb.Command,
    event_type=pb.Event,
    initial_state=Goofspiel,
    setup=set_up,
    recorders=RECORDERS,
    flow=FLOW,
    moves={"bid": Move(bid, candidates=bids, exact=True)},
    redaction=REDACTION,
    board=board,
    players=players,
    private=private,
    standing=standing,
    advance=advance,
    bots={"random": RandomBot, "greedy": MatchingBot},
    wording=WORDS,
)
