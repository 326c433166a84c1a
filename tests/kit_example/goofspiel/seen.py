"""What each seat may see of a Goofspiel table: its own hand and bid; of the others, only
that they have bid, until the bids are shown."""

from __future__ import annotations

from typing import Any

from engines.core.redaction import Redaction, Secret
from proto import goofspiel_pb2 as pb
from tests.kit_example.goofspiel.rules import Goofspiel, scores

__all__ = ["REDACTION", "board", "players", "private"]

REDACTION = Redaction(pb.Event, {"bid_placed": (Secret("card", owner="seat"),)})


def board(state: Goofspiel, viewer: int | None) -> dict[str, Any]:
    return {"prize": state.prize, "prizes_left": len(state.unseen), "cards": state.cards}


def players(state: Goofspiel, viewer: int | None) -> list[dict[str, Any]]:
    """Every hand is public knowledge (all start alike and every bid is shown), except
    the card a seat has bid this round and not yet shown."""
    return [
        {
            "seat": seat,
            "has_bid": state.bids[seat] != 0,
            "hand_size": len(state.hands[seat]),
            "taken": list(state.taken[seat]),
            "score": scores(state)[seat],
        }
        for seat in range(state.seats)
    ]


def private(state: Goofspiel, seat: int) -> dict[str, Any]:
    return {"hand": list(state.hands[seat]), "bid": state.bids[seat] or None}
