"""Sleeping until the earliest member of a due set comes due, woken at once by an earlier one.

A process that works off a sorted set scored by when (ms) sleeps until its earliest member
is due. A writer that puts a member in earlier than every other there adds an entry to the
set's wake-up stream (:data:`WAKES_KEPT` long; scripts call :data:`WAKE_IF_EARLIER`), which
ends such a sleep: the sleeper blocks in ``XREAD`` on the streams from the newest entries
it saw (:class:`WakeStreams`). A member put in later than the earliest is due no sooner
than it, so the sleep ends in time without a wake-up. The sleep is capped, so a wake-up lost
in a failover delays nothing by more than the cap. Used by the scheduler (control commands)
and the notifier's webhook sender (deliveries).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Sequence
from typing import Any

__all__ = ["WAKES_KEPT", "WAKE_IF_EARLIER", "WakeStreams", "pause_ms", "sleep_or_wake"]

# How many entries a wake-up stream keeps (a sleeper reads only the newest).
WAKES_KEPT = 100

# Lua: wake the sleepers of due set ``due`` (a key) through its stream ``wake`` (a key) when
# ``at`` (ms) is earlier than ``first``, the set's earliest score before the write (false or
# nil: the set was empty). Formatted with the scripts' own expressions for the three.
WAKE_IF_EARLIER = (
    """
if {first} == nil or {first} == false or tonumber({at}) < tonumber({first}) then
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
        for task in (waiting, stopping):
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await waiting
