"""Rate limits shared by every gateway replica: counters in Redis, kept by ``limits``.

Three budgets, each a ``limits`` string such as ``"6000/minute"`` or ``"20/minute;200/hour"``
(several windows, all must hold; empty turns the budget off):

- per client address, every request but the probes (``BW_RATE_LIMIT_ADDRESS``);
- per seat token, every request that carries one (``BW_RATE_LIMIT_SEAT``), so one seat
  cannot crowd out the others behind the same address;
- per client address, table creation (``BW_RATE_LIMIT_CREATE``).

The sliding-window counter keeps two small counters per key (no burst at a window's edge,
no list per client). A seat token never reaches Redis: its key is a hash of the token. If
Redis cannot be asked, the request is let through (and logged): the reads behind it will
say that the store is down.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass
from typing import Any

import structlog
from limits import RateLimitItem, parse_many
from limits.aio.storage import RedisClusterStorage, RedisStorage, Storage
from limits.aio.strategies import SlidingWindowCounterRateLimiter
from limits.errors import StorageError
from redis.exceptions import RedisError

from services.eventstore import RATE_LIMIT_PREFIX
from services.eventstore.connection import DRIVER_INFO

__all__ = ["Budget", "RateLimits", "Refusal", "parse_budget"]

log = structlog.get_logger("gateway.ratelimits")

# A limit check that takes longer than this lets the request through.
_CHECK_TIMEOUT_S = 1.0


@dataclass(frozen=True, slots=True)
class Budget:
    """One named budget: its windows, all of which must hold."""

    name: str
    windows: tuple[RateLimitItem, ...]


@dataclass(frozen=True, slots=True)
class Refusal:
    """A request over budget: which one, and how long until it would be let through."""

    budget: str
    retry_after_s: int
    limit: str


def parse_budget(name: str, text: str) -> Budget:
    """``"20/minute;200/hour"`` as a budget; ``""`` as an empty one (no limit)."""
    return Budget(name, tuple(parse_many(text)) if text.strip() else ())


def _storage(url: str, cluster: bool) -> Storage:
    scheme, _, rest = url.partition("://")
    options: dict[str, Any] = {"socket_timeout": _CHECK_TIMEOUT_S, "driver_info": DRIVER_INFO}
    if cluster:
        return RedisClusterStorage(
            f"async+redis+cluster://{rest}",
            implementation="redispy",
            key_prefix=RATE_LIMIT_PREFIX,
            wrap_exceptions=True,
            **options,
        )
    return RedisStorage(
        f"async+{scheme}://{rest}",
        implementation="redispy",
        key_prefix=RATE_LIMIT_PREFIX,
        wrap_exceptions=True,
        **options,
    )


class RateLimits:
    """The gateway's budgets over one Redis (or Redis Cluster)."""

    def __init__(
        self, url: str, cluster: bool, address: Budget, seat: Budget, create: Budget
    ) -> None:
        self.address = address
        self.seat = seat
        self.create = create
        self._storage = _storage(url, cluster)
        self._limiter = SlidingWindowCounterRateLimiter(self._storage)

    async def check(self, client: str, token: str | None, creating: bool) -> Refusal | None:
        """Count one request; a :class:`Refusal` when a budget is spent."""
        checks: list[tuple[Budget, str]] = [(self.address, client)]
        if token:
            checks.append((self.seat, hashlib.sha256(token.encode()).hexdigest()[:32]))
        if creating:
            checks.append((self.create, client))
        for budget, who in checks:
            refused = await self._spend(budget, who)
            if refused is not None:
                return refused
        return None

    async def _spend(self, budget: Budget, who: str) -> Refusal | None:
        try:
            for window in budget.windows:
                if not await self._limiter.hit(window, budget.name, who):
                    stats = await self._limiter.get_window_stats(window, budget.name, who)
                    wait = max(1, math.ceil(stats.reset_time - time.time()))
                    return Refusal(budget.name, wait, str(window))
        except (StorageError, RedisError, OSError) as trouble:
            log.warning("ratelimit.unavailable", budget=budget.name, error=str(trouble))
        return None
