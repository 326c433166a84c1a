"""Open-loop load test: commands at a fixed arrival rate, whatever the server's speed.

    make loadtest                                   # 3,000 tables, rates stepped up
    BW_LOADTEST_TABLES=300 BW_LOADTEST_RATES=50,100 BW_LOADTEST_SECONDS=10 make loadtest

Starts the whole stack (Redis from ``REDIS_URL`` or a private AOF server, the Freunde
engine service, the projector, the gateway), opens ``BW_LOADTEST_TABLES`` tables and
then, for each rate of ``BW_LOADTEST_RATES`` (commands per second over all tables, in
turn, each for ``BW_LOADTEST_SECONDS``), gives every table its own random (Poisson)
schedule of commands at its share of the rate: 3,000 tables at 600/s is one command
every 5 s per table on average.

No coordinated omission: a command's latency is measured from the time it was scheduled,
not from the time it was sent, so a slow server cannot slow the load down and hide its
own queueing. A table whose previous command is still unanswered sends the next one as
soon as it is answered (its latency still counts from its own scheduled time). After
each accepted command the seat reads its view with ``min_version`` (read your own
write), timed from its send. Before each rate, every table's next commands are chosen
and written (:mod:`benchmarks.planned`), so the load generator spends its CPU on HTTP,
not on the rules; it runs on uvloop.

Per rate: offered and achieved rate, p50/p99/p99.9 of commands and of reads, errors,
whether the slowest 1% came in bursts (how many of the step's seconds hold them, and each
second's p99) or all along, the CPU each process spent per command (the load
generator, this process, apart), and the machine's speed after the step (the yardstick
again, and the share of the cores' time the host gave to its other tenants): on a shared
host it changes from minute to minute; and the seconds in which Redis's one thread stood
still for a millisecond or more, in an fsync or a command (its latency monitor,
:mod:`benchmarks.redis_stalls`), and what Redis wrote to disk a command and how many
times it rewrote its AOF (:mod:`benchmarks.disk`). The steps stop once the commands' p99 passes
``BW_LOADTEST_KNEE_MS`` (100 ms): the knee.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import ssl
import time
from collections import deque
from dataclasses import dataclass, field

import httpx
import uvloop

import engines
from benchmarks.cpu import CpuMeter, redis_pid, yardstick_line, yardstick_ms
from benchmarks.disk import DiskWrites
from benchmarks.planned import Planned, plan
from benchmarks.redis_stalls import RedisStalls
from benchmarks.timed_http import TimedHttp
from gateway.client import BotTable, GatewayClient, game_bot
from services.heap import settle_heap
from services.redis_server import redis_url_or_private
from tests.e2e.stack import Stack

TABLES = int(os.environ.get("BW_LOADTEST_TABLES", "3000"))
RATES = tuple(
    float(r) for r in os.environ.get("BW_LOADTEST_RATES", "100,200,300,400,500,600,800").split(",")
)
SECONDS = float(os.environ.get("BW_LOADTEST_SECONDS", "20"))
KNEE_MS = float(os.environ.get("BW_LOADTEST_KNEE_MS", "100"))
# HTTP clients the tables share (each its own connection pool).
CLIENTS = 64
# A command still unanswered this long after its step is counted as an error.
GRACE = 30.0
ENGINE = engines.get("freunde")


@dataclass
class Step:
    """What one rate's run measured."""

    commands: list[float] = field(default_factory=list)
    reads: list[float] = field(default_factory=list)
    # When each command was due and each read sent, in seconds from the step's start
    # (in the order of ``commands`` and ``reads``).
    command_times: list[float] = field(default_factory=list)
    read_times: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    sent: int = 0
    started: float = field(default_factory=time.perf_counter)

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


def quantile(samples: list[float], q: float) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def figures(samples: list[float]) -> str:
    return " / ".join(f"{quantile(samples, q) * 1e3:7.1f}" for q in (0.5, 0.99, 0.999))


