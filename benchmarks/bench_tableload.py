"""Loading a table into an engine service, against the length of its log.

    python -m benchmarks tableload

An engine service that does not hold a table (a restart, another replica's table, a
table evicted from its cache) loads it: meta and seed, the newest snapshot, and the
events after it. Snapshots are written every 64 versions, so the load reads at most 64
events whatever the log's length. Measured here, on Redis from ``REDIS_URL`` or a
private AOF server:

* a Freunde table played by random bots to about 1,000 events, loaded with its snapshot,
  and folded from its whole log with the snapshot removed (what snapshots save);
* the same game at the end of a log of 100,000 events: the table's stream holds 99,000
  entries before it, numbered before its events, which a load never reads (the point
  being measured: only the snapshot and the events after it are read, so the entries
  before them may as well be any events).

Each figure is the median of ``LOADS`` loads by a fresh loader (nothing cached), wall
time and this process's CPU time.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time
import uuid

import engines
from engines.core.play import fold_stored
from gateway.client import game_bot
from proto import common_pb2, engine_pb2
from services.engine.host import TableHost
from services.engine.tables import TableLoader
from services.eventstore import EventStore, connect
from services.logs import configure_logging
from services.redis_server import redis_url_or_private

ENGINE = engines.get("freunde")
EVENTS = 1_000
LONG = 100_000
LOADS = 10 if os.environ.get("BW_BENCH_QUICK") else 30
CHUNK = 5_000


async def play(host: TableHost, table_id: str) -> int:
    """Play random bots on a new table until it has about EVENTS events; its head."""
    await host.create_table(
        engine_pb2.CreateTableRequest(table_id=table_id, seats=2, seed=b"load-bench")
    )
    bot = game_bot(ENGINE, "random", 1)
    sent = 0
    while True:
        loaded = await host.load(table_id)
        outcome = ENGINE.outcome(loaded.state)
        if loaded.version >= EVENTS or outcome.finished:
            return loaded.version
        seat = outcome.to_act[0]
        command = bot.choose(ENGINE, loaded.state, seat)
        sent += 1
        await host.execute(
            common_pb2.CommandEnvelope(
                table_id=table_id,
                command_id=f"c{sent}",
                seat=seat,
                payload=command.SerializeToString(),
            )
        )


async def lengthen(store: EventStore, source: str, target: str, length: int) -> None:
    """``target``: ``source``'s game and snapshot at the end of a log of ``length`` events."""
    events = await store.read(source)
    pad = length - len(events)
    dst = store.keys(target)
    filler = events[-1].SerializeToString()
    redis = store.redis
    for start in range(1, pad + 1, CHUNK):
        async with redis.pipeline(transaction=False) as pipe:
            for version in range(start, min(pad, start + CHUNK - 1) + 1):
                pipe.xadd(dst.events, {"e": filler}, id=f"{version}-1")
            await pipe.execute()
    async with redis.pipeline(transaction=False) as pipe:
        for event in events:
            moved = common_pb2.StoredEvent()
            moved.CopyFrom(event)
            moved.version += pad
            pipe.xadd(dst.events, {"e": moved.SerializeToString()}, id=f"{moved.version}-1")
        await pipe.execute()
    moved_meta, seed = await store.meta_and_seed(source)
    moved_meta.table_id = target
    head = await store.head(source)
    await redis.hset(
        dst.meta,
        mapping={
            "meta": moved_meta.SerializeToString(),
            "seed": seed,
            "game": ENGINE.info.game,
            "version": len(events) + pad,
            "hash": head.hash,
        },
    )
    snapshot = await store.load_snapshot(source)
    if snapshot is None:
        raise RuntimeError("the played table has no snapshot")
    await store.save_snapshot(target, snapshot[0] + pad, snapshot[1])


async def timed_loads(store: EventStore, table_id: str) -> tuple[float, float, int]:
    """Median wall and CPU seconds of a cold load, and its version."""
    walls: list[float] = []
    cpus: list[float] = []
    version = 0
    for _ in range(LOADS):
        loader = TableLoader(store, ENGINE)  # fresh: nothing cached (made outside the timer)
        wall, cpu = time.perf_counter(), time.process_time()
        loaded = await loader.load(table_id)
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - wall)
        version = loaded.version
    return statistics.median(walls), statistics.median(cpus), version


async def run(url: str) -> None:
    redis = await connect(url)
    store = EventStore(redis, shards=16)
    host = TableHost(store, ENGINE)
    prefix = f"load-{uuid.uuid4().hex[:8]}"
    short, long = f"{prefix}-short", f"{prefix}-long"
    try:
        started = time.perf_counter()
        head = await play(host, short)
        print(f"   played {head} events in {time.perf_counter() - started:.1f} s", flush=True)
        await lengthen(store, short, long, LONG)
        for title, table_id in ((f"{head:,} events", short), (f"{LONG:,} events", long)):
            wall, cpu, version = await timed_loads(store, table_id)
            print(
                f"load, log of {title:>14}, snapshot:   {wall * 1e3:6.2f} ms"
                f"  ({cpu * 1e3:5.2f} ms CPU here; head {version})",
                flush=True,
            )
        await redis.delete(store.keys(short).snap)
        wall, cpu, _ = await timed_loads(store, short)
        print(
            f"load, log of {f'{head:,} events':>14}, no snapshot: {wall * 1e3:6.2f} ms"
            f"  ({cpu * 1e3:5.2f} ms CPU here; the whole log folded)",
            flush=True,
        )
        check = fold_stored(ENGINE, ENGINE.initial_state(), await store.read(short))
        if ENGINE.outcome(check) != ENGINE.outcome(
            (await TableLoader(store, ENGINE).load(long)).state
        ):
            raise RuntimeError("the long table does not hold the same game")
    finally:
        if os.environ.get("REDIS_URL"):
            for table_id in (short, long):
                keys = store.keys(table_id)
                await redis.delete(keys.events, keys.meta, keys.cmds, keys.snap)
        await redis.aclose()


def main() -> None:
    configure_logging("bench", "warning")
    with redis_url_or_private() as url:
        asyncio.run(run(url))


if __name__ == "__main__":
    main()
