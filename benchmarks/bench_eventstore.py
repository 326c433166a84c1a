"""Event-store appends per second beside their ceiling on the same server, same run.

    python -m benchmarks eventstore

Uses ``REDIS_URL`` when set, else a private server (AOF, ``appendfsync always``). Four
figures, each measured for a fixed time budget (about 25 s in all), each with the CPU
this process (the client) and the Redis server (when it runs here) spent per append:

* raw: pipelined ``XADD`` of the same event bytes to one stream, 1,000 per round trip.
* ceiling: the store's own append script with the same argument sizes (keys, command
  field, head, outcome, event bytes), 1,000 per pipeline from the same client library,
  spread over 1,000 tables: what this server and client can do with these guarantees.
* 1 table: one writer appending one-event commands one after the other (each waits for
  its reply, as a client waits for its command's outcome).
* 1,000 tables: one writer per table, all concurrent on one asyncio loop (the store
  gathers the appends made at the same instant into one pipeline).

Each append is one Lua script that checks the head and the command id, writes the table
stream and the shard feed (two XADDs), the head and the idempotency record; the ratio of
the store's appends to the ceiling is the price of calling it one command at a time.
``BW_BENCH_QUICK=1`` shortens every budget to a third.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import time
import uuid
from collections.abc import Awaitable, Callable

from benchmarks.cpu import CpuMeter, redis_pid
from engines.core.hashchain import seal_all
from proto import common_pb2
from services.eventstore import (
    AnyRedis,
    CommandKey,
    EventStore,
    Head,
    ScriptCall,
    connect,
    run_scripts,
)
from services.redis_server import redis_url_or_private

_SCALE = 1 / 3 if os.environ.get("BW_BENCH_QUICK") else 1.0
RAW_SECONDS = 3.0 * _SCALE
CEILING_SECONDS = 5.0 * _SCALE
ONE_TABLE_SECONDS = 5.0 * _SCALE
MANY_TABLES_SECONDS = 7.0 * _SCALE
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


async def ceiling_rate(store: EventStore, prefix: str) -> float:
    """The append script itself, pipelined: each call a real append (head checked, two
    XADDs, head and command id recorded) of an event as large as the store's."""
    table_ids = [f"{prefix}-ceiling-{i}" for i in range(TABLES)]
    heads = list(await asyncio.gather(*(new_table(store, t) for t in table_ids)))
    script = store.append_script
    draft = sample_event(1)
    draft.version, draft.command_id = 2, "c1"
    event = seal_all([draft], bytes(32))[0].SerializeToString(deterministic=True)
    n = 0

    async def batch() -> int:
        nonlocal n
        calls = []
        for i, table_id in enumerate(table_ids):
            n += 1
            keys = store.keys(table_id)
            head = heads[i]
            after = hashlib.sha256(head.hash).digest()
            key = _key(n)
            calls.append(
                ScriptCall(
                    script,
                    [keys.meta, keys.events, keys.cmds, keys.feed],
                    [
                        table_id,
                        key.field,
                        head.version,
                        head.hash,
                        after,
                        key.fingerprint + b"a:%d:%d" % (head.version + 1, head.version + 1),
                        event,
                    ],
                )
            )
            heads[i] = Head(head.version + 1, after)
        replies = await run_scripts(store.redis, calls)
        if any(reply[0] != b"ok" for reply in replies):
            raise RuntimeError(f"the append script refused: {replies[0]!r}")
        return len(calls)

    return await timed(CEILING_SECONDS, batch)


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
    made = [f"{prefix}-solo", *(f"{prefix}-{i}" for i in range(TABLES))]
    for table_id in [*made, *(f"{prefix}-ceiling-{i}" for i in range(TABLES))]:
        keys = store.keys(table_id)
        await store.redis.delete(keys.events, keys.meta, keys.cmds)
        await store.redis.srem(keys.tables, table_id)


async def run(url: str) -> None:
    pid = redis_pid(url)
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
        meter = CpuMeter({"client": os.getpid(), **({"redis": pid} if pid else {})})

        async def measured(title: str, run: Awaitable[float]) -> float:
            print(f"{title} ...", flush=True)
            meter.start()
            rate = await run
            spent = meter.stop()
            cpu = "  ".join(
                f"{name} {seconds * 1e6 / max(1.0, rate * meter.elapsed):.0f}"
                for name, seconds in spent.items()
            )
            print(f"  {rate:12,.0f} /s   CPU us per append: {cpu}", flush=True)
            return rate

        raw = await measured(
            f"raw pipelined XADD ({RAW_SECONDS:.0f} s)",
            raw_xadd_rate(redis, f"bw:{{bench}}:{prefix}:raw"),
        )
        ceiling = await measured(
            f"ceiling: the append script pipelined, {PIPELINE:,} a round trip,"
            f" {TABLES:,} tables ({CEILING_SECONDS:.0f} s)",
            ceiling_rate(store, prefix),
        )
        print(f"                 ratio to raw XADD {ceiling / raw:.3f}", flush=True)
        solo = await measured(
            f"append, 1 table, sequential ({ONE_TABLE_SECONDS:.0f} s)",
            one_table_rate(store, prefix),
        )
        print(f"                 ratio to the ceiling {solo / ceiling:.3f}", flush=True)
        many = await measured(
            f"append, {TABLES:,} tables, concurrent ({MANY_TABLES_SECONDS:.0f} s)",
            many_tables_rate(store, prefix),
        )
        print(
            f"                 ratio to the ceiling {many / ceiling:.3f}"
            f" (to raw XADD {many / raw:.3f})",
            flush=True,
        )
    finally:
        if os.environ.get("REDIS_URL"):
            await drop_tables(store, prefix)
        await redis.aclose()


def main() -> None:
    with redis_url_or_private() as url:
        asyncio.run(run(url))


if __name__ == "__main__":
    main()
