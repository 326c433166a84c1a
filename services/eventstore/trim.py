"""Trimming the shard streams that are queues: feeds and command inboxes.

A shard feed (``bw:{s<n>}:feed``) and a command inbox (``bw:{s<n>}:cmd``) are read by
consumer groups; once every group has read and acknowledged an entry nobody needs it
again. :meth:`StreamTrimmer.trim` removes exactly those entries, in one script, so a group
that is behind (an engine of one game that is down, a projector catching up) keeps
everything it has not handled yet. A stream with no group at all is left alone.

Table streams are never trimmed: they are the log. Dead letters are bounded by length
instead (``XADD ... MAXLEN ~``), since no group reads them.
"""

from __future__ import annotations

import math
import time
from importlib import resources
from typing import Any

from services.eventstore.pipelined import ScriptCall, run_scripts

__all__ = ["StreamTrimmer"]

_SCRIPT = (
    resources.files("services.eventstore").joinpath("lua", "trim_acknowledged.lua").read_text()
)


class StreamTrimmer:
    """Trims streams after acknowledgements, at most once every ``every_s`` per stream.

    Trimming reads every group's state, so doing it after each acknowledgement would
    cost more than the acknowledgement: :meth:`acknowledged` only notes the stream, and
    :meth:`trim_due` (called on every round of the reader's loop) trims the streams
    noted whose last trim is at least ``every_s`` old.
    """

    def __init__(self, redis: Any, every_s: float = 1.0) -> None:
        self.redis = redis
        self.every_s = every_s
        self.removed = 0
        self._script = redis.register_script(_SCRIPT)
        self._last: dict[str, float] = {}
        self._noted: set[str] = set()

    async def trim(self, stream: str) -> int:
        """Delete the entries of ``stream`` every consumer group has acknowledged; returns
        how many were deleted."""
        return await self._trim([stream])

    def acknowledged(self, stream: str) -> None:
        """Note that entries of ``stream`` were acknowledged: it is to be trimmed."""
        self._noted.add(stream)

    async def trim_due(self) -> int:
        """Trim the noted streams not trimmed for ``every_s``, in one round trip; returns
        entries deleted."""
        now = time.monotonic()
        due = [s for s in sorted(self._noted) if now - self._last.get(s, -math.inf) >= self.every_s]
        return await self._trim(due) if due else 0

    async def _trim(self, streams: list[str]) -> int:
        """One script a stream, all in one pipeline (a cluster client sends them
        concurrently): a reader's loop waits for one round trip, not one a stream, each
        waiting for the server's fsync under ``appendfsync always``."""
        now = time.monotonic()
        for stream in streams:
            self._last[stream] = now
            self._noted.discard(stream)
        calls = [ScriptCall(self._script, [stream], []) for stream in streams]
        removed = sum(int(reply) for reply in await run_scripts(self.redis, calls))
        self.removed += removed
        return removed
