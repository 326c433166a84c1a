"""Retention: what a finished table keeps for ever, and what goes after a while.

Kept for ever: what its audit and export need. Its log (``:events``), its meta (game,
seats, seat-token hashes, seed commitment, head) and its id in the shard's table set.

Kept ``finished_ttl_s`` seconds (``BW_FINISHED_TTL_S``, 7 days by default) after the
projector writes its final state, then removed: what only serves a table while it is
played. Its read models (views and status), its state snapshot, its command-id outcomes
(idempotency records) and its lobby entry.

How. When the projector writes a finished table it sets ``PEXPIRE`` on those keys and
schedules its lobby entry to leave at the same moment; the projector's periodic sweep
takes the entry out of the lobby and deletes the keys again, in case one of them was
written after the expiry was set (the engine may save a snapshot just after the final
append). Afterwards a view of the table is answered by the engine service from the
log, a command id sent again is decided anew (the game is over), and
``python -m services.projector --rebuild`` writes the read models again, for another
period.
"""

from __future__ import annotations

import time
from typing import Any

from services.eventstore import Keys

__all__ = ["FINISHED_TTL_S", "Retention"]

# A week: long enough to look a finished game up again, short enough not to pile up.
FINISHED_TTL_S = 7 * 24 * 3600


class Retention:
    """Expires and removes the hot keys of finished tables."""

    def __init__(self, redis: Any, finished_ttl_s: int) -> None:
        if finished_ttl_s < 1:
            raise ValueError("finished tables must be kept at least a second")
        self.redis = redis
        self.finished_ttl_ms = finished_ttl_s * 1000

    def deadline(self) -> int:
        """When the hot keys of a table finished now go (ms since the epoch)."""
        return time.time_ns() // 1_000_000 + self.finished_ttl_ms

    async def expire(self, keys: Keys, seats: int, at_ms: int) -> None:
        """Have a finished table's hot keys expire at ``at_ms``."""
        # Every key shares the table's slot: one pipeline is one round trip, on a cluster too.
        async with self.redis.pipeline(transaction=False) as pipe:
            for key in keys.hot(seats):
                pipe.pexpireat(key, at_ms)
            await pipe.execute()

    async def forget(self, keys: Keys, seats: int) -> int:
        """Delete a finished table's hot keys now; returns how many existed."""
        return int(await self.redis.delete(*keys.hot(seats)))
