"""Sunset Phase: pieces back, the Workshop shifts, the market turns over, next round."""

from __future__ import annotations

from engines.core.rng import Rng
from engines.harvest.content import content
from engines.harvest.events import wrap
from engines.harvest.market import next_market_tiles
from engines.harvest.state import HarvestState
from proto import harvest_pb2 as pb

__all__ = ["shift_buildings", "sunset"]


def shift_buildings(workshop: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Sunset Phase 2: "Move all Buildings in the WORKSHOP area one row down, decreasing
    their cost. Buildings shifted from the 1-cost row are discarded": the Workshop after
    the move, and the discarded buildings."""
    costs = content().workshop_slot_costs
    row = costs.count(costs[0])
    shifted = ("",) * row + workshop[:-row]
    return shifted, tuple(b for b in workshop[-row:] if b)


def sunset(state: HarvestState, rng: Rng) -> list[pb.Event]:
    """Sunset Phase 1-5: the Workshop shifts (its own event); then ``RoundEnded`` records
    that every piece (Gairy's too) comes back, the next market tiles show, Gairy's tiles
    return and the round advances."""
    workshop, discarded = shift_buildings(state.workshop)
    large, small = next_market_tiles(state, rng)
    return [
        wrap(workshop_shifted=pb.WorkshopShifted(workshop=workshop, discarded=discarded)),
        wrap(
            round_ended=pb.RoundEnded(
                next_round=state.round + 1, market_large=large, market_small=small
            )
        ),
    ]
