"""Live tables and players: one reader per feed in each gateway process, fanned out to every
subscriber.

A Server-Sent Events subscriber needs to know when its table has a new event. Asking Redis
once per subscriber (a blocking read each, on a pooled connection) lets a thousand idle
streams exhaust the pool. Instead each gateway process runs one reader per shard that has
subscribers: it follows the shard feed ``bw:{s<n>}:feed`` (every event of the shard, in
append order) with blocking ``XREAD`` on a client of its own, and wakes the subscribers of
each table it sees. The subscribers then fetch their own redacted events, and those of the
same viewer at the same version share one fetch (:class:`SharedCalls`).

Nothing can be missed: a reader is *armed* (it knows the feed's last entry) before its
first subscriber reads the table, and every entry after that is dispatched. When the
reader loses Redis it re-arms and wakes everyone in its shard, so they read again.

Reads that wait for the projector (``?min_version``) are woken the same way, by one reader
per process of the projector's own feed ``bw:projected`` (:class:`Projections`).

The same machinery follows the players' wake-up feeds ``bw:notify:{p<n>}:feed`` (one entry
per notification, naming its player), so a per-player notification stream costs no more
than a table's: :func:`live_tables` and :func:`live_players` build the two.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import structlog
from cachetools import LRUCache

from services.eventstore import (
    PROJECTED_KEY,
    ShardKeys,
    is_redis_trouble,
    player_feed_key,
    shard_of,
)
from services.notifications import player_shard
from services.shutdown import cancel_and_wait

__all__ = [
    "LiveFeeds",
    "Projections",
    "SharedCalls",
    "StreamSlots",
    "TableWatch",
    "live_players",
    "live_tables",
]

log = structlog.get_logger("gateway.live")

T = TypeVar("T")

# Entries one XREAD takes from a busy feed.
_BATCH = 500
# Pause before a reader that lost Redis tries again.
_RETRY_S = 0.5


@dataclass(eq=False)
class TableWatch:
    """What one table's (or player's) subscribers wait on: the newest version (or
    notification position) the reader has seen."""

    head: int = 0
    subscribers: int = 0
    _changed: asyncio.Event = field(default_factory=asyncio.Event)

    def notify(self, version: int | None) -> None:
        """A new event (``version``), or ``None``: something may have been missed."""
        if version is not None:
            self.head = max(self.head, version)
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_past(self, version: int) -> None:
        """Return once an event after ``version`` exists, or once the reader asks every
        subscriber to look again (it lost Redis for a while)."""
        if self.head > version:
            return
        await self._changed.wait()


class _StreamFollower:
    """Follows one stream: *armed* once it knows the stream's newest entry, it reads every
    entry after that with blocking ``XREAD`` and hands each entry's fields to ``on_entry``.
    When it loses Redis it calls ``on_lost`` (whatever went by meanwhile is unknown), waits
    a moment and arms again."""

    def __init__(
        self,
        redis: Any,
        stream: str,
        block_ms: int,
        on_entry: Callable[[dict[Any, Any]], None],
        on_lost: Callable[[], None],
    ) -> None:
        self.redis = redis
        self.stream = stream
        self.block_ms = block_ms
        self.on_entry = on_entry
        self.on_lost = on_lost
        self.armed = asyncio.Event()
        self._last = "0-0"
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"live:{self.stream}")

    async def stop(self) -> None:
        if self._task is not None:
            await cancel_and_wait(self._task)

    async def _run(self) -> None:
        while True:
            try:
                if not self.armed.is_set():
                    newest = await self.redis.xrevrange(self.stream, count=1)
                    self._last = _text(newest[0][0]) if newest else "0-0"
                    self.armed.set()
                await self._read_once()
            except Exception as trouble:
                if not is_redis_trouble(trouble):
                    raise
                log.warning("live.reader_failed", stream=self.stream, error=str(trouble))
                self.armed.clear()
                self.on_lost()
                await asyncio.sleep(_RETRY_S)

    async def _read_once(self) -> None:
        reply = await self.redis.xread({self.stream: self._last}, count=_BATCH, block=self.block_ms)
        for _, entries in reply or ():
            for entry_id, fields in entries:
                self._last = _text(entry_id)
                self.on_entry(fields)


class _FeedReader:
    """Follows one feed and wakes the watches of the tables (players) its entries name."""

    def __init__(self, redis: Any, feed: str, field: bytes, block_ms: int) -> None:
        self.field = field
        self.tables: dict[str, TableWatch] = {}
        self.follower = _StreamFollower(redis, feed, block_ms, self._entry, self._lost)
        self.armed = self.follower.armed

    def start(self) -> None:
        self.follower.start()

    async def stop(self) -> None:
        await self.follower.stop()

    def _entry(self, fields: dict[Any, Any]) -> None:
        watch = self.tables.get(_text(fields.get(self.field, b"")))
        if watch is not None:
            watch.notify(int(fields[b"v"]))

    def _lost(self) -> None:
        # Whatever happened while Redis was away, the subscribers read it again.
        for watch in self.tables.values():
            watch.notify(None)


class LiveFeeds:
    """Every table (or player) some subscriber of this process follows, one reader per
    feed: ``feed_of`` names the feed that carries a key, ``field`` the entries' field that
    names the key, and ``v`` in each entry is the version it wakes past."""

    def __init__(
        self, redis: Any, feed_of: Callable[[str], str], field: bytes, block_ms: int
    ) -> None:
        self.redis = redis
        self.feed_of = feed_of
        self.field = field
        self.block_ms = block_ms
        self._readers: dict[str, _FeedReader] = {}

    @contextlib.asynccontextmanager
    async def watch(self, table_id: str) -> AsyncIterator[TableWatch]:
        """Follow ``table_id`` (or a player) for the block; the reader is armed when the
        block starts, so an entry appended after that always wakes the watch."""
        shard = self.feed_of(table_id)
        reader = self._readers.get(shard)
        if reader is None:
            reader = self._readers[shard] = _FeedReader(
                self.redis, shard, self.field, self.block_ms
            )
            reader.start()
        watch = reader.tables.get(table_id)
        if watch is None:
            watch = reader.tables[table_id] = TableWatch()
        watch.subscribers += 1
        try:
            await reader.armed.wait()
            yield watch
        finally:
            watch.subscribers -= 1
            if watch.subscribers == 0:
                del reader.tables[table_id]
            if not reader.tables and self._readers.get(shard) is reader:
                del self._readers[shard]
                await reader.stop()

    def counts(self) -> tuple[int, int, int]:
        """(shard readers running, tables followed, subscribers)."""
        watches = [w for r in self._readers.values() for w in r.tables.values()]
        return len(self._readers), len(watches), sum(w.subscribers for w in watches)

    async def close(self) -> None:
        readers = list(self._readers.values())
        self._readers.clear()
        for reader in readers:
            await reader.stop()


def live_tables(redis: Any, shards: int, block_ms: int) -> LiveFeeds:
    """Tables, woken by their shard feed ``bw:{s<n>}:feed``."""
    return LiveFeeds(
        redis, lambda table: ShardKeys(shard_of(table, shards)).feed, b"table", block_ms
    )


def live_players(redis: Any, shards: int, block_ms: int) -> LiveFeeds:
    """Players, woken by their player shard's feed ``bw:notify:{p<n>}:feed``."""
    return LiveFeeds(
        redis, lambda player: player_feed_key(player_shard(player, shards)), b"player", block_ms
    )


