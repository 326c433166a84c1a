"""The async command path: a consumer group on every shard's command inbox.

Bots and chat integrations ``XADD`` to ``bw:{s<shard>}:cmd`` entries with the fields
``env`` (a ``CommandEnvelope``) and ``game``. Each game's engine service reads them in
the consumer group ``engines-<game>``, runs the same :class:`TableHost.execute` as the
gRPC path, records the outcome under the command id and acknowledges the entry. Every
game's group sees every entry: entries of another game are acknowledged unread.

Order. Commands of one table must be decided in the order they were sent. Two consumers
reading one inbox at once, or a new consumer reading fresh entries while a dead one
still holds older ones, would break that. So each shard's inbox is *leased* to one
consumer at a time (``bw:{s<shard>}:cmd:lease:<game>``, renewed every third of its
lifetime). A consumer that takes over a shard first claims every entry still pending
in the group (``XAUTOCLAIM``; the expired lease is the proof its owner is gone) and
handles them in stream order before reading new ones. Replicas spread the shards
between themselves through a heartbeat set of live consumers.

Failure. A command whose handling raises stays pending and is tried again after
``retry_delay_ms``; once it has been delivered ``max_deliveries`` times it is moved to
the dead-letter stream ``bw:{s<shard>}:dead`` with its reason and acknowledged: never
lost, never retried forever. Redis failing under it (the store unavailable, a failover)
is not the command's fault: such an attempt spends no delivery, and the command is tried
again after ``retry_delay_ms`` for as long as Redis takes to come back. Only the later
commands *of the same table* wait behind it (their order is the contract); every other
table's commands go on at once, so a poison command holds up nobody else. Re-running a
command that was applied but not acknowledged is harmless: its command id returns the
first outcome.

Refused at once, into the dead letters with a reason (retrying cannot help, and
acknowledging them unread would lose them without a trace): an envelope that does not
parse (``envelope.malformed``), a game no engine plays, wrong case included
(``game.not_found``; written once, whichever game's group sees it first), a table that
does not exist (``table.not_found``), a table of another game (``table.wrong_game``) and
a command sent to another shard's inbox than its table's (``table.wrong_shard``).
A command for a table of another game is *not* recorded as that table's rejection: an
engine never writes into another game's table, and the table's own command ids stay free.

Growth. Acknowledged entries are trimmed from the inbox once every game's group has
acknowledged them (:class:`~services.eventstore.StreamTrimmer`); the dead-letter stream
keeps the newest ``dead_letters_max`` entries per shard, the oldest dropped first.

Waiting. On one server a consumer blocks in one read on every inbox it holds. A Redis
Cluster cannot block on streams of several slots in one read: there it reads each inbox
without blocking and, when none had anything, sleeps on ``bw:inboxes:wake``
(:class:`services.wakeups.Sleeper`), which the scheduler writes after it fires; a writer
that does not write it (or a wake-up lost in a failover) is read within ``block_ms``.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import socket
import time
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from google.protobuf.message import DecodeError
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import RedisError, ResponseError

import engines
from engines.core import codes
from proto import common_pb2
from services.engine.host import TableHost
from services.engine.refusals import Refused
from services.eventstore import (
    INBOXES_WAKE_KEY,
    CommandApplied,
    CommandIdReused,
    CommandKey,
    ScriptCall,
    ShardKeys,
    StreamTrimmer,
    TableNotFound,
    engine_consumers_key,
    forget_idle_consumers,
    is_redis_trouble,
    run_scripts,
)
from services.logs import bind, get_logger
from services.wakeups import Sleeper

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

# Move one inbox entry to the dead letters and acknowledge it for this group. An entry of
# no known game is seen by every game's group; the marker makes one letter of it.
_DEAD_LETTER = """
local first = redis.call('SET', KEYS[3], ARGV[1], 'NX', 'PX', ARGV[3])
if first then
  redis.call('XADD', KEYS[2], 'MAXLEN', ARGV[4], '*', unpack(ARGV, 5))
end
redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])
if first then
  return 1
