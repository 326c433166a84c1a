"""The lobby listing, ``GET /v1/tables``, at 3,000 and at 30,000 tables.

    python -m benchmarks lobby

Starts the stack (Redis from ``REDIS_URL`` or a private server, the Freunde engine
service, the projector, the gateway), fills the lobby index with synthetic Freunde
tables (a third of them finished) the way the projector records them, and times, one
request at a time over HTTP:

* the first page (``limit=100``), unfiltered and ``status=active``;
* a page deep in the listing (the 50th page of 20, reached by following ``next_cursor``);

and, beside them, the cost of reading the whole lobby and decoding every entry, which
is what each listing request did before the lobby was an index.
"""

from __future__ import annotations

import asyncio
import json
import time

import httpx

from benchmarks.bench_e2e import percentile
from services.eventstore import AnyRedis, connect
from services.projector.lobby import Lobby, entries_key
from services.redis_server import redis_url_or_private
from tests.e2e.stack import Stack

SIZES = (3_000, 30_000)
REQUESTS = 200
CHUNK = 500
# 2026-11-30 00:00 UTC: synthetic tables are "created" a second apart from here.
EPOCH_MS = 1_796_000_000_000


def status(n: int) -> str:
    finished = n % 3 == 0
    doc = {
        "table_id": f"bench-{n:06d}",
        "game": "freunde",
        "seats": 2 + n % 3,
        "created_ms": EPOCH_MS + n * 1000,
        "version": 40 if finished else 12,
        "phase": "finished" if finished else "play",
        "to_act": [] if finished else [n % 2],
        "finished": finished,
        "scores": [n % 7, n % 5],
        "winners": [0] if finished else [],
    }
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


async def fill(lobby: Lobby, first: int, last: int) -> None:
    for start in range(first, last, CHUNK):
        await asyncio.gather(
            *(lobby.record("freunde", status(n)) for n in range(start, min(start + CHUNK, last)))
        )


async def timed(client: httpx.AsyncClient, params: dict[str, str | int]) -> list[float]:
    samples = []
    for _ in range(REQUESTS):
        started = time.perf_counter()
        reply = await client.get("/v1/tables", params=params)
        samples.append(time.perf_counter() - started)
        assert reply.status_code == 200, reply.text
    return samples


async def deep_cursor(client: httpx.AsyncClient, pages: int, limit: int) -> str:
    cursor = None
    for _ in range(pages):
        params: dict[str, str | int] = {"limit": limit}
        if cursor:
            params["cursor"] = cursor
        cursor = (await client.get("/v1/tables", params=params)).json()["next_cursor"]
    assert cursor
    return cursor


async def whole_lobby(redis: AnyRedis, rounds: int = 20) -> list[float]:
    """Read every entry and decode it: what one listing request cost before the index."""
    samples = []
    for _ in range(rounds):
        started = time.perf_counter()
        raw = await redis.hgetall(entries_key("freunde"))
        [json.loads(value) for value in raw.values()]
        samples.append(time.perf_counter() - started)
    return samples


def line(label: str, samples: list[float]) -> str:
    p50, p99 = percentile(samples, 0.5) * 1000, percentile(samples, 0.99) * 1000
    return f"  {label:<44} p50 {p50:7.2f} ms   p99 {p99:7.2f} ms"


async def run(url: str, stack: Stack) -> None:
    redis = await connect(url)
    lobby = Lobby(redis)
    await lobby.drop("freunde")
    filled = 0
    try:
        async with httpx.AsyncClient(base_url=stack.url, timeout=30) as client:
            for size in SIZES:
                await fill(lobby, filled, size)
                filled = size
                print(f"{size:,} tables in the lobby", flush=True)
                print(line("first page, limit=100", await timed(client, {"limit": 100})))
                active: dict[str, str | int] = {"limit": 100, "status": "active"}
                print(line("first page, status=active, limit=100", await timed(client, active)))
                cursor = await deep_cursor(client, 50, 20)
                deep: dict[str, str | int] = {"limit": 20, "cursor": cursor}
                print(line("51st page of 20, by cursor", await timed(client, deep)))
                print(line("reading the whole lobby (the old listing)", await whole_lobby(redis)))
    finally:
        await lobby.drop("freunde")
        await redis.aclose()


def main() -> None:
    with redis_url_or_private() as url, Stack(url, log_level="warning") as stack:
        asyncio.run(run(url, stack))


if __name__ == "__main__":
    main()