class Projections:
    """Reads waiting for a table's read models to reach a version, woken by ``bw:projected``
    (one entry per batch the projector wrote: table id -> version).

    One reader per process, started with the app. It remembers the newest version it saw
    of the tables projected last, so a read that begins to wait after its version went by
    returns at once. A wait is also bounded by the caller's timeout, so a wake-up lost while
    Redis was away costs at most that; when the reader loses Redis it wakes every waiter to
    look again.
    """

    def __init__(self, redis: Any, block_ms: int, remembered: int = 10_000) -> None:
        self.redis = redis
        self.block_ms = block_ms
        self.versions: LRUCache[str, int] = LRUCache(maxsize=remembered)
        self._waiting: dict[str, list[tuple[int, asyncio.Future[None]]]] = {}
        self.follower = _StreamFollower(redis, PROJECTED_KEY, block_ms, self._entry, self._lost)
        # Set while every entry from now on will be read.
        self.armed = self.follower.armed

    def start(self) -> None:
        self.follower.start()

    async def stop(self) -> None:
        await self.follower.stop()

    async def reached(self, table_id: str, version: int, timeout: float) -> bool:
        """Return once the projector has said ``table_id``'s read models hold ``version``,
        or the reader asks everyone to look again (True), or after ``timeout`` seconds
        (False)."""
        if self.versions.get(table_id, 0) >= version:
            return True
        done = asyncio.get_running_loop().create_future()
        entry = (version, done)
        self._waiting.setdefault(table_id, []).append(entry)
        try:
            await asyncio.wait_for(done, timeout)
            return True
        except TimeoutError:
            return False
        finally:
            waiting = self._waiting.get(table_id)
            if waiting is not None and entry in waiting:
                waiting.remove(entry)
                if not waiting:
                    del self._waiting[table_id]

    @property
    def waiting(self) -> int:
        return sum(len(w) for w in self._waiting.values())

    def _entry(self, fields: dict[Any, Any]) -> None:
        for table, version in fields.items():
            table_id = _text(table)
            try:
                at = int(version)
            except ValueError:
                continue  # not the projector's: nothing to wake
            if at > self.versions.get(table_id, 0):
                self.versions[table_id] = at
            if table_id in self._waiting:
                self._wake(table_id, at)

    def _lost(self) -> None:
        # Entries may have gone by meanwhile: every waiter reads again.
        for table_id in list(self._waiting):
            self._wake(table_id, None)

    def _wake(self, table_id: str, version: int | None) -> None:
        """Resolve the waits on ``table_id`` that ``version`` satisfies (``None``: all)."""
        for wanted, done in self._waiting[table_id]:
            if (version is None or wanted <= version) and not done.done():
                done.set_result(None)


