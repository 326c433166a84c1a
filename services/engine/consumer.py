"""The async command path: a consumer group on every shard's command stream.

Bots and chat integrations ``XADD`` to ``bw:{s<shard>}:cmd`` entries with the fields
``env`` (a ``CommandEnvelope``) and ``game``. Each game's engine service reads them in
the consumer group ``engines-<game>``, runs the same :class:`TableHost.execute` as the
gRPC path, records the outcome under the command id and acknowledges the entry. Entries
of other games are acknowledged unread: every game's group sees every entry.

Order. Commands of one table must be decided in the order they were sent. Two consumers
reading one stream at once, or a new consumer reading fresh entries while a dead one
still holds older ones, would break that. So each shard's stream is *leased* to one
consumer at a time (``bw:{s<shard>}:cmd:lease:<game>``, renewed every third of its
lifetime). A consumer that takes over a shard first claims every entry still pending
in the group (``XAUTOCLAIM``; the expired lease is the proof its owner is gone) and
handles them in stream order before reading new ones. Replicas spread the shards
between themselves through a heartbeat set of live consumers.

Failure. A command whose handling raises stays pending and is claimed again after a
pause; once it has been delivered more than ``max_deliveries`` times it is moved to the
dead-letter stream ``bw:{s<shard>}:dead`` with its reason and acknowledged: never lost,
never retried forever. A table that does not exist and an envelope that does not parse
are dead letters at once (retrying cannot help). Re-running a command that was applied
but not acknowledged is harmless: its command id returns the first outcome.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import socket
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from google.protobuf.message import DecodeError
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import RedisError, ResponseError

from proto import common_pb2
from services.engine.host import TableHost
from services.eventstore import (
    CommandApplied,
    CommandIdReused,
    CommandKey,
    ShardKeys,
    TableNotFound,
    engine_consumers_key,
    forget_idle_consumers,
)
from services.logs import bind, get_logger

__all__ = [
    "CommandConsumer",
    "ConsumerSettings",
    "consumer_group",
    "lease_key",
]

log = get_logger("engine.consumer")

_ACQUIRE = """
local owner = redis.call('GET', KEYS[1])
if owner == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not owner then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


def consumer_group(game: str) -> str:
    """The consumer group of one game's engine services."""
    return f"engines-{game}"


def lease_key(shard: int, game: str) -> str:
    """Who handles the shard's commands for ``game`` now; shares the shard's hash tag."""
    return ShardKeys(shard).lease(game)


@dataclass(frozen=True, slots=True)
class ConsumerSettings:
    """How the consumer paces itself; see the module docstring."""

    lease_ms: int = 10_000
    max_deliveries: int = 5
    retry_delay_ms: int = 500
    batch: int = 100
    block_ms: int = 1000
    poll_ms: int = 50


@dataclass
class _Shard:
    index: int
    keys: ShardKeys
    # Entries may be pending in the group: claim and handle them before reading new ones.
    recovering: bool = True
    retry_at: float = 0.0
    errors: dict[bytes, str] = field(default_factory=dict)


