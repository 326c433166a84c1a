"""Many script calls in one round trip, for writers that handle many tables at once.

A pipeline sends the calls together and reads the replies together: one system call
each way, one wake-up of the server and (with ``appendfsync always``) one fsync for the
whole batch, instead of one per call. Each call is still one script, atomic on its own;
the batch is not a transaction.

The calls go by ``EVALSHA``; a server that does not hold a script (restarted, failed
over) answers ``NOSCRIPT`` for those calls only, which are sent again once the script is
loaded: a call that ran is never run twice.

:class:`AutoPipeline` gathers calls into such pipelines, as auto-pipelining clients do
(group commit): a call made when nothing is on its way goes at once, alone (one
``EVALSHA``: no pipeline, no task, which a call at a time would pay for); the calls made
while calls are on their way wait for them and then go together, so a thousand tables
appending at the same instant cost two round trips, not a thousand. Under load the
batches grow by themselves, so commands arriving one by one also share round trips and,
under ``appendfsync always``, fsyncs.
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

__all__ = ["AutoPipeline", "ScriptCall", "run_scripts"]

# Calls gathered into one pipeline at most; more wait for the next one.
MAX_BATCH = 1000


@dataclass(frozen=True, slots=True)
class ScriptCall:
    """One call of a registered script."""

    script: AsyncScript
    keys: Sequence[str]
    args: Sequence[Any]


async def run_scripts(redis: AnyRedis, calls: Sequence[ScriptCall]) -> list[Any]:
    """Run ``calls`` in one pipeline, in order; their replies, in the same order. Raises
    the first error a call met.

    A cluster client refuses scripts in pipelines: there the calls run concurrently, each
    its own request, so their order is not kept (the caller waits for every reply).
    """
    if isinstance(redis, RedisCluster):
        return list(await asyncio.gather(*(c.script(keys=c.keys, args=c.args) for c in calls)))
    replies = await _pipelined(redis, calls)
    for reply in replies:
        if isinstance(reply, Exception):
            raise reply
    return replies


async def _pipelined(redis: AnyRedis, calls: Sequence[ScriptCall]) -> list[Any]:
    """Each call's reply, or the error it met, in order (one plain server only)."""
    replies: list[Any] = [None] * len(calls)
    todo = list(range(len(calls)))
    for _ in range(2):
        if not todo:
            break
        async with redis.pipeline(transaction=False) as pipe:
            for n in todo:
                call = calls[n]
                pipe.evalsha(call.script.sha, len(call.keys), *call.keys, *call.args)
            sent: list[Any] = await pipe.execute(raise_on_error=False)
        for n, reply in zip(todo, sent, strict=True):
            replies[n] = reply
        todo = [n for n in todo if _noscript(replies[n])]
        for script in {calls[n].script for n in todo}:
            await redis.script_load(script.script)
    return replies


def _noscript(reply: Any) -> bool:
    return isinstance(reply, NoScriptError) or (
        isinstance(reply, Exception) and str(reply).startswith("NOSCRIPT")
    )


class AutoPipeline:
    """Script calls made in the same turn of the event loop, or while the previous pipeline
    was on its way, sent as one pipeline.

    ``await batcher.call(call)`` returns the call's reply (or raises its error) as if it
    had been sent alone. At most ``max_in_flight`` sends (a lone call or a pipeline) are
    on their way at once; a call made when fewer are, and none waits, goes at once,
    alone. For one plain server; a cluster client sends each call alone.
    """

    def __init__(self, redis: AnyRedis, max_batch: int = MAX_BATCH, max_in_flight: int = 1) -> None:
        if max_in_flight < 1:
            raise ValueError("max_in_flight must be at least 1")
        self.redis = redis
        # Asked once: isinstance against a redis-py client class is a protocol check.
        self._cluster = isinstance(redis, RedisCluster)
        self.max_batch = max_batch
        self.max_in_flight = max_in_flight
        self._waiting: list[tuple[ScriptCall, asyncio.Future[Any]]] = []
        self._sending: set[asyncio.Task[None]] = set()
        # Lone calls on their way, each in its caller's own task.
        self._alone = 0
        self._flush_due = False

    async def call(self, call: ScriptCall) -> Any:
        if self._cluster:
            return await call.script(keys=call.keys, args=call.args)
        if not self._waiting and self._in_flight < self.max_in_flight:
            self._alone += 1
            try:
                return await self._send_alone(call)
            finally:
                self._alone -= 1
                self._schedule()
        reply: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting.append((call, reply))
        self._schedule()
        return await reply

    @property
    def _in_flight(self) -> int:
        return len(self._sending) + self._alone

    async def _send_alone(self, call: ScriptCall) -> Any:
        """One call by ``EVALSHA``; loaded and sent again if the server lost the script
        (``NOSCRIPT``: it did not run)."""
        keys, args = call.keys, call.args
        try:
            return await self.redis.evalsha(call.script.sha, len(keys), *keys, *args)
        except NoScriptError:
            await self.redis.script_load(call.script.script)
            return await self.redis.evalsha(call.script.sha, len(keys), *keys, *args)

    def _schedule(self) -> None:
        """Flush at the next turn of the loop, if there is room for another send."""
        if self._flush_due or not self._waiting or self._in_flight >= self.max_in_flight:
            return
        self._flush_due = True
        asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_due = False
        while self._waiting and self._in_flight < self.max_in_flight:
            batch = self._waiting[: self.max_batch]
            del self._waiting[: self.max_batch]
            task = asyncio.create_task(self._send(batch))
            self._sending.add(task)
            task.add_done_callback(self._sent)

    def _sent(self, task: asyncio.Task[None]) -> None:
        self._sending.discard(task)
        self._schedule()

    async def _send(self, batch: list[tuple[ScriptCall, asyncio.Future[Any]]]) -> None:
        try:
            replies = await _pipelined(self.redis, [call for call, _ in batch])
        except BaseException as failed:
            # The connection failed: every call of the batch may or may not have run,
            # exactly as a call sent alone whose reply was lost.
            for _, reply in batch:
                if not reply.done():
                    reply.set_exception(failed)
            if not isinstance(failed, Exception):
                raise
            return
        for (_, reply), value in zip(batch, replies, strict=True):
            if reply.done():
                continue  # the caller was cancelled
            if isinstance(value, Exception):
                reply.set_exception(value)
            else:
                reply.set_result(value)
