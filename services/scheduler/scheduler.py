"""The scheduler process's loop: fire what is due on every shard, then sleep until the
earliest member left is due, or a plan puts in an earlier one, or ``max_sleep_ms``
(:mod:`services.wakeups`).

A member put into a due set later than the earliest there is due no sooner than the
earliest, so the sleep ends in time for it; one put in earlier writes to its shard's
wake-up stream, which ends the sleep at once. The sleep is capped so that a wake-up lost
in a failover delays nothing by more than ``max_sleep_ms``. On a Redis Cluster, which
cannot block on streams of several slots in one call, such a plan also writes to one
wake-up stream for every shard, ``bw:due:wake``, and the scheduler sleeps on that one
(:class:`services.wakeups.Sleeper`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from redis.asyncio.cluster import RedisCluster

from services.eventstore import DUE_WAKE_KEY, is_redis_trouble
from services.logs import bind, get_logger
from services.scheduler.due import DuePlans
from services.wakeups import Sleeper, pause_ms, sleep_or_wake

__all__ = ["Scheduler"]

log = get_logger("scheduler")


def now_ms() -> int:
    return time.time_ns() // 1_000_000


class Scheduler:
    """Fires the due control commands of every shard when they are due; replicas may run
    side by side (each member is fired by exactly one of them)."""

    def __init__(self, plans: DuePlans, *, max_sleep_ms: int = 1000, batch: int = 100) -> None:
        self.plans = plans
        self.max_sleep_ms = max_sleep_ms
        self.batch = batch
        self.fired = 0
        # The earliest member left after the last pass (ms; None: every due set is empty).
        self.next_ms: int | None = None
        # On a cluster: one wake-up stream for every shard, written after the plans' writes.
        self._cluster_sleep = (
            Sleeper(plans.redis, DUE_WAKE_KEY) if isinstance(plans.redis, RedisCluster) else None
        )

    async def step(self) -> int:
        """Fire everything due on every shard; returns how many commands it fired."""
        fired = 0
        while True:
            done = await self.plans.fire_all(now_ms(), self.batch)
            for one in done.fired:
                envelope = one.envelope
                with bind(table_id=envelope.table_id, command_id=envelope.command_id):
                    log.info("due.fired", game=one.game, kind=one.kind, seat=envelope.seat)
            fired += len(done.fired)
            self.next_ms = done.next_ms
            if not done.more:
                break
        self.fired += fired
        return fired

    def pause_ms(self) -> int:
        """How long to sleep after a pass: until the earliest member left, at most
        ``max_sleep_ms``."""
        return pause_ms(self.next_ms, now_ms(), self.max_sleep_ms)

    async def run(self, stop: asyncio.Event) -> None:
        log.info(
            "scheduler.started",
            shards=self.plans.shards,
            max_sleep_ms=self.max_sleep_ms,
            cluster=self._cluster_sleep is not None,
        )
        marks: dict[str, bytes] | None = None
        cluster = self._cluster_sleep
        while not stop.is_set():
            try:
                # Read before the pass: a wake-up written after it is not missed.
                if cluster is not None:
                    await cluster.mark()
                elif marks is None:
                    marks = await self.plans.wake_marks()
                await self.step()
                pause = self.pause_ms()
                if pause > 0:
                    woken = (
                        cluster.sleep(pause)
                        if cluster is not None
                        else self.plans.wait(marks, pause)
                        if marks is not None
                        else None
                    )
                    await sleep_or_wake(stop, pause, woken)
            except Exception as trouble:
                if not is_redis_trouble(trouble):
                    raise
                # Nothing was taken out of a due set without reaching the inbox: go on later.
                log.warning("scheduler.redis_unavailable", error=repr(trouble))
                marks = None
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), 1)
        log.info("scheduler.stopped", fired=self.fired)
