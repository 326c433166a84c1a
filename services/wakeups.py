"""Sleeping until the earliest member of a due set comes due, woken at once by an earlier one.

A process that works off a sorted set scored by when (ms) sleeps until its earliest member
is due. A writer that puts a member in earlier than every other there adds an entry to the
set's wake-up stream (:data:`WAKES_KEPT` long; scripts call :data:`WAKE_IF_EARLIER`), which
ends such a sleep: the sleeper blocks in ``XREAD`` on the streams from the newest entries
it saw (:class:`WakeStreams`). A member put in later than the earliest is due no sooner
than it, so the sleep ends in time without a wake-up. The sleep is capped, so a wake-up lost
in a failover delays nothing by more than the cap. Used by the scheduler (control commands)
and the notifier's webhook sender (deliveries).

The same wake-up streams end the sleep of a consumer of streams of every shard on a Redis
Cluster, which cannot block on streams of several slots in one read: the writers of those
streams add an entry to one wake-up stream (:class:`Waker`) after their writes, and the
consumer, when its reads found nothing, blocks on it (:class:`Sleeper`) instead of polling.
On one server the consumer blocks on the streams themselves and nothing is written.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Sequence
from typing import Any

from redis.asyncio.cluster import RedisCluster

from services.logs import get_logger
from services.shutdown import cancel_and_wait

__all__ = [
    "IS_EARLIER",
    "WAKES_KEPT",
    "WAKE_IF_EARLIER",
    "Sleeper",
    "WakeStreams",
    "Waker",
    "pause_ms",
    "sleep_or_wake",
]

log = get_logger("wakeups")

# How many entries a wake-up stream keeps (a sleeper reads only the newest).
WAKES_KEPT = 100

# Lua: whether ``at`` (ms) is earlier than ``first``, a due set's earliest score before a
# write (false or nil: the set was empty). Formatted with the scripts' own expressions.
IS_EARLIER = "({first} == nil or {first} == false or tonumber({at}) < tonumber({first}))"

# Lua: wake the sleepers of due set ``due`` (a key) through its stream ``wake`` (a key) when
# ``at`` is earlier than ``first`` (:data:`IS_EARLIER`).
WAKE_IF_EARLIER = (
    """
if """
    + IS_EARLIER
    + """ then
  redis.call('XADD', {wake}, 'MAXLEN', '~', """
    + str(WAKES_KEPT)
    + """, '*', 'at', {at})
end
"""
)


class WakeStreams:
    """The wake-up streams of one or several due sets, read by a sleeper."""

    def __init__(self, redis: Any, streams: Sequence[str]) -> None:
        self.redis = redis
        self.streams = list(streams)

    async def marks(self) -> dict[str, bytes]:
        """The newest entry of every stream: :meth:`wait` wakes on any entry after these.
        Read them before looking at the due sets, so a wake-up written after is not missed."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for stream in self.streams:
                pipe.xrevrange(stream, count=1)
            newest = await pipe.execute()
        return {s: (n[0][0] if n else b"0-0") for s, n in zip(self.streams, newest, strict=True)}

    async def wait(self, marks: dict[str, bytes], block_ms: int) -> bool:
        """Wait up to ``block_ms`` for an entry after ``marks`` (moved on past what is read);
        whether one came. The streams must be on one server (or, on a cluster, in one slot)."""
        reply: Any = await self.redis.xread(dict(marks), block=max(1, block_ms))
        for stream, entries in reply or []:
            if entries:
                name = stream.decode() if isinstance(stream, bytes) else str(stream)
                marks[name] = entries[-1][0]
        return bool(reply)


class Waker:
    """Wakes the cluster consumers of some streams after writes to them (one server: does
    nothing). :meth:`wake` returns at once: the entry is added in the background, so a
    write's reply waits for no other node; wake-ups asked for while one is on its way are
    one more entry after it, so under load the stream takes one entry a round trip, not one
    a write. A wake-up lost (a failover, a timeout) delays the consumers by at most their cap."""

    def __init__(self, redis: Any, stream: str) -> None:
        self.redis = redis
        self.stream = stream
        self.enabled = isinstance(redis, RedisCluster)
        self._sending: asyncio.Task[None] | None = None
        self._again = False

    def wake(self) -> None:
        """Add an entry after every write that has been answered by now."""
        if not self.enabled:
            return
        if self._sending is not None:
            # The entry on its way may have been added before the write this follows.
            self._again = True
            return
        self._sending = asyncio.create_task(self._send())

    async def _send(self) -> None:
        try:
            again = True
            while again:
                self._again = False
                await self.redis.xadd(self.stream, {"w": 1}, maxlen=WAKES_KEPT, approximate=True)
                again = self._again
        except Exception as lost:
            log.warning("wake.lost", stream=self.stream, error=str(lost))
        finally:
            self._sending = None


class Sleeper:
    """How a consumer of streams of several slots waits on a cluster between reads that
    found nothing: :meth:`mark` before each read, :meth:`sleep` after one that found
    nothing; woken by an entry its writers' :class:`Waker` added after the mark, at the
    latest after the cap."""

    def __init__(self, redis: Any, stream: str) -> None:
        self._wakes = WakeStreams(redis, [stream])
        self._marks: dict[str, bytes] | None = None

    async def mark(self) -> None:
        """Note the wake-up stream's newest entry unless a mark is held already: an older
        mark only wakes the next sleep at once, once (a read then finds nothing or more)."""
        if self._marks is None:
            self._marks = await self._wakes.marks()

    async def sleep(self, cap_ms: int) -> bool:
        """Wait for an entry after the mark, ``cap_ms`` at most; whether one came."""
        if self._marks is None:
            raise RuntimeError("a sleep needs a mark taken before the reads")
        try:
            return await self._wakes.wait(self._marks, cap_ms)
        except BaseException:
            # Maybe a failover: the stream may now end before the mark; take a new one.
            self._marks = None
            raise


def pause_ms(next_ms: int | None, now_ms: int, cap_ms: int) -> int:
    """How long to sleep: until ``next_ms``, the earliest member left (``None``: none), at
    most ``cap_ms``."""
    if next_ms is None:
        return cap_ms
    return max(0, min(cap_ms, next_ms - now_ms + 1))


async def sleep_or_wake(stop: asyncio.Event, pause: int, woken: Awaitable[Any] | None) -> None:
    """Sleep ``pause`` ms, or until ``woken`` (e.g. :meth:`WakeStreams.wait`; ``None``: a
    plain sleep) ends or ``stop`` is set."""
    waiting = asyncio.ensure_future(woken if woken is not None else asyncio.sleep(pause / 1000))
    stopping = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait([waiting, stopping], return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping.cancel()
        await cancel_and_wait(waiting)
