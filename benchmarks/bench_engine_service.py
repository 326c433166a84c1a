"""Engine service over gRPC: commands per second and latency, beside the raw Redis round trip.

A private Redis (AOF, ``appendfsync always``: every acknowledged command is on disk) and
one ``python -m services.engine`` process; this process is the client. Each table replays
a Freunde game chosen beforehand by a seeded random bot, one command at a time (a player
waits for the reply before the next move); tables run concurrently.
"""

from __future__ import annotations

import asyncio
import os
import signal
import statistics
import subprocess
import sys
import time
import zlib
from pathlib import Path
from typing import Any

import grpc
import redis.asyncio as aioredis
from grpc_health.v1 import health_pb2, health_pb2_grpc

import engines
from engines.core.contract import TableConfig
from engines.core.play import Table
from gateway.client import game_bot
from proto import common_pb2, engine_pb2, engine_pb2_grpc
from services.eventstore import EventStore, connect
from services.projector.projector import Projector
from services.redis_server import RedisServer, free_port

ROUND_LIMIT = 3
SEED = bytes(32)
FREUNDE = engines.get("freunde")


def scripted(table_id: str, limit: int) -> list[tuple[int, bytes]]:
    table = Table.create(FREUNDE, TableConfig(table_id, 2, {"round_limit": ROUND_LIMIT}), SEED)
    bot = game_bot(FREUNDE, "random", zlib.crc32(table_id.encode()))
    table.play(lambda t, seat: bot.choose(FREUNDE, t.state, seat))
    return [(r.seat, r.command.SerializeToString()) for r in table.commands][:limit]


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def redis_round_trip(url: str, n: int = 2000) -> list[float]:
    client = aioredis.Redis.from_url(url)
    samples = []
    for _ in range(n):
        started = time.perf_counter()
        await client.ping()
        samples.append(time.perf_counter() - started)
    await client.aclose()
    return samples


async def run_tables(
    stub: Any, tables: int, limit: int, tag: str
) -> tuple[int, float, list[float]]:
    ids = [f"bench-{tag}-{n}" for n in range(tables)]
    games = [scripted(table_id, limit) for table_id in ids]
    for table_id in ids:
        await stub.CreateTable(
            engine_pb2.CreateTableRequest(
                table_id=table_id, seats=2, options={"round_limit": str(ROUND_LIMIT)}, seed=SEED
            )
        )
    latencies: list[float] = []

    async def play(table_id: str, game: list[tuple[int, bytes]]) -> None:
        for n, (seat, payload) in enumerate(game):
            started = time.perf_counter()
            reply = await stub.Execute(
                common_pb2.CommandEnvelope(
                    table_id=table_id, command_id=f"c{n}", seat=seat, payload=payload
                )
            )
            latencies.append(time.perf_counter() - started)
            if not reply.HasField("accepted"):
                raise RuntimeError(f"{table_id}: {reply.rejected}")

    started = time.perf_counter()
    await asyncio.gather(*(play(t, g) for t, g in zip(ids, games, strict=True)))
    return len(latencies), time.perf_counter() - started, latencies


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def bench(url: str, port: int, engine_pid: int) -> None:
    rtt = await redis_round_trip(url)
    print(
        f"redis PING round trip: p50 {statistics.median(rtt) * 1e3:.3f} ms, "
        f"p99 {percentile(rtt, 0.99) * 1e3:.3f} ms"
    )
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        health = health_pb2_grpc.HealthStub(channel)
        for _ in range(300):
            try:
                await health.Check(health_pb2.HealthCheckRequest(), timeout=1)
                break
            except grpc.aio.AioRpcError:
                await asyncio.sleep(0.1)
        stub = engine_pb2_grpc.EngineStub(channel)
        await run_tables(stub, 1, 5, "warm-up")
        for tables, limit in ((1, 1000), (100, 1000), (1000, 10)):
            cpu_before = cpu_seconds(engine_pid)
            count, seconds, latencies = await run_tables(stub, tables, limit, f"{tables}")
            cpu = cpu_seconds(engine_pid) - cpu_before
            print(
                f"{tables:>5} concurrent tables: {count} Execute in {seconds:.2f} s = "
                f"{count / seconds:,.0f} commands/s; latency p50 "
                f"{statistics.median(latencies) * 1e3:.2f} ms, p99 "
                f"{percentile(latencies, 0.99) * 1e3:.2f} ms; engine CPU "
                f"{cpu / count * 1e3:.2f} ms a command (set-up included)"
            )
    await project_everything(url)


async def project_everything(url: str) -> None:
    """How fast one projector process turns the feeds of all those tables into read models."""
    client = await connect(url)
    try:
        projector = Projector(EventStore(client, shards=64), name="bench", block_ms=10)
        await projector.ensure_groups()
        started = time.perf_counter()
        events = 0
        while True:
            handled = await projector.step()
            events += handled
            if not handled and (await projector.lag())["entries_behind"] == 0:
                break
        seconds = time.perf_counter() - started
        print(
            f"projector: {events} feed events into read models in {seconds:.2f} s = "
            f"{events / seconds:,.0f} events/s"
        )
    finally:
        await client.aclose()


def main() -> None:
    with RedisServer() as server:
        port = free_port()
        env = dict(os.environ, REDIS_URL=server.url, BW_SHARDS="64", BW_LOG_LEVEL="warning")
        service = subprocess.Popen(
            [sys.executable, "-m", "services.engine", "--game", "freunde", "--port", str(port)],
            env=env,
        )
        try:
            asyncio.run(bench(server.url, port, service.pid))
        finally:
            service.send_signal(signal.SIGTERM)
            service.wait(timeout=30)


if __name__ == "__main__":
    main()
