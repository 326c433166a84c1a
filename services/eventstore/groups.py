"""Consumer groups of the streams: what every reader of a stream group needs."""

from __future__ import annotations

from typing import Any

__all__ = ["forget_idle_consumers"]


async def forget_idle_consumers(redis: Any, stream: str, group: str, idle_ms: int) -> int:
    """Delete the group's consumers that hold nothing and were idle ``idle_ms``.

    Every process joins under a fresh name, so without this the names of stopped
    processes would pile up in the group forever.
    """
    forgotten = 0
    for consumer in await redis.xinfo_consumers(stream, group):
        if int(consumer["pending"]) == 0 and int(consumer["idle"]) > idle_ms:
            await redis.xgroup_delconsumer(stream, group, consumer["name"])
            forgotten += 1
    return forgotten