class StreamSlots:
    """How many streams this process holds open, in all and per client address: one client
    must not be able to take every file descriptor of the gateway."""

    def __init__(self, per_address: int, total: int) -> None:
        self.per_address = per_address
        self.total = total
        self._open: dict[str, int] = {}
        self._count = 0

    def take(self, address: str) -> str | None:
        """Take a slot for ``address``; ``None`` on success, else which bound is reached
        (``"address"`` or ``"total"``)."""
        if self._count >= self.total:
            return "total"
        if self._open.get(address, 0) >= self.per_address:
            return "address"
        self._open[address] = self._open.get(address, 0) + 1
        self._count += 1
        return None

    @property
    def open(self) -> int:
        return self._count

    def give_back(self, address: str) -> None:
        left = self._open[address] - 1
        if left:
            self._open[address] = left
        else:
            del self._open[address]
        self._count -= 1


class SharedCalls:
    """Calls with the same key that overlap in time run once and share the result, so
    thousands of subscribers woken by one event make one fetch per viewer."""

    def __init__(self) -> None:
        self._running: dict[Hashable, asyncio.Future[Any]] = {}

    async def run(self, key: Hashable, call: Callable[[], Awaitable[T]]) -> T:
        running = self._running.get(key)
        if running is None:
            running = asyncio.ensure_future(call())
            self._running[key] = running
            running.add_done_callback(lambda done: self._finished(key, done))
        # shield: one subscriber leaving must not cancel the fetch the others wait for.
        result: T = await asyncio.shield(running)
        return result

    def _finished(self, key: Hashable, done: asyncio.Future[Any]) -> None:
        self._running.pop(key, None)
        if not done.cancelled():
            done.exception()  # retrieved here, so a failure nobody awaited is not logged


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
