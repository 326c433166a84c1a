"""End-to-end commands per second through every process, beside the raw Redis round trip.

    python -m benchmarks e2e

Starts the whole stack (Redis from ``REDIS_URL`` or a private AOF server, the Freunde
engine service, the projector and the gateway) and drives it over HTTP from this process:

* Redis PING: the raw round trip to the same server, one at a time.
* 1, 100 and 1,000 concurrent tables: one asyncio driver per table sends Freunde commands
  back to back, each waiting for its reply (``POST /v1/tables/{id}/commands`` with
  ``expected_version``, sent with :class:`benchmarks.timed_http.TimedHttp`). Drivers
  choose with their own mirror of the table (they opened it with their own seed), so
  only the command itself crosses the wire and is timed; the commands are chosen and
  their bodies written before the clock starts (enough for 4,000 commands/s; more are
  planned on the way if needed), as a scripted load generator replays its requests. A
  table that ends is replaced by a new one.

Each figure is measured for a fixed time budget; commands in flight when it ends are
waited for (a command still unanswered a minute later is abandoned and counted), so the
CPU each process spent, read from ``/proc`` and printed per command beside its idle
rate, is that of the commands counted. The load generator (this process) reports its own
CPU apart. ``BW_BENCH_LEVELS=100,1000`` picks the levels, ``BW_BENCH_QUICK=1`` shortens
the budgets to a third, ``BW_BENCH_SECONDS=20`` sets them all. The client, the gateway, the
engine service, the projector and Redis share this machine's cores, so the rates are a
floor for a deployment, not a ceiling; on a machine shared with other work, the CPU
per command is the figure to compare.
"""

from __future__ import annotations

import asyncio
import math
import os
import ssl
import time
from dataclasses import dataclass, field

import httpx
import redis.asyncio
import uvloop

import engines
from benchmarks.cpu import CpuMeter, cpu_seconds, redis_pid, yardstick_line
from benchmarks.planned import Planned, plan
from benchmarks.timed_http import TimedHttp
from gateway.client import BotTable, GatewayClient, game_bot
from services.heap import settle_heap
from services.redis_server import redis_url_or_private
from tests.e2e.stack import Stack

LEVELS = tuple(int(n) for n in os.environ.get("BW_BENCH_LEVELS", "1,100,1000").split(","))
_SCALE = 1 / 3 if os.environ.get("BW_BENCH_QUICK") else 1.0
SECONDS = {1: 4.0 * _SCALE, 100: 5.0 * _SCALE, 1_000: 6.0 * _SCALE}
DEFAULT_SECONDS = 6.0 * _SCALE
if os.environ.get("BW_BENCH_SECONDS"):
    SECONDS = dict.fromkeys(LEVELS, float(os.environ["BW_BENCH_SECONDS"]))
# Commands in flight at the end of the budget are waited for (up to this long), so the
# CPU measured is that of the commands counted.
GRACE = 60.0
# Commands planned before the clock starts, as a rate over all tables: above what the stack
# serves (about 2,300/s on an idle two-core machine), so that no driver plans while timed.
# Planning is the rules' CPU in this process; a thousand tables running out of their plans
# together stalled its loop for seconds and showed as the commands' p99.
PLANNED_PER_SECOND = 4_000
SETTLE_SECONDS = 1.0
IDLE_SECONDS = 5.0
PINGS = 2_000
ENGINE = engines.get("freunde")


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    rejected: int = 0
    transport_errors: int = 0
    abandoned: int = 0


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def ping_round_trip(url: str) -> tuple[float, float]:
    client = redis.asyncio.Redis.from_url(url)
    try:
        samples = []
        for _ in range(PINGS):
            started = time.perf_counter()
            await client.ping()
            samples.append(time.perf_counter() - started)
    finally:
        await client.aclose()
    return percentile(samples, 0.5), percentile(samples, 0.99)


async def open_table(client: GatewayClient, n: int) -> BotTable:
    return await BotTable.open(client, "freunde", 2 + n % 3, bot_seed=n)


async def drive(
    client: GatewayClient,
    sender: TimedHttp,
    table: BotTable,
    planned: list[Planned],
    deadline: float,
    tally: Tally,
    n: int,
) -> None:
    """Send commands to one table until the deadline: those planned, then (a game that
    ends, or a plan used up) more, planned as it goes; a new table when one ends."""
    bot = game_bot(ENGINE, "random", n)
    while time.perf_counter() < deadline:
        if not planned:
            planned = plan(table, bot, 50, f"b{n}")
            if not planned:
                table = await open_table(client, n)
                continue
        command = planned.pop(0)
        for _ in range(5):
            started = time.perf_counter()
            try:
                reply = await sender.post(command.path, command.headers, command.body)
                break
            except OSError:
                # Sent again under the same command id: applied at most once either way.
                tally.transport_errors += 1
        else:
            return
        tally.latencies.append(time.perf_counter() - started)
        if reply.status != 200:
            tally.rejected += 1
            return


