"""How long Redis's one thread stood still during a load test step: its latency monitor.

Under ``appendfsync always`` Redis fsyncs its append-only file in its own thread before it
answers the commands of an event-loop iteration, read-only ones too (a rate-limit check,
a view read); a slow fsync holds every client waiting. On an idle machine an fsync here
takes about 0.2 ms, but with both cores busy the file system's journal commit and
Redis's own wake-up queue behind the services, and the load test's slow seconds can be
Redis's. Redis's latency monitor keeps, per kind of event and per second, the worst
time spent at or above a threshold: ``aof-fsync-always`` (the fsync before the replies)
and ``command`` (one command or script). :class:`RedisStalls` turns it on for the run
(threshold 1 ms), reads it after each step and puts the server's own threshold back
when done. A server that refuses ``CONFIG`` (a managed one) is simply not reported.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from types import TracebackType
from typing import Self

import redis

__all__ = ["EVENTS", "RedisStalls", "stalls_line"]

# The latency monitor's events worth a line: the fsync that holds the replies, and any
# one command or script.
EVENTS = {"aof-fsync-always": "fsync", "command": "a command"}
THRESHOLD_MS = 1


def stalls_line(history: Sequence[tuple[int, int]], since: float, until: float) -> str:
    """The seconds from ``since`` to ``until`` (Unix time) in ``history`` ((whole second,
    worst ms) pairs, as ``LATENCY HISTORY`` gives them): how many, their median and their
    worst. The first and last seconds count whole: the monitor keeps no finer time."""
    first, last = math.floor(since), math.floor(until)
    worst = [ms for second, ms in history if first <= second <= last]
    if not worst:
        return f"none >= {THRESHOLD_MS} ms"
    return (
        f"in {len(worst)} of {last - first + 1} seconds, worst a second: median"
        f" {statistics.median(worst):g} ms, worst {max(worst)} ms"
    )


class RedisStalls:
    """``with RedisStalls(url) as stalls:``, then ``stalls.line(since, until)`` per step."""

    def __init__(self, url: str) -> None:
        self._client = redis.Redis.from_url(url, socket_timeout=5)
        self._threshold: str | None = None

    def __enter__(self) -> Self:
        try:
            self._threshold = str(
                self._client.config_get("latency-monitor-threshold")["latency-monitor-threshold"]
            )
            self._client.config_set("latency-monitor-threshold", THRESHOLD_MS)
            self._client.latency_reset(*EVENTS)
        except redis.RedisError:
            self._threshold = None
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        try:
            if self._threshold is not None:
                self._client.config_set("latency-monitor-threshold", self._threshold)
        except redis.RedisError:
            pass  # the server is gone with the stack; nothing to put back
        finally:
            self._client.close()

    @property
    def watching(self) -> bool:
        return self._threshold is not None

    def line(self, since: float, until: float) -> str | None:
        """What stood Redis still between ``since`` and ``until`` (Unix time); None when
        the monitor could not be turned on."""
        if not self.watching:
            return None
        parts = []
        for event, name in EVENTS.items():
            history = [(int(second), int(ms)) for second, ms in self._client.latency_history(event)]
            parts.append(f"{name} {stalls_line(history, since, until)}")
        return "; ".join(parts)