def over_time(times: list[float], samples: list[float]) -> str:
    """Whether the slowest 1% came in bursts or all along: in how many of the step's
    seconds they fell, and the p99 of each second (its median and its worst)."""
    if not samples:
        return "no samples"
    slow = quantile(samples, 0.99)
    seconds: dict[int, list[float]] = {}
    for at, latency in zip(times, samples, strict=True):
        seconds.setdefault(int(at), []).append(latency)
    holding = sum(1 for values in seconds.values() if max(values) >= slow)
    p99s = {second: quantile(values, 0.99) for second, values in seconds.items()}
    worst = max(p99s, key=p99s.__getitem__)
    return (
        f"slowest 1% in {holding} of {len(seconds)} seconds; p99 a second: median"
        f" {quantile(list(p99s.values()), 0.5) * 1e3:.1f} ms, worst {p99s[worst] * 1e3:.1f} ms"
        f" (second {worst})"
    )


class Driver:
    """One table's player: sends its commands on its own schedule, planned beforehand."""

    def __init__(self, client: GatewayClient, sender: TimedHttp, table: BotTable, n: int) -> None:
        self.client = client
        self.sender = sender
        self.table: BotTable | None = table
        self.n = n
        self.bot = game_bot(ENGINE, "random", n)
        self.planned: deque[Planned] = deque()

    def prepare(self, count: int) -> None:
        """Have at least ``count`` commands planned (fewer if the game ends first)."""
        if self.table is not None and len(self.planned) < count:
            more = count - len(self.planned)
            self.planned += plan(self.table, self.bot, more, f"l{self.n}")

    async def run(self, rate: float, until: float, step: Step, schedule: random.Random) -> None:
        """Commands at ``rate`` per second (Poisson arrivals) until ``until``."""
        due = time.perf_counter() + schedule.expovariate(rate)
        while due < until:
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            await self.one(due, step)
            due += schedule.expovariate(rate)

    async def one(self, due: float, step: Step) -> None:
        if not self.planned:
            self.prepare(10)
        if not self.planned:
            # The game ended (or a command failed and its plan went with it): a new table.
            self.table = await BotTable.open(self.client, "freunde", 2, bot_seed=self.n)
            self.prepare(10)
            return
        command = self.planned.popleft()
        step.sent += 1
        try:
            reply = await self.sender.post(command.path, command.headers, command.body)
        except OSError as failed:
            step.error(type(failed).__name__)
            self._abandon()
            return
        step.commands.append(time.perf_counter() - due)
        step.command_times.append(due - step.started)
        if reply.status != 200:
            step.error(f"http {reply.status}")
            self._abandon()
            return
        started = time.perf_counter()
        try:
            view = await self.sender.get(
                f"{command.path.removesuffix('/commands')}?min_version={command.after}",
                command.headers,
            )
        except OSError as failed:
            step.error(f"read {type(failed).__name__}")
            return
        step.reads.append(time.perf_counter() - started)
        step.read_times.append(started - step.started)
        if view.status != 200:
            step.error(f"read http {view.status}")

    def _abandon(self) -> None:
        """The rest of the plan followed the command that failed: start a new table."""
        self.planned.clear()
        self.table = None


async def open_tables(clients: list[GatewayClient], sender: TimedHttp) -> list[Driver]:
    opening = asyncio.Semaphore(50)

    async def opened(n: int) -> Driver:
        client = clients[n % len(clients)]
        async with opening:
            table = await BotTable.open(client, "freunde", 2 + n % 3, bot_seed=n)
        return Driver(client, sender, table, n)

    return list(await asyncio.gather(*(opened(n) for n in range(TABLES))))


@dataclass
class Watch:
    """What is measured of the stack around each step, besides the latencies."""

    meter: CpuMeter
    stalls: RedisStalls
    disk: DiskWrites


