"""Sunset Phase: pieces back, the Workshop shifts, the market turns over, next round."""

from __future__ import annotations

from engines.core.rng import Rng
from engines.harvest.events import wrap
from engines.harvest.market import next_market_tiles
from engines.harvest.state import HarvestState
from proto import harvest_pb2 as pb

__all__ = ["sunset"]


def sunset(state: HarvestState, rng: Rng) -> pb.Event:
    """Sunset Phase 1-5 as one event: ``evolve`` retrieves every piece (Gairy's too),
    moves each Workshop building one row down (the 1-cost row is discarded), shows the
    next market tiles, returns Gairy's tiles and advances the round."""
    large, small = next_market_tiles(state, rng)
    return wrap(
        round_ended=pb.RoundEnded(
            next_round=state.round + 1, market_large=large, market_small=small
        )
    )
