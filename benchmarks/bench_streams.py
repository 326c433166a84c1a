"""Thousands of Server-Sent Events subscribers on one gateway, and ordinary reads beside them.

    python -m benchmarks streams            # 5,000 streams
    BW_BENCH_STREAMS=1000 python -m benchmarks streams

Starts the whole stack (Redis from ``REDIS_URL`` or a private server, the Freunde engine
service, the projector, one gateway) and, from this process:

* times 300 ordinary reads of a table's view, one at a time, before any stream is open;
* opens N streams on one table (spectator and both seats in turn) over raw sockets, each
  counted once it has received the table's history;
* prints the gateway's memory (RSS) and open file descriptors, and how many Redis clients
  are blocked reading for it (one per shard with subscribers, not one per stream);
* times the same 300 reads with every stream open;
* sends one command and times until every stream has received its event.

The client and every process share this machine's cores; the figures are a floor.
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import httpx
import redis

from gateway.client import BotTable, GatewayClient
from services.redis_server import redis_url_or_private
from tests.e2e.stack import Stack

STREAMS = int(os.environ.get("BW_BENCH_STREAMS", "5000"))
READS = 300
# Connections opened at once while the streams are being set up.
OPENING = 200


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def process_figures(pid: int) -> tuple[float, int]:
    """(RSS in MiB, open file descriptors) of a process."""
    rss_kib = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss_kib = int(line.split()[1])
    return rss_kib / 1024, len(os.listdir(f"/proc/{pid}/fd"))


def blocked_readers(redis_url: str) -> int:
    client = redis.Redis.from_url(redis_url)
    try:
        return sum(1 for c in client.client_list() if c.get("cmd") == "xread" and "b" in c["flags"])
    finally:
        client.close()


async def timed_reads(url: str, table_id: str) -> tuple[float, float]:
    latencies = []
    async with httpx.AsyncClient(base_url=url, timeout=60.0) as http:
        for _ in range(READS):
            started = time.perf_counter()
            reply = await http.get(f"/v1/tables/{table_id}")
            latencies.append(time.perf_counter() - started)
            reply.raise_for_status()
    return percentile(latencies, 0.5), percentile(latencies, 0.99)


class Subscriber:
    """One SSE stream over a raw socket: the newest event id it has read."""

    def __init__(self) -> None:
        self.last_id = 0
        self.moved = asyncio.Event()
        self.writer: asyncio.StreamWriter | None = None

    async def follow(self, port: int, table_id: str, token: str | None) -> None:
        reader, self.writer = await asyncio.open_connection("127.0.0.1", port)
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        self.writer.write(
            f"GET /v1/tables/{table_id}/events/stream HTTP/1.1\r\nHost: bench\r\n{auth}"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        while line := await reader.readline():
            if line.startswith(b"id: "):
                self.last_id = int(line[4:])
                self.moved.set()

    async def wait_for(self, version: int) -> None:
        while self.last_id < version:
            self.moved.clear()
            await self.moved.wait()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def run(stack: Stack, redis_url: str) -> None:
    async with GatewayClient(stack.url) as client:
        await streams(stack, redis_url, client)


async def streams(stack: Stack, redis_url: str, client: GatewayClient) -> None:
    table = await BotTable.open(client, "freunde", 2, bot_seed=1)
    await client.view(table.table_id, min_version=table.version)
    p50, p99 = await timed_reads(stack.url, table.table_id)
    print(f"view reads, no streams         p50 {p50 * 1e3:7.2f} ms   p99 {p99 * 1e3:7.2f} ms")

    viewers = [None, *table.tokens]
    subscribers = [Subscriber() for _ in range(STREAMS)]
    tasks: list[asyncio.Task[None]] = []
    opening = asyncio.Semaphore(OPENING)
    started = time.perf_counter()

    async def open_one(number: int) -> None:
        async with opening:
            sub = subscribers[number]
            tasks.append(
                asyncio.create_task(sub.follow(stack.port, table.table_id, viewers[number % 3]))
            )
            await asyncio.wait_for(sub.wait_for(table.version), timeout=120)

    await asyncio.gather(*(open_one(n) for n in range(STREAMS)))
    opened = time.perf_counter() - started
    rss, fds = process_figures(stack.processes["gateway"].pid)
    print(f"{STREAMS} streams open in {opened:6.1f} s")
    print(f"gateway with {STREAMS} streams    RSS {rss:7.1f} MiB   open fds {fds}")
    print(f"redis clients blocked in XREAD for the gateway: {blocked_readers(redis_url)}")

    p50, p99 = await timed_reads(stack.url, table.table_id)
    print(f"view reads, {STREAMS} streams    p50 {p50 * 1e3:7.2f} ms   p99 {p99 * 1e3:7.2f} ms")

    started = time.perf_counter()
    await table.step()
    await asyncio.wait_for(
        asyncio.gather(*(s.wait_for(table.version) for s in subscribers)), timeout=300
    )
    fanned = time.perf_counter() - started
    print(f"one command to all {STREAMS} streams: {fanned * 1e3:8.1f} ms")
    for sub in subscribers:
        sub.close()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def main() -> None:
    print(f"   starting the stack; {STREAMS} SSE streams on one gateway", flush=True)
    with (
        redis_url_or_private() as redis_url,
        Stack(redis_url, shards=64, log_level="warning") as stack,
    ):
        asyncio.run(run(stack, redis_url))


if __name__ == "__main__":
    main()
