"""CPU per command of the processes behind the engine: the projector and the notifier
catching up on a prepared log, and Redis serving them.

    python -m benchmarks pipeline

Plays ``BW_BENCH_TABLES`` (default 100) two-player Freunde tables of two people each
through an in-process engine host, one command per table in turn (as concurrent tables
interleave in the shard feeds), on a private Redis. Then the projector catches up
(``BW_BENCH_BATCH`` feed entries a read, default 100), then the notifier; each one's
CPU (``time.process_time``) and Redis's (``/proc``) are divided by the commands. Nothing
else runs, so the figures move little with the machine's load, unlike ``bench_e2e``'s;
the rate of a real stack decides how many commands a batch holds, which this fixes.
"""

from __future__ import annotations

import asyncio
import os
import random
import time

from benchmarks.cpu import cpu_seconds, redis_pid
from services.engine.host import TableHost
from services.logs import configure_logging
from services.notifications import PlayerInbox, Webhooks
from services.notifier import Deriver
from services.projector.projector import Projector
from services.redis_server import RedisServer
from services.seating import STARTED, Roster, RosterStore, Seat
from tests.integration.test_engine_service_support import (
    FREUNDE,
    create_request,
    envelope,
    open_host,
)

TABLES = int(os.environ.get("BW_BENCH_TABLES", "100"))
BATCH = int(os.environ.get("BW_BENCH_BATCH", "100"))


async def play_in_turn(host: TableHost, table_ids: list[str]) -> int:
    """One command per unfinished table in turn, until every game is over."""
    choosers = {table_id: random.Random(n) for n, table_id in enumerate(table_ids)}
    playing, sent = list(table_ids), 0
    while playing:
        for table_id in list(playing):
            loaded = await host.load(table_id)
            outcome = FREUNDE.outcome(loaded.state)
            if outcome.finished:
                playing.remove(table_id)
                continue
            seat = outcome.to_act[0]
            command = choosers[table_id].choice(FREUNDE.legal_commands(loaded.state, seat))
            await host.execute(envelope(table_id, f"c{sent}", seat, command))
            sent += 1
    return sent


async def measure(url: str) -> None:
    host = await open_host(url)
    store = host.store
    seating = RosterStore(store.redis, store.shards)
    table_ids = [f"pipe-{n}-{os.urandom(3).hex()}" for n in range(TABLES)]
    for n, table_id in enumerate(table_ids):
        await host.create_table(create_request(table_id))
        people = (Seat(player=f"guest:a{n}", name="A"), Seat(player=f"guest:b{n}", name="B"))
        await seating.create(Roster(table_id, "freunde", people, state=STARTED))
    commands = await play_in_turn(host, table_ids)
    server = redis_pid(url)
    projector = Projector(store, name="bench", batch=BATCH, block_ms=10)
    notifier = Deriver(
        store,
        PlayerInbox(store.redis, store.shards, kept=10_000),
        Webhooks(store.redis),
        name="bench",
        batch=BATCH,
        block_ms=10,
    )
    await projector.ensure_groups()
    await notifier.ensure_groups()
    figures = []
    for name, step in (("projector", projector.step), ("notifier", notifier.step)):
        redis_before = cpu_seconds(server) if server else 0.0
        before = time.process_time()
        while await step():
            pass
        spent = time.process_time() - before
        redis_spent = (cpu_seconds(server) if server else 0.0) - redis_before
        figures.append(f"{name} {1000 * spent / commands:.3f}")
        figures.append(f"Redis for it {1000 * redis_spent / commands:.3f}")
    print(
        f"{TABLES} tables, {commands} commands, batches of {BATCH};"
        f" CPU ms/command: {', '.join(figures)}; notifications {notifier.published}",
        flush=True,
    )
    await store.redis.aclose()


def main() -> None:
    # The notifier logs every notification at info: hundreds of lines that would bury
    # the figures.
    configure_logging("bench", "warning")
    with RedisServer() as server:
        asyncio.run(measure(server.url))


if __name__ == "__main__":
    main()
