"""Event-store appends per second beside raw pipelined XADD on the same server, same run.

    python -m benchmarks eventstore

Uses ``REDIS_URL`` when set, else a private server (AOF, ``appendfsync always``). Three
figures, each measured for a fixed time budget (about 20 s in all):

* raw: pipelined ``XADD`` of the same event bytes to one stream, 1,000 per round trip;
  the ceiling of what the server can ingest.
* 1 table: one writer appending one-event commands one after the other (each waits for
  its reply, as a client waits for its command's outcome).
* 1,000 tables: one writer per table, all concurrent on one asyncio loop.

Each append is one Lua script that checks the head and the command id, writes the table
stream and the shard feed (two XADDs), the head and the idempotency record, so the ratio
to raw XADD shows the price of those guarantees.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import time
import uuid
from collections.abc import Awaitable, Callable

from proto import common_pb2
from services.eventstore import AnyRedis, CommandKey, EventStore, Head, connect
from services.redis_server import redis_url_or_private

RAW_SECONDS = 3.0
ONE_TABLE_SECONDS = 5.0
MANY_TABLES_SECONDS = 7.0
TABLES = 1_000
PIPELINE = 1_000
PAYLOAD = bytes(range(64))


def _key(n: int) -> CommandKey:
    """Command ``c<n>`` of seat 0 (its fingerprint stands in for the command's)."""
    return CommandKey(0, f"c{n}", hashlib.sha256(b"%d" % n).digest())


def sample_event(n: int) -> common_pb2.StoredEvent:
    return common_pb2.StoredEvent(seat=n % 4, time_ms=1_700_000_000_000 + n, payload=PAYLOAD)


async def timed(seconds: float, step: Callable[[], Awaitable[int]]) -> float:
    """Run ``step`` (returning how many operations it did) until time is up; ops per second."""
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        done += await step()
    return done / (time.perf_counter() - start)


async def raw_xadd_rate(redis: AnyRedis, key: str) -> float:
    event = sample_event(0).SerializeToString(deterministic=True)

    async def batch() -> int:
        pipe = redis.pipeline(transaction=False)
        for _ in range(PIPELINE):
            pipe.xadd(key, {"e": event})
        await pipe.execute()
        return PIPELINE

    try:
        return await timed(RAW_SECONDS, batch)
    finally:
        await redis.delete(key)


async def new_table(store: EventStore, table_id: str) -> Head:
    meta = common_pb2.TableMeta(table_id=table_id, game="bench", seats=4)
    return (await store.create_table(meta, b"seed", [])).head


async def one_table_rate(store: EventStore, prefix: str) -> float:
    table_id = f"{prefix}-solo"
    head = await new_table(store, table_id)
    n = 0

    async def one_append() -> int:
        nonlocal head, n
        n += 1
        head = (await store.append(table_id, _key(n), head, [sample_event(n)])).head
        return 1

    return await timed(ONE_TABLE_SECONDS, one_append)


async def many_tables_rate(store: EventStore, prefix: str) -> float:
    table_ids = [f"{prefix}-{i}" for i in range(TABLES)]
    heads = await asyncio.gather(*(new_table(store, t) for t in table_ids))
    deadline = time.perf_counter() + MANY_TABLES_SECONDS

    async def writer(table_id: str, head: Head) -> int:
        n = 0
        while time.perf_counter() < deadline:
            n += 1
            head = (await store.append(table_id, _key(n), head, [sample_event(n)])).head
        return n

    start = time.perf_counter()
    counts = await asyncio.gather(*(writer(t, h) for t, h in zip(table_ids, heads, strict=True)))
    return sum(counts) / (time.perf_counter() - start)


async def drop_tables(store: EventStore, prefix: str) -> None:
    """On a shared server, remove the tables this run made (their feed entries stay)."""
    for table_id in [f"{prefix}-solo", *(f"{prefix}-{i}" for i in range(TABLES))]:
        keys = store.keys(table_id)
        await store.redis.delete(keys.events, keys.meta, keys.cmds)
        await store.redis.srem(keys.tables, table_id)


async def run(url: str) -> None:
    redis = await connect(url)
    store = EventStore(redis)
    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    try:
        info = await redis.info("server")
        fsync = {str(k): v for k, v in (await redis.config_get("appendfsync")).items()}
        print(
            f"server {info.get('redis_version')} appendfsync={fsync.get('appendfsync')!r} "
            f"waitaof={await store.waits_for_aof()}",
            flush=True,
        )
        print(f"raw pipelined XADD ({RAW_SECONDS:.0f} s) ...", flush=True)
        raw = await raw_xadd_rate(redis, f"bw:{{bench}}:{prefix}:raw")
        print(f"  {raw:12,.0f} XADD/s", flush=True)
        print(f"append, 1 table, sequential ({ONE_TABLE_SECONDS:.0f} s) ...", flush=True)
        solo = await one_table_rate(store, prefix)
        print(f"  {solo:12,.0f} appends/s   ratio to raw XADD {solo / raw:.3f}", flush=True)
        print(
            f"append, {TABLES:,} tables, concurrent ({MANY_TABLES_SECONDS:.0f} s) ...", flush=True
        )
        many = await many_tables_rate(store, prefix)
        print(f"  {many:12,.0f} appends/s   ratio to raw XADD {many / raw:.3f}", flush=True)
    finally:
        if os.environ.get("REDIS_URL"):
            await drop_tables(store, prefix)
        await redis.aclose()


def main() -> None:
    with redis_url_or_private() as url:
        asyncio.run(run(url))


if __name__ == "__main__":
    main()
