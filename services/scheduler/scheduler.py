"""The scheduler process's loop: fire what is due on every shard, then wait a moment."""

from __future__ import annotations

import asyncio
import contextlib
import time

from redis.exceptions import RedisError

from services.logs import bind, get_logger
from services.scheduler.due import DuePlans

__all__ = ["Scheduler"]

log = get_logger("scheduler")


def now_ms() -> int:
    return time.time_ns() // 1_000_000


class Scheduler:
    """Fires the due control commands of every shard every ``poll_ms``; replicas may run
    side by side (each member is fired by exactly one of them)."""

    def __init__(self, plans: DuePlans, *, poll_ms: int = 100, batch: int = 100) -> None:
        self.plans = plans
        self.poll_ms = poll_ms
        self.batch = batch
        self.fired = 0

    async def step(self) -> int:
        """One pass over every shard; returns how many commands it fired."""
        fired = 0
        for shard in range(self.plans.shards):
            while True:
                batch = await self.plans.fire(shard, now_ms(), self.batch)
                for one in batch:
                    envelope = one.envelope
                    with bind(table_id=envelope.table_id, command_id=envelope.command_id):
                        log.info("due.fired", game=one.game, kind=one.kind, seat=envelope.seat)
                fired += len(batch)
                if len(batch) < self.batch:
                    break
        self.fired += fired
        return fired

    async def run(self, stop: asyncio.Event) -> None:
        log.info("scheduler.started", shards=self.plans.shards, poll_ms=self.poll_ms)
        while not stop.is_set():
            try:
                await self.step()
            except (RedisError, OSError) as trouble:
                # Nothing was taken out of a due set without reaching the inbox: go on later.
                log.warning("scheduler.redis_unavailable", error=str(trouble))
                await asyncio.sleep(1)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self.poll_ms / 1000)
        log.info("scheduler.stopped", fired=self.fired)
