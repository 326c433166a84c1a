"""Many script calls in one round trip, for writers that handle a batch of tables at once.

A pipeline sends the calls together and reads the replies together: one system call
each way and one wake-up of the server for the whole batch, instead of one per call.
The calls go by ``EVALSHA``; a server that does not hold a script (restarted, failed
over) answers ``NOSCRIPT`` for those calls only, so the scripts are loaded and the
batch is sent again. Only scripts whose second run changes nothing may go through
here (every write the projector makes moves forward only, so it qualifies). Calls
that must happen after others go in a later batch.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript
from redis.exceptions import NoScriptError

from services.eventstore.connection import AnyRedis

__all__ = ["ScriptCall", "run_scripts"]


@dataclass(frozen=True, slots=True)
class ScriptCall:
    """One call of a registered script."""

    script: AsyncScript
    keys: Sequence[str]
    args: Sequence[Any]


async def run_scripts(redis: AnyRedis, calls: Sequence[ScriptCall]) -> list[Any]:
    """Run ``calls`` in one pipeline, in order; their replies, in the same order.

    A cluster client refuses scripts in pipelines: there the calls run concurrently, each
    its own request, so their order is not kept (the caller waits for every reply).
    """
    if not calls:
        return []
    if isinstance(redis, RedisCluster):
        return list(await asyncio.gather(*(c.script(keys=c.keys, args=c.args) for c in calls)))
    for _ in range(2):
        async with redis.pipeline(transaction=False) as pipe:
            for call in calls:
                pipe.evalsha(call.script.sha, len(call.keys), *call.keys, *call.args)
            replies: list[Any] = await pipe.execute(raise_on_error=False)
        lost = {call.script for call, reply in zip(calls, replies, strict=True) if _noscript(reply)}
        if not lost:
            break
        for script in lost:
            await redis.script_load(script.script)
    for reply in replies:
        if isinstance(reply, Exception):
            raise reply
    return replies


def _noscript(reply: Any) -> bool:
    return isinstance(reply, NoScriptError) or (
        isinstance(reply, Exception) and str(reply).startswith("NOSCRIPT")
    )
