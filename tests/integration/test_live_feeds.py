"""The gateway's live readers (:mod:`gateway.live`) against a real Redis: a watch woken by
an entry ends, and stops its feed's reader, at once."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from gateway.live import LiveFeeds
from services.eventstore import connect
from services.shutdown import cancel_and_wait

pytestmark = [pytest.mark.anyio, pytest.mark.integration]

# As the gateway's live readers: blocking reads of 5 s on a client whose socket waits
# longer than one read (so every command it sends goes through ``asyncio.wait_for``).
BLOCK_MS = 5000
# Far longer than a watch takes to end, shorter than a reader that reads on for ever.
NEVER_S = 20.0


async def test_a_watch_woken_by_an_entry_ends_and_stops_its_reader(redis_url: str) -> None:
    """The entry that wakes the last watch of a feed also sends its reader into its next
    blocking read, and the watch's end cancels that read as it is being sent: on CPython
    3.11 that one cancellation was lost and the watch's end waited on a reader that read
    on for ever (a stream that ended was never closed, its reader and connection leaked)."""
    redis = await connect(redis_url, socket_timeout=BLOCK_MS / 1000 + 5)
    prefix = f"live-test-{uuid.uuid4().hex}"
    feeds = LiveFeeds(redis, lambda key: f"{prefix}:{key}", b"table", BLOCK_MS)
    try:
        for n in range(10):
            key = f"p{n}"

            async def woken_then_left(key: str = key) -> None:
                async with feeds.watch(key) as watch:
                    await redis.xadd(f"{prefix}:{key}", {"table": key, "v": 1})
                    await watch.wait_past(0)

            # Not wait_for: on 3.11 it can lose the very cancellation its timeout sends.
            watching = asyncio.create_task(woken_then_left())
            done, _ = await asyncio.wait({watching}, timeout=NEVER_S)
            if not done:
                await cancel_and_wait(watching)
            assert done, f"watch {n} still ending after {NEVER_S} s"
            watching.result()
            assert feeds.counts() == (0, 0, 0)
            assert not [t for t in asyncio.all_tasks() if t.get_name().startswith("live:")]
    finally:
        await feeds.close()
        await redis.aclose()
