"""CPU time of the processes a benchmark drives, so figures hold on a busy machine.

Wall-clock rates depend on whatever else runs on the cores; the CPU a process spends per
command does not (much). :class:`CpuMeter` reads ``utime + stime`` of each named process
from ``/proc/<pid>/stat`` before and after a run and divides the difference by the
commands done.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from pathlib import Path

import redis

__all__ = ["CpuMeter", "cpu_seconds", "redis_pid", "steal_ticks"]

_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and of the children it has waited for (Linux
    ``/proc``); 0 where unavailable. The children count: Redis rewrites its append-only
    file in a forked child, work the appends made necessary."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(ticks) for ticks in fields[11:15]) / _TICKS


def steal_ticks() -> tuple[int, int]:
    """The machine's (stolen, total) CPU ticks so far, all cores (Linux ``/proc/stat``):
    stolen is time the host ran something else while this machine's virtual CPUs wanted
    to run. (0, 0) where unavailable."""
    try:
        first = Path("/proc/stat").read_text().split("\n", 1)[0].split()
    except OSError:
        return 0, 0
    ticks = [int(field) for field in first[1:9]]
    return ticks[7], sum(ticks)


def redis_pid(url: str) -> int | None:
    """The server's process id when it runs on this machine (its ``INFO`` says), else None."""
    client = redis.Redis.from_url(url)
    try:
        pid = int(client.info("server")["process_id"])
    finally:
        client.close()
    return pid if Path(f"/proc/{pid}").exists() else None


class CpuMeter:
    """CPU seconds each named process spent between :meth:`start` and :meth:`stop`.

    Every process also spends CPU while idle (the projector and the engine poll their
    streams, the engine pings Redis); :meth:`measure_idle` measures that rate once, and
    :meth:`per_command` reports the figures with and without it, since at a low command
    rate (a busy shared machine) the idle share would dominate them.
    """

    def __init__(self, pids: Mapping[str, int]) -> None:
        self.pids = dict(pids)
        self.idle_rate: dict[str, float] = dict.fromkeys(self.pids, 0.0)
        self._before: dict[str, float] = {}
        self._started = 0.0
        self.elapsed = 0.0
        self.spent: dict[str, float] = {}
        self._steal_before = (0, 0)
        self.stolen = 0.0

    def measure_idle(self, seconds: float) -> dict[str, float]:
        """CPU seconds per second each process spends with nothing to do."""
        self.start()
        time.sleep(seconds)
        self.idle_rate = {name: spent / self.elapsed for name, spent in self.stop().items()}
        return self.idle_rate

    def start(self) -> None:
        self._started = time.perf_counter()
        self._before = {name: cpu_seconds(pid) for name, pid in self.pids.items()}
        self._steal_before = steal_ticks()

    def stop(self) -> dict[str, float]:
        self.elapsed = time.perf_counter() - self._started
        self.spent = {
            name: cpu_seconds(pid) - self._before[name] for name, pid in self.pids.items()
        }
        (stolen, total), (stolen_before, total_before) = steal_ticks(), self._steal_before
        stolen, total = stolen - stolen_before, total - total_before
        self.stolen = stolen / total if total else 0.0
        return self.spent

    def net(self) -> dict[str, float]:
        """CPU seconds spent beyond the idle rate during the last run."""
        return {
            name: max(0.0, spent - self.idle_rate[name] * self.elapsed)
            for name, spent in self.spent.items()
        }

    def per_command(self, commands: int) -> str:
        """``gateway 1.20  engine 0.90 ... = summed`` in CPU milliseconds per command,
        then the same net of the idle rate."""
        if not commands:
            return "no commands"
        return f"{_line(self.spent, commands)}\n      net of idle:    {_line(self.net(), commands)}"


def _line(spent: Mapping[str, float], commands: int) -> str:
    parts = [f"{name} {seconds * 1e3 / commands:.2f}" for name, seconds in spent.items()]
    summed = sum(spent.values()) * 1e3 / commands
    return "  ".join(parts) + f"  = {summed:.2f} ms CPU/command"


def yardstick_ms(rounds: int = 5) -> float:
    """This machine's speed at plain Python, apart from our code: the fastest of
    ``rounds`` runs of summing ``range(10**6)``, in CPU milliseconds (lower is faster).
    The benchmarks print it beside their figures: the same code measured 2.4 times slower
    on one 2-core machine than on another of the same kind on the next day, and this
    figure tells such machines apart."""
    best = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        sum(range(10**6))
        best = min(best, time.process_time() - started)
    return best * 1000


def yardstick_line() -> str:
    return f"machine yardstick: {yardstick_ms():.1f} ms CPU to sum range(10**6) (lower is faster)"