end
return 0
"""

# The dead letters' codes beside the engine's own refusals (see the module docstring).
GAME_NOT_FOUND = "game.not_found"
ENVELOPE_MALFORMED = "envelope.malformed"
TABLE_WRONG_SHARD = "table.wrong_shard"
COMMAND_FAILED = "command.failed"

# Longer than any group lags behind another in practice; a group later than that only
# writes a second letter for the same unroutable entry.
_DEAD_MARKER_TTL_MS = 24 * 3600 * 1000


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
    dead_letters_max: int = 10_000
    trim_every_s: float = 1.0


@dataclass(slots=True)
class _Command:
    """One inbox entry of this game, parsed, not yet acknowledged."""

    entry_id: bytes
    fields: dict[bytes, bytes]
    envelope: common_pb2.CommandEnvelope
    # Deliveries so far, this one included (the group's count after a takeover).
    deliveries: int
    error: str = ""


@dataclass
class _Shard:
    index: int
    keys: ShardKeys
    # Entries may be pending in the group: claim and handle them before reading new ones.
    recovering: bool = True
    # Tables whose oldest command failed: it waits for its retry, later ones behind it.
    blocked: dict[str, deque[_Command]] = field(default_factory=dict)
    retry_at: dict[str, float] = field(default_factory=dict)

    @property
    def holds_commands(self) -> bool:
        return self.recovering or bool(self.blocked)


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
        self.games = frozenset(engines.available())
        self.trimmer = StreamTrimmer(redis, self.settings.trim_every_s)
        self._acquire = redis.register_script(_ACQUIRE)
        self._release = redis.register_script(_RELEASE)
        self._move_to_dead = redis.register_script(_DEAD_LETTER)
        self._renewed_at = -math.inf
        self._cluster = isinstance(redis, RedisCluster)
        self._sent = Sleeper(redis, INBOXES_WAKE_KEY)
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
        """One round: renew leases, finish pending entries, retry what is due, then read
        and handle new entries, and trim what every group has acknowledged."""
        await self._renew_if_due()
        for shard in list(self.owned.values()):
            if shard.recovering:
                await self._recover(shard)
        for shard in list(self.owned.values()):
            await self._retry_due(shard)
        readable = [s for s in self.owned.values() if not s.recovering]
        if readable:
            for shard, entries in await self._read_new(readable):
                for entry_id, fields in entries:
                    if not await self._take(shard, entry_id, fields, deliveries=1):
                        break
        else:
            await asyncio.sleep(self.settings.poll_ms / 1000)
        await self.trimmer.trim_due()

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
            if not self.owned[index].holds_commands:
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
        # One pipeline on one server (a cluster, which refuses scripts in pipelines, gets
        # concurrent calls): concurrent calls each took a pooled connection, opening up to
        # one a shard every few seconds.
        calls = [
            ScriptCall(self._acquire, [lease_key(index, self.game)], [self.name, ttl])
            for index in ordered
        ]
        results = await run_scripts(self.redis, calls)
        return {index for index, ok in zip(ordered, results, strict=True) if ok == 1}

    async def release_all(self) -> None:
        for index in list(self.owned):
            await self._release(keys=[lease_key(index, self.game)], args=[self.name])
        self.owned.clear()
        await self.redis.zrem(engine_consumers_key(self.game), self.name)

    async def _still_own(self, shard: _Shard) -> bool:
        """Renew the leases if due; whether ``shard`` is still ours. Once it is lost, its
        unacknowledged entries belong to the shard's next owner."""
        await self._renew_if_due()
        return self.owned.get(shard.index) is shard

    # -- reading ------------------------------------------------------------------------

    def _block_for(self, readable: Sequence[_Shard]) -> int:
        """How long a read may block: never past the next retry that is due."""
        retries = [at for shard in readable for at in shard.retry_at.values()]
        if not retries:
            return self._block_ms
        until = (min(retries) - time.monotonic()) * 1000
        return max(1, min(self._block_ms, math.ceil(until)))

    async def _read_new(self, readable: Sequence[_Shard]) -> list[tuple[_Shard, list[Any]]]:
        by_stream = {shard.keys.cmd.encode(): shard for shard in readable}
        count = self.settings.batch
        if self._cluster:
            # A cluster cannot read streams of several slots in one call: read each without
            # blocking, and when none had anything sleep until a writer wakes us.
            await self._sent.mark()
            async with self.redis.pipeline(transaction=False) as pipe:
                for shard in readable:
                    pipe.xreadgroup(self.group, self.name, {shard.keys.cmd: ">"}, count=count)
                replies = await pipe.execute()
            found = [(stream, entries) for reply in replies for stream, entries in reply or []]
            if not found:
                await self._sent.sleep(self._block_for(readable))
        else:
            streams = {shard.keys.cmd: ">" for shard in readable}
            reply = await self.redis.xreadgroup(
                self.group, self.name, streams, count=count, block=self._block_for(readable)
            )
            found = list(reply or [])
        return [(by_stream[_as_bytes(stream)], entries) for stream, entries in found]

    async def _recover(self, shard: _Shard) -> None:
        """Claim the shard's pending entries one at a time and take them in stream order.

        One at a time, because a claim counts as a delivery: entries queued behind one
        that crashed its consumer must not use up their deliveries while they wait.
        """
        start: Any = "0-0"
        while True:
            reply = await self.redis.xautoclaim(
                shard.keys.cmd, self.group, self.name, 0, start_id=start, count=1
            )
            next_start, entries = reply[0], reply[1]
            for entry_id, fields in entries:
                if fields is None:
                    # Deleted from the stream while pending: nothing left to handle.
                    await self._ack(shard, entry_id)
                    continue
                deliveries = await self._deliveries(shard, entry_id)
                if not await self._take(shard, entry_id, fields, deliveries):
                    return
            if _as_bytes(next_start) == b"0-0":
                break
            start = next_start
        shard.recovering = False
        await forget_idle_consumers(
            self.redis, [shard.keys.cmd], self.group, 10 * self.settings.lease_ms
        )

    async def _deliveries(self, shard: _Shard, entry_id: Any) -> int:
        pending = await self.redis.xpending_range(
            shard.keys.cmd, self.group, min=entry_id, max=entry_id, count=1
        )
        return max((int(p["times_delivered"]) for p in pending), default=1)

    # -- taking entries in order ----------------------------------------------------------

    async def _take(
        self, shard: _Shard, entry_id: Any, fields: dict[bytes, bytes], deliveries: int
    ) -> bool:
        """Handle one entry read from the inbox, or queue it behind its table's failed
        command; False once the shard is no longer ours."""
        if not await self._still_own(shard):
            return False
        entry = _as_bytes(entry_id)
        game = fields.get(b"game", b"").decode(errors="replace")
        if game != self.game:
            if game in self.games:
                await self._ack(shard, entry)
            else:
                await self._dead_letter(shard, entry, fields, _unknown_game(game, self.games))
            return True
        envelope = common_pb2.CommandEnvelope()
        try:
            envelope.ParseFromString(fields[b"env"])
        except (KeyError, DecodeError):
            refusal = Refused("The env field is not a CommandEnvelope.", ENVELOPE_MALFORMED)
            await self._dead_letter(shard, entry, fields, refusal)
            return True
        command = _Command(entry, fields, envelope, deliveries)
        queue = shard.blocked.get(envelope.table_id)
        if queue is not None:
            queue.append(command)
            return True
        shard.blocked[envelope.table_id] = deque([command])
        return await self._drain(shard, envelope.table_id)

    async def _retry_due(self, shard: _Shard) -> None:
        now = time.monotonic()
        for table_id in [t for t, at in shard.retry_at.items() if at <= now]:
            del shard.retry_at[table_id]
            if not await self._drain(shard, table_id):
                return

    async def _drain(self, shard: _Shard, table_id: str) -> bool:
        """Handle the table's queued commands in order until one fails (it then waits for
        its retry); False once the shard is no longer ours."""
        queue = shard.blocked[table_id]
        retry_at = time.monotonic() + self.settings.retry_delay_ms / 1000
        while queue:
            command = queue[0]
            try:
                if not await self._still_own(shard):
                    return False
                done = await self._attempt(shard, command)
            except BaseException:
                # Redis went away under the lease renewal or the dead letter: the table is
                # tried again like a failed command, not left waiting for nothing.
                shard.retry_at[table_id] = retry_at
                raise
            if not done:
                shard.retry_at[table_id] = retry_at
                return True
            queue.popleft()
        del shard.blocked[table_id]
        return True

    async def _attempt(self, shard: _Shard, command: _Command) -> bool:
        """One delivery of ``command``: True when it is done with (handled or a dead
        letter), False when it failed and is to be tried again."""
        limit = self.settings.max_deliveries
        if command.deliveries > limit:
            # Delivered this often before, maybe to consumers it crashed: do not run it again.
            reason = command.error or f"no outcome after {limit} deliveries"
            await self._dead_letter(shard, command.entry_id, command.fields, reason)
            return True
        try:
            await self._handle(shard, command)
        except Refused as refused:
            await self._dead_letter(shard, command.entry_id, command.fields, refused)
        except Exception as failure:
            if is_redis_trouble(failure):
                # The store, not the command: no delivery spent, tried again later.
                log.warning(
                    "command.store_unavailable",
                    table_id=command.envelope.table_id,
                    command_id=command.envelope.command_id,
                    error=str(failure) or type(failure).__name__,
                )
                return False
            command.error = f"{type(failure).__name__}: {failure}"
            log.exception(
                "command.failed",
                entry=command.entry_id.decode(),
                shard=shard.index,
                table_id=command.envelope.table_id,
                command_id=command.envelope.command_id,
                deliveries=command.deliveries,
            )
            if command.deliveries >= limit:
                await self._dead_letter(shard, command.entry_id, command.fields, command.error)
                return True
            command.deliveries += 1
            return False
        return True

    # -- handling ---------------------------------------------------------------------

    async def _handle(self, shard: _Shard, command: _Command) -> None:
        envelope = command.envelope
        with bind(entry=command.entry_id.decode(), shard=shard.index):
            await self._check_shard(shard, envelope.table_id)
            response = await self.host.execute(envelope)
            rejection = response.rejected if response.HasField("rejected") else None
            if rejection is not None and rejection.code in (
                codes.TABLE_NOT_FOUND.code,
                codes.TABLE_WRONG_GAME.code,
            ):
                raise Refused(rejection.message, rejection.code)
            if rejection is not None and rejection.code == codes.VERSION_CONFLICT.code:
                await self._record(envelope, rejection)
        await self._ack(shard, command.entry_id)
        self.handled += 1

    async def _check_shard(self, shard: _Shard, table_id: str) -> None:
        """Refuse a command sent to another inbox than its table's shard: only that inbox
        keeps the table's commands in order. (No such table at all is said as such.)"""
        keys = self.host.store.keys(table_id)
        if keys.shard == shard.index:
            return
        if not await self.redis.exists(keys.meta):
            raise Refused(codes.TABLE_NOT_FOUND.message, codes.TABLE_NOT_FOUND.code)
        raise Refused(
            f"Table {table_id!r} takes its commands in the inbox of shard {keys.shard}.",
            TABLE_WRONG_SHARD,
        )

    async def _record(self, envelope: common_pb2.CommandEnvelope, rejection: Any) -> None:
        """On this path nobody waits for the reply: the conflict becomes the recorded outcome."""
        with contextlib.suppress(CommandApplied, CommandIdReused, TableNotFound):
            await self.host.store.record_rejection(
                envelope.table_id, CommandKey.of(envelope), rejection
            )

    async def _ack(self, shard: _Shard, entry_id: Any) -> None:
        await self.redis.xack(shard.keys.cmd, self.group, entry_id)
        self.trimmer.acknowledged(shard.keys.cmd)

    async def _dead_letter(
        self, shard: _Shard, entry_id: bytes, fields: dict[bytes, bytes], why: str | Refused
    ) -> None:
        """Move the entry to the shard's dead-letter stream with why, then acknowledge it."""
        code = why.code if isinstance(why, Refused) else COMMAND_FAILED
        reason = f"{code}: {why.message}" if isinstance(why, Refused) else why
        letter: dict[bytes, bytes] = dict(fields)
        letter.update(
            {
                b"code": code.encode(),
                b"reason": reason.encode(),
                b"entry": entry_id,
                b"group": self.group.encode(),
                b"consumer": self.name.encode(),
            }
        )
        written = await self._move_to_dead(
            keys=[shard.keys.cmd, shard.keys.dead, shard.keys.dead_marker(entry_id.decode())],
            args=[
                self.group,
                entry_id,
                _DEAD_MARKER_TTL_MS,
                self.settings.dead_letters_max,
                *(part for pair in letter.items() for part in pair),
            ],
        )
        self.trimmer.acknowledged(shard.keys.cmd)
        if written:
            log.error(
                "command.dead_letter",
                entry=entry_id.decode(),
                shard=shard.index,
                code=code,
                reason=reason,
            )


def _unknown_game(game: str, games: frozenset[str]) -> Refused:
    known = ", ".join(sorted(games))
    if not game:
        return Refused(f"The entry names no game (games: {known}).", GAME_NOT_FOUND)
    hint = ""
    for name in sorted(games):
        if name.casefold() == game.strip().casefold():
            hint = f" Did you mean {name!r}?"
    return Refused(f"No engine plays {game!r} (games: {known}).{hint}", GAME_NOT_FOUND)


def _as_bytes(value: Any) -> bytes:
    return value if isinstance(value, bytes) else str(value).encode()
