"""The event store: one hash-chained Redis Stream per table, written by atomic Lua scripts.

Writes
    :meth:`EventStore.create_table` and :meth:`EventStore.append` seal the events here
    (Redis Lua has no SHA-256) from the head the writer read, then run one script that
    re-checks that head against the version and hash stored in the table's meta hash,
    consults the command id, and writes the table stream, the shard feed, the head and
    the command's outcome together. A stale writer gets :class:`VersionConflict` and
    nothing is written; a repeated command id gets its first outcome back and nothing is
    written. All keys of one script share the shard's hash tag, so this holds on Redis
    Cluster too. There a write is followed, in the background, by an entry in
    ``bw:feeds:wake``, which wakes the projector (:class:`services.wakeups.Waker`).

Idempotency
    Command ids belong to the seat that sent them (:class:`CommandKey`): the outcome is
    recorded under ``<seat>:<command id>`` together with the command's fingerprint. The
    same seat sending the same id for the same command gets the first outcome; for a
    different command, :class:`CommandIdReused`. The store keeps the outcome as
    ``fingerprint (32 bytes) || "a:<first>:<last>"`` (applied: the versions it appended)
    or ``fingerprint || "r:" || Rejection bytes``.

Durability (what a crash can and cannot lose)
    * A script runs atomically and its effects reach the AOF as one MULTI/EXEC block; a
      torn block at the AOF's tail is dropped on restart. So an event is never in the
      table stream without its feed entry, head update and idempotency record, or the
      other way round, and the hash chain never has a hole.
    * On servers with ``WAITAOF`` (Redis >= 7.2, Valkey) and AOF on, every write is
      followed, on the same connection, by ``WAITAOF 1 0 <timeout>``: a write is
      acknowledged only after the local AOF holds it fsynced, so a crash of the server,
      the OS or the machine loses no acknowledged command. A write applied but not
      confirmed in time raises :class:`NotDurable`; retrying its command id is safe.
      Pair it with ``appendfsync always`` (about 3 ms an append here): under
      ``everysec`` each WAITAOF waits for the next background fsync (about 110 ms).
    * Without ``WAITAOF`` (Redis 7.0) the guarantee is the server's ``appendfsync``:
      the private server (:mod:`services.redis_server`) runs ``always``, which fsyncs
      before replying, so nothing acknowledged is lost; a server with ``everysec`` can
      lose up to about one second of acknowledged writes on an OS crash or power loss
      (a crash of the Redis process alone loses nothing: the data is already written to
      the kernel). With AOF off, everything since the last RDB save is at risk.
    * Commands in flight when the server dies are either wholly applied or not at all;
      a client that saw no reply retries with the same command id and gets the outcome.
    * Snapshots and read models are caches and derived data: losing them loses nothing.
    * Replicas are waited for only in the ``replicas`` durability mode
      (:mod:`services.eventstore.durability`); in the default ``local`` mode a failover to
      a lagging replica can lose acknowledged writes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Final

from redis.commands.core import AsyncScript

from engines.core.canonical import message_bytes
from engines.core.hashchain import sealed_hash
from proto import common_pb2
from services.eventstore.connection import AnyRedis
from services.eventstore.durability import Durability, Waits, server_supports_waitaof, waits_for
from services.eventstore.keys import FEEDS_WAKE_KEY, Keys, ShardKeys, command_field, shard_of
from services.eventstore.model import (
    Appended,
    CommandApplied,
    CommandIdReused,
    CommandKey,
    CommandRejected,
    Head,
    Lookup,
    TableExists,
    TableNotFound,
    VersionConflict,
)
from services.eventstore.pipelined import AutoPipeline, ScriptCall
from services.wakeups import Waker

__all__ = ["EventStore"]

_APPLIED: Final = b"a:"
_REJECTED: Final = b"r:"
_FINGERPRINT: Final = 32
_EVENT_FIELD: Final = b"e"


def _lua(name: str) -> str:
    return resources.files("services.eventstore").joinpath("lua", f"{name}.lua").read_text()


def _sealed(
    events: Sequence[common_pb2.StoredEvent],
    head: Head,
    command_id: str | None,
) -> tuple[common_pb2.StoredEvent, ...]:
    """Number ``events`` after ``head`` and chain them onto its hash.

    An event may come numbered already (its commitments depend on its version): then
    its number must be the one it gets here.
    """
    sealed: list[common_pb2.StoredEvent] = []
    prev_hash = head.hash
    for version, event in enumerate(events, start=head.version + 1):
        if event.version not in (0, version):
            raise ValueError(f"an event numbered {event.version} would be version {version}")
        # One copy, sealed in place (``seal`` would copy it again).
        draft = common_pb2.StoredEvent()
        draft.CopyFrom(event)
        draft.version = version
        if command_id is not None:
            draft.command_id = command_id
        draft.prev_hash = prev_hash
        draft.hash = prev_hash = sealed_hash(draft)
        sealed.append(draft)
    return tuple(sealed)


def _event_of(fields: Mapping[bytes | str, bytes | str] | None) -> common_pb2.StoredEvent:
    """The event held by one stream entry (entries always carry the ``e`` field)."""
    if fields is None or _EVENT_FIELD not in fields:
        raise ValueError("stream entry without an event")
    return common_pb2.StoredEvent.FromString(_as_bytes(fields[_EVENT_FIELD]))


def _snapshot_checksum(version: int, blob: bytes) -> bytes:
    return hashlib.sha256(version.to_bytes(8, "big") + blob).digest()


class EventStore:
    """Tables as hash-chained event streams in Redis (see the module docstring).

    ``redis`` is a ``redis.asyncio`` client with ``decode_responses=False``, plain or
    cluster (:func:`services.eventstore.connect` picks). ``shards`` must be the same for
    every process of a deployment. ``durability`` says when a write counts as stored
    (:mod:`services.eventstore.durability`); ``waitaof=None`` asks the server once whether
    it supports ``WAITAOF``, ``True`` forces it, ``False`` never uses it.
    """

    def __init__(
        self,
        redis: AnyRedis,
        shards: int = 64,
        waitaof: bool | None = None,
        *,
        durability: Durability | None = None,
    ) -> None:
        if shards < 1:
            raise ValueError("shards must be at least 1")
        self.redis = redis
        self.shards = shards
        self.durability = durability or Durability()
        self._waitaof = waitaof
        self._waits: Waits | None = None
        self._create = redis.register_script(_lua("create"))
        self._append = redis.register_script(_lua("append"))
        self._reject = redis.register_script(_lua("reject"))
        # Writes of many tables made at the same instant, or while the previous batch is
        # on its way, share one round trip (and, under appendfsync always, one fsync).
        # With waits after each write, each write keeps
        # its own connection for them, so those go alone.
        self._batched = AutoPipeline(redis)
        # On a cluster the projector cannot block on every shard feed: it sleeps on this.
        self._feeds_written = Waker(redis, FEEDS_WAKE_KEY)

    def keys(self, table_id: str) -> Keys:
        return Keys(shard=shard_of(table_id, self.shards), table_id=table_id)

    @property
    def append_script(self) -> AsyncScript:
        """The append script (the benchmarks run it bare, pipelined, as a ceiling)."""
        return self._append

    def shard_keys(self, shard: int) -> ShardKeys:
        if not 0 <= shard < self.shards:
            raise ValueError(f"shard {shard} is outside 0..{self.shards - 1}")
        return ShardKeys(shard)

    async def waits_for_aof(self) -> bool:
        """Whether writes wait for ``WAITAOF`` (asks the server on first use)."""
        if self._waitaof is None:
            self._waitaof = await server_supports_waitaof(self.redis)
        return self._waitaof

    async def waits(self) -> Waits:
        """The waits after each write in this store's durability mode, on this server."""
        if self._waits is None:
            self._waits = await waits_for(self.redis, self.durability, await self.waits_for_aof())
        return self._waits

    # -- writes -------------------------------------------------------------------------

    async def create_table(
        self,
        meta: common_pb2.TableMeta,
        seed: bytes,
        events: Sequence[common_pb2.StoredEvent],
    ) -> Appended:
        """Store a new table with its secret seed and set-up events (sealed from GENESIS).

        Raises :class:`TableExists` when the id is taken; then nothing is written.
        """
        if not meta.table_id:
            raise ValueError("a table needs an id")
        keys = self.keys(meta.table_id)
        sealed = _sealed(events, Head.empty(), command_id=None)
        created = Appended(1, len(sealed), sealed, duplicate=False)
        reply = await self._run(
            self._create,
            keys,
            [keys.meta, keys.events, keys.feed, keys.tables],
            [
                meta.table_id,
                meta.game,
                message_bytes(meta),
                seed,
                created.head.hash,
                *(message_bytes(event) for event in sealed),
            ],
        )
        if reply[0] == b"exists":
            raise TableExists(meta.table_id)
        self._feeds_written.wake()
        return created

    async def append(
        self,
        table_id: str,
        command: CommandKey,
        expected: Head,
        events: Sequence[common_pb2.StoredEvent],
    ) -> Appended:
        """Append one command's events if the table is still at ``expected``.

        The store sets each event's ``version`` (``expected.version + 1`` onwards) and
        ``command_id``; seat, time, payload, command and commitments come from the caller.
        Raises :class:`VersionConflict` (with the actual head) when ``expected`` is stale,
        :class:`TableNotFound`, :class:`CommandRejected` when this seat's command id was
        rejected before, and :class:`CommandIdReused` when it was used for another
        command. A command id applied before for this command returns that first outcome
        with ``duplicate=True``, whatever ``expected`` and ``events`` are now.
        """
        if not events:
            raise ValueError("an append needs at least one event")
        if not command.command_id:
            raise ValueError("an append needs a command id")
        keys = self.keys(table_id)
        sealed = _sealed(events, expected, command.command_id)
        applied = Appended(sealed[0].version, sealed[-1].version, sealed, duplicate=False)
        reply = await self._run(
            self._append,
            keys,
            [keys.meta, keys.events, keys.cmds, keys.feed],
            [
                table_id,
                command.field,
                expected.version,
                expected.hash,
                sealed[-1].hash,
                _recorded(command, applied),
                *(message_bytes(event) for event in sealed),
            ],
        )
        status = reply[0]
        if status == b"ok":
            self._feeds_written.wake()
            return applied
        if status == b"missing":
            raise TableNotFound(table_id)
        if status == b"conflict":
            raise VersionConflict(table_id, expected, Head(int(reply[1]), reply[2]))
        prior = await self._prior(table_id, command, reply[1])
        if isinstance(prior, Appended):
            return prior
        raise CommandRejected(command.command_id, prior)

    async def record_rejection(
        self, table_id: str, command: CommandKey, rejection: common_pb2.Rejection
    ) -> common_pb2.Rejection:
        """Record that this seat's command was refused; the first outcome under an id wins.

        Returns the rejection that stands (an earlier one if the id was rejected before).
        Raises :class:`CommandApplied` when the id was applied before,
        :class:`CommandIdReused` when it was used for another command, and
        :class:`TableNotFound`.
        """
        keys = self.keys(table_id)
        reply = await self._run(
            self._reject,
            keys,
            [keys.meta, keys.cmds],
            [command.field, _recorded(command, rejection)],
        )
        if reply[0] == b"missing":
            raise TableNotFound(table_id)
        stored = await self._prior(table_id, command, reply[1])
        if isinstance(stored, Appended):
            raise CommandApplied(command.command_id, stored)
        return stored

    async def save_snapshot(self, table_id: str, version: int, blob: bytes) -> None:
        """Cache the state at ``version``; stored with a checksum so damage is noticed."""
        await self.redis.hset(
            self.keys(table_id).snap,
            mapping={
                "v": version,
                "sum": _snapshot_checksum(version, blob),
                "blob": blob,
            },
        )

    # -- reads --------------------------------------------------------------------------

    async def outcome(
        self, table_id: str, seat: int, command_id: str
    ) -> Appended | common_pb2.Rejection | None:
        """What happened to ``seat``'s ``command_id`` on this table, or None if it was never
        decided."""
        keys = self.keys(table_id)
        stored = await self.redis.hget(keys.cmds, command_field(seat, command_id))
        if stored is None:
            return None
        await self._confirm_durable(keys)
        return await self._decode_outcome(table_id, _as_bytes(stored)[_FINGERPRINT:])

    async def lookup(self, table_id: str, command: CommandKey) -> Lookup:
        """The table's head and game and the command's first outcome, in one round trip
        (the keys share the table's slot). Raises :class:`CommandIdReused`."""
        keys = self.keys(table_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.hget(keys.cmds, command.field)
        pipe.hmget(keys.meta, ["version", "hash", "game"])
        stored, (version, hash_, game) = await pipe.execute()
        prior = None
        if stored is not None:
            prior = await self._prior(table_id, command, stored)
            await self._confirm_durable(keys)
        if version is None or hash_ is None:
            return Lookup(None, "", prior)
        return Lookup(Head(int(version), _as_bytes(hash_)), _as_bytes(game or b"").decode(), prior)

    async def read(
        self, table_id: str, after: int = 0, count: int | None = None
    ) -> list[common_pb2.StoredEvent]:
        """Events with version > ``after``, oldest first, at most ``count`` of them."""
        keys = self.keys(table_id)
        entries = await self.redis.xrange(keys.events, min=f"{after + 1}-0", count=count)
        if not entries and not await self.redis.exists(keys.meta):
            raise TableNotFound(table_id)
        return [_event_of(fields) for _, fields in entries or []]

    async def head(self, table_id: str) -> Head:
        version, hash_ = await self.redis.hmget(self.keys(table_id).meta, ["version", "hash"])
        if version is None or hash_ is None:
            raise TableNotFound(table_id)
        return Head(int(version), _as_bytes(hash_))

    async def meta(self, table_id: str) -> common_pb2.TableMeta:
        stored = await self.redis.hget(self.keys(table_id).meta, "meta")
        if stored is None:
            raise TableNotFound(table_id)
        return common_pb2.TableMeta.FromString(_as_bytes(stored))

    async def seed(self, table_id: str) -> bytes:
        """The table's secret seed; callers reveal it only once the game is over."""
        stored = await self.redis.hget(self.keys(table_id).meta, "seed")
        if stored is None:
            raise TableNotFound(table_id)
        return _as_bytes(stored)

    async def meta_and_seed(self, table_id: str) -> tuple[common_pb2.TableMeta, bytes]:
        """The table's meta and secret seed in one read."""
        meta, seed = await self.redis.hmget(self.keys(table_id).meta, ["meta", "seed"])
        if meta is None or seed is None:
            raise TableNotFound(table_id)
        return common_pb2.TableMeta.FromString(_as_bytes(meta)), _as_bytes(seed)

    async def load_snapshot(self, table_id: str) -> tuple[int, bytes] | None:
        """The cached ``(version, blob)``, or None when missing or damaged."""
        version, checksum, blob = await self.redis.hmget(
            self.keys(table_id).snap, ["v", "sum", "blob"]
        )
        if version is None or checksum is None or blob is None:
            return None
        try:
            at = int(version)
        except ValueError:
            return None
        if at < 0 or _snapshot_checksum(at, _as_bytes(blob)) != checksum:
            return None
        return at, _as_bytes(blob)

    async def table_ids(self, shard: int) -> list[str]:
        """Ids of every table of ``shard``, sorted: the input of a read-model rebuild."""
        members = await self.redis.smembers(self.shard_keys(shard).tables)
        return sorted(_as_bytes(member).decode() for member in members)

    # -- plumbing -----------------------------------------------------------------------

    async def _prior(
        self, table_id: str, command: CommandKey, stored: bytes | str
    ) -> Appended | common_pb2.Rejection:
        """The outcome recorded under ``command``'s id, if it was recorded for this command."""
        raw = _as_bytes(stored)
        if raw[:_FINGERPRINT] != command.fingerprint:
            raise CommandIdReused(command.command_id)
        return await self._decode_outcome(table_id, raw[_FINGERPRINT:])

    async def _confirm_durable(self, keys: Keys) -> None:
        """Wait until what the server holds is as durable as the mode promises, before an
        outcome is reported: it may have been written by a call whose own wait failed."""
        waits = await self.waits()
        if waits:
            await waits.run(self.redis, keys.durable, keys.table_id)

    async def _decode_outcome(
        self, table_id: str, stored: bytes
    ) -> Appended | common_pb2.Rejection:
        if stored.startswith(_REJECTED):
            return common_pb2.Rejection.FromString(stored[len(_REJECTED) :])
        first, last = (int(part) for part in stored[len(_APPLIED) :].split(b":"))
        entries = await self.redis.xrange(
            self.keys(table_id).events, min=f"{first}-1", max=f"{last}-1"
        )
        events = tuple(_event_of(fields) for _, fields in entries or [])
        return Appended(first, last, events, duplicate=True)

    async def _run(
        self,
        script: AsyncScript,
        keys: Keys,
        script_keys: list[str],
        args: list[str | bytes | int],
    ) -> list[bytes]:
        """Run a write script, then wait (on the same connection) until it is durable."""
        waits = await self.waits()
        if not waits:
            return _as_reply(await self._batched.call(ScriptCall(script, script_keys, args)))
        command = ("EVALSHA", script.sha, len(script_keys), *script_keys, *args)
        reply = await waits.run(self.redis, keys.durable, keys.table_id, command, script.script)
        return _as_reply(reply)


def _recorded(command: CommandKey, outcome: Appended | common_pb2.Rejection) -> bytes:
    """How an outcome is kept under the command's field: its fingerprint, then the outcome."""
    if isinstance(outcome, Appended):
        return (
            command.fingerprint
            + _APPLIED
            + b"%d:%d" % (outcome.first_version, outcome.last_version)
        )
    return command.fingerprint + _REJECTED + message_bytes(outcome)


def _as_bytes(value: bytes | str) -> bytes:
    return value if isinstance(value, bytes) else value.encode()


def _as_reply(reply: object) -> list[bytes]:
    """A script's reply as a list of bytes (numbers are rendered as their digits)."""
    if not isinstance(reply, list):
        raise TypeError(f"unexpected script reply {reply!r}")
    return [item if isinstance(item, bytes) else str(item).encode() for item in reply]