async def level(
    url: str, tables: int, meter: CpuMeter
) -> tuple[float, float, float, int, int, int, int, float]:
    # One connection per table, each its own client: one shared pool of a thousand
    # connections costs the client more than the whole server side.
    # (One TLS context for all: each client loading its own costs ~30 ms, even for http.)
    tls = ssl.create_default_context()
    clients = [
        GatewayClient(url, httpx.AsyncClient(base_url=url, timeout=120, verify=tls))
        for _ in range(tables)
    ]
    sender = TimedHttp(url)
    try:
        opening = asyncio.Semaphore(100)

        async def opened(n: int) -> BotTable:
            async with opening:
                return await open_table(clients[n], n)

        started = time.perf_counter()
        bots = await asyncio.gather(*(opened(n) for n in range(tables)))
        budget = SECONDS.get(tables, DEFAULT_SECONDS)
        # More are planned on the way should a table use them up.
        ahead = math.ceil(PLANNED_PER_SECOND * budget / tables) + 8
        plans = [
            plan(table, game_bot(ENGINE, "random", n), ahead, f"b{n}")
            for n, table in enumerate(bots)
        ]
        print(
            f"   {tables} tables opened in {time.perf_counter() - started:.1f} s,"
            f" {ahead} commands planned for each",
            flush=True,
        )
        tally = Tally()
        meter.start()
        client_cpu = time.process_time()
        started = time.perf_counter()
        deadline = started + budget
        drivers = [
            asyncio.create_task(drive(clients[n], sender, t, plans[n], deadline, tally, n))
            for n, t in enumerate(bots)
        ]
        # Keeps the run bounded: a command still unanswered GRACE seconds after the
        # budget is abandoned and reported, not waited for.
        _, late = await asyncio.wait(drivers, timeout=budget + GRACE)
        for driver in late:
            driver.cancel()
        await asyncio.gather(*late, return_exceptions=True)
        tally.abandoned = len(late)
        elapsed = time.perf_counter() - started
        client_cpu = time.process_time() - client_cpu
        # The projector works a moment after the last reply; its CPU for these commands
        # is counted too (the idle rate is taken off for this pause).
        await asyncio.sleep(SETTLE_SECONDS)
        meter.stop()
    finally:
        await sender.close()
        for client in clients:
            await client.aclose()
    done = len(tally.latencies)
    return (
        done / elapsed,
        percentile(tally.latencies, 0.5),
        percentile(tally.latencies, 0.99),
        done,
        tally.rejected,
        tally.transport_errors,
        tally.abandoned,
        client_cpu,
    )


def main() -> None:
    began = time.perf_counter()
    print(f"   {yardstick_line()}", flush=True)
    print("   starting Redis, the Freunde engine service, the projector, the gateway", flush=True)
    with (
        redis_url_or_private() as redis_url,
        Stack(redis_url, shards=64, log_level="warning") as stack,
    ):
        # Tuned as the services are: the load generator's own CPU is reported apart.
        settle_heap()
        p50, p99 = asyncio.run(ping_round_trip(redis_url))
        print(
            f"redis PING round trip        p50 {p50 * 1e3:7.3f} ms   p99 {p99 * 1e3:7.3f} ms",
            flush=True,
        )
        pids = {name: process.pid for name, process in stack.processes.items()}
        server = redis_pid(redis_url)
        if server is not None:
            pids["redis"] = server
        meter = CpuMeter(pids)
        idle = meter.measure_idle(IDLE_SECONDS)
        print(
            "   idle CPU (% of a core): "
            + "  ".join(f"{name} {rate * 100:.1f}" for name, rate in idle.items()),
            flush=True,
        )
        for tables in LEVELS:
            rate, c50, c99, done, rejected, lost, late, client_cpu = uvloop.run(
                level(stack.url, tables, meter)
            )
            print(
                f"{tables:>5} concurrent tables     {rate:8.1f} commands/s"
                f"   p50 {c50 * 1e3:7.2f} ms   p99 {c99 * 1e3:7.2f} ms"
                f"   ({done} commands, {rejected} refused, {lost} resent,"
                f" {late} unanswered at the cut-off)",
                flush=True,
            )
            print(f"      CPU ms/command: {meter.per_command(done)}", flush=True)
            print(
                f"      load generator (this process, apart): {client_cpu * 1e3 / max(done, 1):.2f}"
                " ms CPU/command",
                flush=True,
            )
        used = ", ".join(
            f"{name} {cpu_seconds(process.pid):.0f} s" for name, process in stack.processes.items()
        )
        print(f"   CPU time used: {used}", flush=True)
    print(f"   total {time.perf_counter() - began:.0f} s", flush=True)


if __name__ == "__main__":
    main()