class CommandConsumer:
    """Reads the shards it holds a lease on and hands each command to the host."""

    def __init__(
        self,
        redis: Any,
        host: TableHost,
        shards: int,
        settings: ConsumerSettings | None = None,
        *,
        name: str | None = None,
    ) -> None:
        self.redis = redis
        self.host = host
        self.shards = shards
        self.settings = settings or ConsumerSettings()
        self.game = host.game
        self.group = consumer_group(self.game)
        self.name = name or f"{socket.gethostname()}-{os.getpid()}-{os.urandom(3).hex()}"
        self.owned: dict[int, _Shard] = {}
        self.handled = 0
        self._acquire = redis.register_script(_ACQUIRE)
        self._release = redis.register_script(_RELEASE)
        self._renewed_at = -math.inf
        self._cluster = isinstance(redis, RedisCluster)
        # A blocking read must end well before the lease needs renewing.
        self._block_ms = max(1, min(self.settings.block_ms, self.settings.lease_ms // 4))

    async def run(self, stop: asyncio.Event) -> None:
        """Consume until ``stop`` is set, then give the leases back."""
        await self.ensure_groups()
        log.info("consumer.started", consumer=self.name, group=self.group)
        try:
            while not stop.is_set():
                await self.step()
        finally:
            try:
                await self.release_all()
            except RedisError as gone:
                # Unreleased leases simply expire; another replica waits lease_ms longer.
                log.warning("consumer.leases_not_released", error=str(gone))
            log.info("consumer.stopped", consumer=self.name, handled=self.handled)

    async def ensure_groups(self) -> None:
        """Create the group on every shard's stream, from its first entry."""
        for shard in range(self.shards):
            try:
                await self.redis.xgroup_create(
                    ShardKeys(shard).cmd, self.group, id="0", mkstream=True
                )
            except ResponseError as exists:
                if "BUSYGROUP" not in str(exists):
                    raise

    async def step(self) -> None:
        """One round: renew leases, finish pending entries, then read and handle new ones."""
        await self._renew_if_due()
        for shard in list(self.owned.values()):
            if shard.recovering and time.monotonic() >= shard.retry_at:
                await self._recover(shard)
        readable = [s for s in self.owned.values() if not s.recovering]
        if not readable:
            await asyncio.sleep(self.settings.poll_ms / 1000)
            return
        batches = await self._read_new(readable)
        for shard, entries in batches:
            await self._handle_in_order(shard, entries)

    # -- leases -----------------------------------------------------------------------

    async def _renew_if_due(self) -> None:
        if time.monotonic() - self._renewed_at > self.settings.lease_ms / 3000:
            await self.renew_leases()

    async def renew_leases(self) -> None:
        """Keep the shards we hold, take free ones up to our fair share, give up the rest."""
        now = time.time()
        live = engine_consumers_key(self.game)
        await self.redis.zadd(live, {self.name: now})
        await self.redis.zremrangebyscore(live, 0, now - self.settings.lease_ms / 1000)
        consumers = max(1, int(await self.redis.zcard(live)))
        share = math.ceil(self.shards / consumers)
        ttl = self.settings.lease_ms
        kept = await self._try_leases(self.owned, ttl)
        for index in [i for i in self.owned if i not in kept]:
            log.warning("consumer.lease_lost", shard=index)
            del self.owned[index]
        for index in sorted(self.owned, reverse=True)[: max(0, len(self.owned) - share)]:
            if not self.owned[index].recovering:
                await self._release(keys=[lease_key(index, self.game)], args=[self.name])
                del self.owned[index]
        wanted = share - len(self.owned)
        if wanted > 0:
            start = int.from_bytes(self.name.encode()[-4:], "big") % self.shards
            free = [(start + i) % self.shards for i in range(self.shards)]
            candidates = [i for i in free if i not in self.owned]
            taken = await self._try_leases(candidates, ttl)
            for index in [i for i in candidates if i in taken][:wanted]:
                self.owned[index] = _Shard(index, ShardKeys(index))
            for index in [i for i in candidates if i in taken][wanted:]:
                await self._release(keys=[lease_key(index, self.game)], args=[self.name])
        self._renewed_at = time.monotonic()

    async def _try_leases(self, shards: Iterable[int], ttl: int) -> set[int]:
        ordered = list(shards)
        # Concurrent calls rather than a pipeline: cluster pipelines refuse scripts.
        results = await asyncio.gather(
            *(
                self._acquire(keys=[lease_key(index, self.game)], args=[self.name, ttl])
                for index in ordered
            )
        )
        return {index for index, ok in zip(ordered, results, strict=True) if ok == 1}

    async def release_all(self) -> None:
        for index in list(self.owned):
            await self._release(keys=[lease_key(index, self.game)], args=[self.name])
        self.owned.clear()
        await self.redis.zrem(engine_consumers_key(self.game), self.name)

    # -- reading ------------------------------------------------------------------------

    async def _read_new(self, readable: Sequence[_Shard]) -> list[tuple[_Shard, list[Any]]]:
        by_stream = {shard.keys.cmd.encode(): shard for shard in readable}
        count = self.settings.batch
        if self._cluster:
            # A cluster cannot read streams of several slots in one call.
            async with self.redis.pipeline(transaction=False) as pipe:
                for shard in readable:
                    pipe.xreadgroup(self.group, self.name, {shard.keys.cmd: ">"}, count=count)
                replies = await pipe.execute()
            found = [(stream, entries) for reply in replies for stream, entries in reply or []]
            if not found:
                await asyncio.sleep(self.settings.poll_ms / 1000)
        else:
            streams = {shard.keys.cmd: ">" for shard in readable}
            reply = await self.redis.xreadgroup(
                self.group, self.name, streams, count=count, block=self._block_ms
            )
            found = list(reply or [])
        return [(by_stream[_as_bytes(stream)], entries) for stream, entries in found]

    async def _recover(self, shard: _Shard) -> None:
        """Claim the shard's pending entries one at a time and handle them in stream order.

        One at a time, because a claim counts as a delivery: entries queued behind a
        failing one must not use up their deliveries while they wait.
        """
        start: Any = "0-0"
        while True:
            reply = await self.redis.xautoclaim(
                shard.keys.cmd, self.group, self.name, 0, start_id=start, count=1
            )
            next_start, entries = reply[0], reply[1]
            if entries and not await self._handle_in_order(shard, entries, claimed=True):
                return
            if _as_bytes(next_start) == b"0-0":
                break
            start = next_start
        shard.recovering = False
        await forget_idle_consumers(
            self.redis, shard.keys.cmd, self.group, 10 * self.settings.lease_ms
        )

    async def _handle_in_order(
        self, shard: _Shard, entries: Sequence[Any], *, claimed: bool = False
    ) -> bool:
        """Handle ``entries`` one by one; stop at the first failure to keep the order."""
        deliveries = await self._deliveries(shard, entries) if claimed else {}
        for entry_id, fields in entries:
            # A long batch must not outlive the lease; once it is lost, the rest of the
            # batch belongs to the shard's next owner.
            await self._renew_if_due()
            if self.owned.get(shard.index) is not shard:
                return False
            if deliveries.get(_as_bytes(entry_id), 1) > self.settings.max_deliveries:
                reason = shard.errors.pop(
                    _as_bytes(entry_id),
                    f"no outcome after {self.settings.max_deliveries} deliveries",
                )
                await self._dead_letter(shard, entry_id, fields, reason)
                continue
            try:
                await self._handle(shard, entry_id, fields)
            except Exception as failure:
                shard.errors[_as_bytes(entry_id)] = f"{type(failure).__name__}: {failure}"
                log.exception("command.failed", entry=_text(entry_id), shard=shard.index)
                shard.recovering = True
                shard.retry_at = time.monotonic() + self.settings.retry_delay_ms / 1000
                return False
            shard.errors.pop(_as_bytes(entry_id), None)
        return True

    async def _deliveries(self, shard: _Shard, entries: Sequence[Any]) -> dict[bytes, int]:
        pending = await self.redis.xpending_range(
            shard.keys.cmd,
            self.group,
            min=entries[0][0],
            max=entries[-1][0],
            count=len(entries),
        )
        return {_as_bytes(p["message_id"]): int(p["times_delivered"]) for p in pending}

    # -- handling ---------------------------------------------------------------------

    async def _handle(self, shard: _Shard, entry_id: Any, fields: dict[bytes, bytes]) -> None:
        game = fields.get(b"game", b"").decode(errors="replace")
        if game != self.game:
            await self._ack(shard, entry_id)
            return
        envelope = common_pb2.CommandEnvelope()
        try:
            envelope.ParseFromString(fields[b"env"])
        except (KeyError, DecodeError):
            await self._dead_letter(shard, entry_id, fields, "envelope.malformed")
            return
        with bind(entry=_text(entry_id), shard=shard.index):
            response = await self.host.execute(envelope)
            rejection = response.rejected if response.HasField("rejected") else None
            if rejection is not None and rejection.code == "table.not_found":
                await self._dead_letter(
                    shard, entry_id, fields, f"table.not_found: {rejection.message}"
                )
                return
            if rejection is not None and rejection.code == "version.conflict":
                await self._record(envelope, rejection)
        await self._ack(shard, entry_id)
        self.handled += 1

    async def _record(self, envelope: common_pb2.CommandEnvelope, rejection: Any) -> None:
        """On this path nobody waits for the reply: the conflict becomes the recorded outcome."""
        with contextlib.suppress(CommandApplied, CommandIdReused, TableNotFound):
            await self.host.store.record_rejection(
                envelope.table_id, CommandKey.of(envelope), rejection
            )

    async def _ack(self, shard: _Shard, entry_id: Any) -> None:
        await self.redis.xack(shard.keys.cmd, self.group, entry_id)

    async def _dead_letter(
        self, shard: _Shard, entry_id: Any, fields: dict[bytes, bytes], reason: str
    ) -> None:
        """Move the entry to the shard's dead-letter stream with why, then acknowledge it."""
        letter: dict[Any, Any] = dict(fields)
        letter.update(
            {
                b"reason": reason.encode(),
                b"entry": _as_bytes(entry_id),
                b"group": self.group.encode(),
                b"consumer": self.name.encode(),
            }
        )
        await self.redis.xadd(shard.keys.dead, letter)
        await self._ack(shard, entry_id)
        log.error("command.dead_letter", entry=_text(entry_id), shard=shard.index, reason=reason)


def _as_bytes(value: Any) -> bytes:
    return value if isinstance(value, bytes) else str(value).encode()


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
