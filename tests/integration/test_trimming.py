"""Queues that do not grow for ever: feeds and inboxes trimmed only below what every
consumer group has acknowledged, dead letters bounded."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from services.engine.consumer import CommandConsumer, ConsumerSettings, consumer_group
from services.engine.host import TableHost
from services.eventstore import EventStore, StreamTrimmer
from tests.integration.test_engine_service_support import (
    FREUNDE,
    SHARDS,
    create_request,
    engine_process,
    envelope,
    opened_store,
    private_redis_url,
    scripted_game,
)

pytestmark = [pytest.mark.anyio, pytest.mark.integration]

__all__ = ["private_redis_url"]


@pytest.fixture
async def store(private_redis_url: str) -> AsyncIterator[EventStore]:
    async with opened_store(private_redis_url) as opened:
        yield opened


async def ids(store: EventStore, stream: str) -> list[Any]:
    return [entry_id for entry_id, _ in await store.redis.xrange(stream) or []]


async def test_a_stream_is_trimmed_only_below_what_every_group_acknowledged(
    store: EventStore, table_id: str
) -> None:
    """One group done, another behind with entries pending: only what both acknowledged
    goes; once the slow group acknowledges, the rest up to its position goes too."""
    stream = f"bw:{{trim}}:{table_id}"
    redis = store.redis
    added = [await redis.xadd(stream, {"n": n}) for n in range(10)]
    trimmer = StreamTrimmer(redis)
    assert await trimmer.trim(stream) == 0  # no group has said what it no longer needs

    await redis.xgroup_create(stream, "fast", id="0")
    await redis.xgroup_create(stream, "slow", id="0")
    await redis.xreadgroup("fast", "f", {stream: ">"})
    await redis.xack(stream, "fast", *added)
    await redis.xreadgroup("slow", "s", {stream: ">"}, count=6)
    await redis.xack(stream, "slow", *added[:3], added[4])
    assert await trimmer.trim(stream) == 3
    assert await ids(store, stream) == added[3:]  # entry 3 is still pending for "slow"

    await redis.xack(stream, "slow", added[3], added[5])
    assert await trimmer.trim(stream) == 2
    # "slow" has read up to entry 5 and acknowledged it; 6 to 9 it has not read yet.
    assert await ids(store, stream) == added[5:]
    assert await trimmer.trim(stream) == 0


async def test_the_noted_streams_are_trimmed_together_at_most_once_a_period(
    store: EventStore, table_id: str
) -> None:
    """trim_due trims every noted stream whose last trim is a period old, and only
    those: a stream trimmed just now, or never noted, keeps its entries."""
    redis = store.redis
    streams = [f"bw:{{trim}}:{table_id}:{n}" for n in range(3)]
    for stream in streams:
        added = [await redis.xadd(stream, {"n": n}) for n in range(4)]
        await redis.xgroup_create(stream, "all", id="0")
        await redis.xreadgroup("all", "a", {stream: ">"})
        await redis.xack(stream, "all", *added)
    trimmer = StreamTrimmer(redis, every_s=3600)
    trimmer.acknowledged(streams[0])
    trimmer.acknowledged(streams[1])
    # Each keeps its last delivered entry (see the script), so three of four go.
    assert await trimmer.trim_due() == 6
    assert [len(await ids(store, stream)) for stream in streams] == [1, 1, 4]

    more = await redis.xadd(streams[0], {"n": 4})
    await redis.xreadgroup("all", "a", {streams[0]: ">"})
    await redis.xack(streams[0], "all", more)
    trimmer.acknowledged(streams[0])
    assert await trimmer.trim_due() == 0  # trimmed within the hour: not yet
    trimmer.every_s = 0
    assert await trimmer.trim_due() == 1
    assert await trimmer.trim_due() == 0  # nothing noted since
    assert trimmer.removed == 7


async def test_the_engine_service_trims_its_inbox_after_acknowledging(
    private_redis_url: str, store: EventStore, table_id: str
) -> None:
    """A whole game sent through the inbox leaves no more than one entry behind."""
    host = TableHost(store, FREUNDE)
    await host.create_table(create_request(table_id))
    game = scripted_game(table_id)
    inbox = store.keys(table_id).cmd
    with engine_process(private_redis_url, "freunde", BW_LEASE_MS="1000"):
        for n, (seat, command) in enumerate(game):
            env = envelope(table_id, f"c{n}", seat, command)
            await store.redis.xadd(inbox, {"env": env.SerializeToString(), "game": "freunde"})
        deadline = time.monotonic() + 60
        while await store.outcome(table_id, game[-1][0], f"c{len(game) - 1}") is None or (
            await store.redis.xlen(inbox) > 1
        ):
            assert time.monotonic() < deadline, "the inbox was never trimmed"
            await asyncio.sleep(0.05)
    (group,) = await store.redis.xinfo_groups(inbox)
    assert group["name"] == consumer_group("freunde").encode()
    assert int(group["pending"]) == 0
    assert len(await store.read(table_id)) > len(game)


async def test_dead_letters_keep_only_the_newest(store: EventStore, table_id: str) -> None:
    """However many commands fail, a shard keeps ``dead_letters_max`` of them, the newest."""
    host = TableHost(store, FREUNDE)
    inbox = store.keys(table_id).cmd
    for n in range(12):
        last = await store.redis.xadd(inbox, {"env": b"\xff%d" % n, "game": "freunde"})
    consumer = CommandConsumer(
        store.redis,
        host,
        SHARDS,
        ConsumerSettings(lease_ms=1000, block_ms=10, poll_ms=5, dead_letters_max=5),
    )
    await consumer.ensure_groups()
    try:
        for _ in range(200):
            (group,) = await store.redis.xinfo_groups(inbox)
            if group["last-delivered-id"] == last and not int(group["pending"]):
                break
            await consumer.step()
    finally:
        await consumer.release_all()
    letters: list[Any] = await store.redis.xrange(store.keys(table_id).dead) or []
    assert [fields[b"env"] for _, fields in letters] == [b"\xff%d" % n for n in range(7, 12)]
