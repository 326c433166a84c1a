"""CPU time of the processes a benchmark drives, so figures hold on a busy machine.

Wall-clock rates depend on whatever else runs on the cores; the CPU a process spends per
command does not (much). :class:`CpuMeter` reads ``utime + stime`` of each named process
from ``/proc/<pid>/stat`` before and after a run and divides the difference by the
commands done.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import redis

__all__ = ["CpuMeter", "cpu_seconds", "redis_pid"]

_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux ``/proc``); 0 where unavailable."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _TICKS


def redis_pid(url: str) -> int | None:
    """The server's process id when it runs on this machine (its ``INFO`` says), else None."""
    client = redis.Redis.from_url(url)
    try:
        pid = int(client.info("server")["process_id"])
    finally:
        client.close()
    return pid if Path(f"/proc/{pid}").exists() else None


class CpuMeter:
    """CPU seconds each named process spent between :meth:`start` and :meth:`stop`."""

    def __init__(self, pids: Mapping[str, int]) -> None:
        self.pids = dict(pids)
        self._before: dict[str, float] = {}
        self.spent: dict[str, float] = {}

    def start(self) -> None:
        self._before = {name: cpu_seconds(pid) for name, pid in self.pids.items()}

    def stop(self) -> dict[str, float]:
        self.spent = {
            name: cpu_seconds(pid) - self._before[name] for name, pid in self.pids.items()
        }
        return self.spent

    def per_command(self, commands: int) -> str:
        """``gateway 1.20  engine 0.90 ... = summed`` in CPU milliseconds per command."""
        if not commands:
            return "no commands"
        parts = [f"{name} {spent * 1e3 / commands:.2f}" for name, spent in self.spent.items()]
        summed = sum(self.spent.values()) * 1e3 / commands
        return "  ".join(parts) + f"  = {summed:.2f} ms CPU/command"
