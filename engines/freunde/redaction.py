"""Freunde's secrets, declared once: which event fields a viewer may not see.

- every deck's order (the plot stack and the three objective decks), from everyone;
- the objectives dealt to or drawn by a seat, and the plots it draws, from everyone
  but that seat. Whoever draws is public, and so is the kind of an objective (its back).

Hidden values keep their place as zeros (engines.core.redaction), so a client still
sees how many cards were dealt or drawn.
"""

from __future__ import annotations

from engines.core.redaction import Redaction, Secret
from proto import freunde_pb2 as pb

__all__ = ["REDACTION"]

REDACTION: Redaction[pb.Event] = Redaction(
    pb.Event,
    {
        "game_started": (
            Secret("plot_stack"),
            Secret("plot_objectives"),
            Secret("gardener_objectives"),
            Secret("panda_objectives"),
        ),
        "objectives_dealt": (Secret("cards", owner="seat"),),
        "plots_drawn": (Secret("tiles", owner="seat"),),
        "objective_drawn": (Secret("card", owner="seat"),),
        "objective_returned": (Secret("card", owner="seat"),),
    },
)
