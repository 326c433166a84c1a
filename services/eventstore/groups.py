"""Consumer groups of the streams: what every reader of a stream group needs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["forget_idle_consumers"]


async def forget_idle_consumers(
    redis: Any, streams: Sequence[str], group: str, idle_ms: int
) -> int:
    """Delete the group's consumers of ``streams`` that hold nothing and were idle
    ``idle_ms``; returns how many.

    Every process joins under a fresh name, so without this the names of stopped
    processes would pile up in the group forever. The streams' consumers are listed in
    one round trip (a cluster client splits it by node): a reader asks about all its
    streams at once, and one round trip a stream stalled its loop for dozens of fsyncs.
    """
    async with redis.pipeline(transaction=False) as pipe:
        for stream in streams:
            pipe.xinfo_consumers(stream, group)
        listed: list[Any] = await pipe.execute()
    forgotten = 0
    for stream, consumers in zip(streams, listed, strict=True):
        for consumer in consumers:
            if int(consumer["pending"]) == 0 and int(consumer["idle"]) > idle_ms:
                await redis.xgroup_delconsumer(stream, group, consumer["name"])
                forgotten += 1
    return forgotten
