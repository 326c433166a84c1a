"""A group's reader acknowledges a batch with its next read (services/eventstore/groups.py),
against a real Redis."""

from __future__ import annotations

import os

import pytest

from services.eventstore import Acknowledgements, StreamTrimmer, connect
from tests.integration.test_engine_service_support import private_redis_url

pytestmark = [pytest.mark.anyio, pytest.mark.integration]

__all__ = ["private_redis_url"]


async def test_handled_entries_are_acknowledged_by_the_next_read_and_then_trimmable(
    private_redis_url: str,
) -> None:
    redis = await connect(private_redis_url)
    try:
        stream, group = f"acks-{os.urandom(4).hex()}", "readers"
        await redis.xgroup_create(stream, group, id="0", mkstream=True)
        first = [await redis.xadd(stream, {"n": n}) for n in range(3)]
        trimmer = StreamTrimmer(redis, every_s=0)
        acks = Acknowledgements(group, trimmer)

        batch = await acks.read(redis, "me", {stream: ">"}, count=10, block=None)
        assert [entry_id for entry_id, _ in batch[0][1]] == first
        acks.add(stream, first)
        assert acks and (await redis.xpending(stream, group))["pending"] == 3

        later = await redis.xadd(stream, {"n": 3})
        batch = await acks.read(redis, "me", {stream: ">"}, count=10, block=None)
        assert [entry_id for entry_id, _ in batch[0][1]] == [later]
        assert not acks
        assert (await redis.xpending(stream, group))["pending"] == 1
        # Only acknowledged entries are trimmed: the three, not the one still pending.
        assert await trimmer.trim_due() == 3
        assert await redis.xlen(stream) == 1

        acks.add(stream, [later])
        await acks.send(redis)
        assert not acks and (await redis.xpending(stream, group))["pending"] == 0
    finally:
        await redis.aclose()
