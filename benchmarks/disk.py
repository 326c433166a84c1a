"""What Redis wrote to disk during a load test step, and how many times it rewrote its AOF.

Under ``appendfsync always`` every write command's bytes are appended and fsynced before
the replies go out, and the append-only file is rewritten (a forked child dumps the whole
data set) each time it has doubled since the last rewrite: the more bytes a command
writes, the more often a rewrite's child competes with the services for the cores. The
bytes come from the kernel's count for the server's process (``write_bytes`` in
``/proc/<pid>/io``, which takes in a rewrite's child once the server has reaped it), the
rewrites from ``INFO persistence``. Where Redis is not a local process, or ``/proc``
does not tell, the bytes are not reported.
"""

from __future__ import annotations

from pathlib import Path

import redis

__all__ = ["DiskWrites"]


def _written(pid: int) -> int | None:
    """Bytes the process (and its reaped children) caused to be written to storage."""
    try:
        fields = dict(
            line.split(": ", 1)
            for line in Path(f"/proc/{pid}/io").read_text().splitlines()
            if ": " in line
        )
        return int(fields["write_bytes"])
    except (OSError, KeyError, ValueError):
        return None


class DiskWrites:
    """``start()`` before a step, ``line(commands)`` after it."""

    def __init__(self, url: str, pid: int | None) -> None:
        self._client = redis.Redis.from_url(url, socket_timeout=5)
        self._pid = pid
        self._bytes: int | None = None
        self._rewrites: int | None = None

    def close(self) -> None:
        self._client.close()

    def _rewrites_so_far(self) -> int | None:
        try:
            info = self._client.info("persistence")
        except redis.RedisError:
            return None
        if not info.get("aof_enabled"):
            return None
        return int(info.get("aof_rewrites", 0))

    def start(self) -> None:
        self._bytes = None if self._pid is None else _written(self._pid)
        self._rewrites = self._rewrites_so_far()

    def line(self, commands: int) -> str | None:
        """The step's bytes written a command and AOF rewrites; None when neither is known."""
        parts = []
        now = None if self._pid is None else _written(self._pid)
        if now is not None and self._bytes is not None:
            parts.append(
                f"{(now - self._bytes) / max(1, commands) / 1024:.1f} KB written to disk"
                " a command (its AOF, rewrites included)"
            )
        rewrites = self._rewrites_so_far()
        if rewrites is not None and self._rewrites is not None:
            parts.append(f"{rewrites - self._rewrites} AOF rewrites")
        return "; ".join(parts) or None