async def run_step(drivers: list[Driver], rate: float, watch: Watch) -> tuple[Step, float]:
    per_table = rate / len(drivers)
    # Twice each table's expected share, so that few drivers plan while measured.
    ahead = math.ceil(2 * per_table * SECONDS) + 2
    for driver in drivers:
        driver.prepare(ahead)
    meter = watch.meter
    meter.start()
    watch.disk.start()
    wall_started = time.time()
    client_cpu = time.process_time()
    step = Step()
    started = step.started
    until = started + SECONDS
    tasks = [
        asyncio.create_task(d.run(per_table, until, step, random.Random(f"{rate}:{d.n}")))
        for d in drivers
    ]
    _, late = await asyncio.wait(tasks, timeout=SECONDS + GRACE)
    for task in late:
        task.cancel()
    await asyncio.gather(*late, return_exceptions=True)
    if late:
        step.errors["unanswered at the cut-off"] = len(late)
    elapsed = time.perf_counter() - started
    client_cpu = time.process_time() - client_cpu
    await asyncio.sleep(1.0)  # the projector's share of the last commands
    meter.stop()
    print(
        f"{rate:7.0f}/s offered  {len(step.commands) / elapsed:7.1f}/s achieved"
        f"  commands p50/p99/p99.9 {figures(step.commands)} ms"
        f"  reads {figures(step.reads)} ms  errors {step.errors or 0}",
        flush=True,
    )
    print(f"      commands: {over_time(step.command_times, step.commands)}", flush=True)
    print(f"      reads:    {over_time(step.read_times, step.reads)}", flush=True)
    print(f"      CPU ms/command: {meter.per_command(len(step.commands))}", flush=True)
    # The host's other tenants change this machine's speed from minute to minute.
    print(
        f"      machine after the step: yardstick {yardstick_ms():.1f} ms;"
        f" host steal {meter.stolen:.1%} of the cores' time during it",
        flush=True,
    )
    stood_still = watch.stalls.line(wall_started, time.time())
    if stood_still is not None:
        print(f"      Redis stood still (its latency monitor): {stood_still}", flush=True)
    written = watch.disk.line(len(step.commands))
    if written is not None:
        print(f"      Redis's disk: {written}", flush=True)
    print(
        f"      load generator (this process, apart):"
        f" {client_cpu * 1e3 / max(1, len(step.commands)):.2f} ms CPU/command",
        flush=True,
    )
    return step, quantile(step.commands, 0.99)


async def load(url: str, watch: Watch) -> None:
    tls = ssl.create_default_context()
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
    clients = [
        GatewayClient(url, httpx.AsyncClient(base_url=url, timeout=120, verify=tls, limits=limits))
        for _ in range(CLIENTS)
    ]
    sender = TimedHttp(url)
    try:
        started = time.perf_counter()
        drivers = await open_tables(clients, sender)
        print(f"   {TABLES} tables opened in {time.perf_counter() - started:.1f} s", flush=True)
        for rate in RATES:
            _, p99 = await run_step(drivers, rate, watch)
            if p99 * 1e3 > KNEE_MS:
                print(f"   p99 passed {KNEE_MS:.0f} ms at {rate:.0f}/s offered: stopping")
                break
    finally:
        await sender.close()
        for client in clients:
            await client.aclose()


def main(argv: list[str] | None = None) -> None:
    # The settings are the environment variables above; the parser gives --help.
    argparse.ArgumentParser(
        prog="python -m benchmarks.loadtest",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    ).parse_args(argv)
    print(f"   {yardstick_line()}", flush=True)
    print(
        f"   {TABLES} tables, {SECONDS:.0f} s a rate, rates {', '.join(f'{r:.0f}' for r in RATES)}"
        " commands/s; latency in ms from each command's scheduled time",
        flush=True,
    )
    with (
        redis_url_or_private() as redis_url,
        Stack(redis_url, shards=64, log_level="warning") as stack,
        RedisStalls(redis_url) as stalls,
    ):
        pids = {name: process.pid for name, process in stack.processes.items()}
        server = redis_pid(redis_url)
        if server is not None:
            pids["redis"] = server
        meter = CpuMeter(pids)
        meter.measure_idle(5.0)
        disk = DiskWrites(redis_url, server)
        # Tuned as the services are: the load generator's own CPU is reported apart.
        settle_heap()
        try:
            uvloop.run(load(stack.url, Watch(meter, stalls, disk)))
        finally:
            disk.close()


if __name__ == "__main__":
    main()
