"""Consumer groups of the streams: what every reader of a stream group needs."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from services.eventstore.connection import is_redis_trouble
from services.eventstore.trim import StreamTrimmer
from services.logs import get_logger

__all__ = ["Acknowledgements", "forget_idle_consumers"]

log = get_logger("eventstore.groups")


class Acknowledgements:
    """The entries a group's reader has handled and not yet acknowledged, by stream, sent
    with the reader's next read.

    Under ``appendfsync always`` every round trip that writes waits for the server's
    fsync, and a read from a group writes too (the server logs each delivery). So a
    reader acknowledges a batch in the pipeline of its next ``XREADGROUP``, which the
    server runs before the read blocks: one round trip and one fsync a batch fewer, and
    never an acknowledgement before the batch's own writes (add a batch only once they
    are done). A reader that stops sends what is left (:meth:`send_before_stopping`);
    one that dies leaves it pending, for whichever reader reclaims it.
    """

    def __init__(self, group: str, trimmer: StreamTrimmer) -> None:
        self.group = group
        self.trimmer = trimmer
        self._ids: dict[str, list[Any]] = {}

    def __bool__(self) -> bool:
        return bool(self._ids)

    def add(self, stream: str, entry_ids: Iterable[Any]) -> None:
        """``entry_ids`` of ``stream`` are handled: acknowledge them with the next read."""
        self._ids.setdefault(stream, []).extend(entry_ids)

    def queue(self, pipe: Any) -> None:
        """Put the acknowledgements in ``pipe``; call :meth:`sent` once it has run."""
        for stream, entry_ids in self._ids.items():
            pipe.xack(stream, self.group, *entry_ids)

    def sent(self) -> None:
        for stream in self._ids:
            self.trimmer.acknowledged(stream)
        self._ids.clear()

    async def send(self, redis: Any) -> None:
        """Acknowledge in a round trip of their own."""
        if not self._ids:
            return
        async with redis.pipeline(transaction=False) as pipe:
            self.queue(pipe)
            await pipe.execute()
        self.sent()

    async def send_before_stopping(self, redis: Any) -> None:
        """:meth:`send`, for a reader that stops: with Redis in trouble they stay pending,
        and whichever reader reclaims them handles them again, which changes nothing."""
        try:
            await self.send(redis)
        except Exception as trouble:
            if not is_redis_trouble(trouble):
                raise
            log.warning("group.left_unacknowledged", group=self.group, error=str(trouble))

    async def read(
        self,
        redis: Any,
        consumer: str,
        streams: Mapping[str, str],
        count: int,
        block: int | None,
    ) -> Any:
        """``XREADGROUP`` of ``streams`` (stream: start id) as ``consumer``, with the
        acknowledgements waiting in front of it in the same round trip; its reply. Kept
        for the next read if the round trip fails (an acknowledgement sent twice changes
        nothing). One server only: a cluster cannot pipeline keys of several nodes."""
        if not self._ids:
            return await redis.xreadgroup(self.group, consumer, streams, count=count, block=block)
        async with redis.pipeline(transaction=False) as pipe:
            self.queue(pipe)
            pipe.xreadgroup(self.group, consumer, streams, count=count, block=block)
            replies: list[Any] = await pipe.execute()
        self.sent()
        return replies[-1]


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
