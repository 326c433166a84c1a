"""The projector: shard feeds in, read models out.

It reads every shard feed ``bw:{s<shard>}:feed`` in the consumer group ``projector``,
folds each table's events with its game's ``evolve`` and writes, per table:

``bw:{s<shard>}:t:<id>:view:public``   the spectator's view
``bw:{s<shard>}:t:<id>:view:seat:<n>`` each seat's view
``bw:{s<shard>}:t:<id>:view:status``   game, seats, version, phase, to_act, finished,
                                       scores, winners, and the table's control: why it
                                       ended (``end``), seats that left, bot seats, clocks

each a hash ``{version, json}`` (canonical JSON: sorted keys, no spaces), and the
table's entry in the lobby indexes (:mod:`services.projector.lobby`), and the table's
plan of due timeouts and bots' turns for the scheduler (:mod:`services.scheduler.due`).

Crash safety. A table's read models are written by one script, and only when their
version is above the stored one, so a repeated or late write is a no-op. The lobby entry
is written first with the same rule. The feed entries are acknowledged only after the
writes (on one server, in the round trip of the next read): a crash in between means
reprocessing, which changes nothing. A table's status lives on its feed's node, so a
failover there loses an acknowledgement with the status it followed; the lobby lives on
another node, so before acknowledging a batch the projector waits until the lobby's
writes are as durable as the deployment's durability mode asks
(:mod:`services.eventstore.durability`): in the ``replicas`` mode, a lobby entry is never
lost behind an acknowledged feed entry. A feed event that is not the next one after the
stored projection (a gap, a restart, another projector replica ahead) is answered by
reading the table's own stream, the source of truth.

Views in memory. The spectator's and the seats' views are most of what a command
writes (kilobytes each, all of them rewritten with every command), and all of it can be
derived again from the log, so they are kept out of the append-only file and off the
replicas (``redis.set_repl``): appending them made the AOF grow by megabytes a second
under load, and its rewrites stalled every command. The status (the version the views
are at, with whose turn it is) is written with them in the same script, but replicated
and appended like the log, so after a Redis restart or a failover the status says how
far the projection went, and the turns after it are announced once, not again. A view
behind its status is then a lost one: the gateway answers that read from the engine
service, current by construction, and names the table in ``bw:views:lost``, and the
projector writes its views again at the status's version (:meth:`Projector.restore_views`);
a table's next command writes all of its views anyway.

Growth. Feed entries every consumer group has acknowledged are trimmed (at most once a
second per feed). A finished table's read models, snapshot, command ids and lobby entry
expire after ``finished_ttl_s`` (:mod:`services.projector.retention`); the periodic
sweep runs about once a second.

Wake-ups. With a batch's writes the projector adds one entry to ``bw:projected`` (table
id -> version), which the gateways follow to answer reads waiting for a version
(``?min_version``) the moment it is there; on a cluster, where the scripts of a batch run
concurrently, with its acknowledgements instead (the tables whose read models moved). On a
Redis Cluster, which cannot block on the feeds of several slots in one read, the projector
sleeps between empty reads on ``bw:feeds:wake``, which the event store writes after appends
(at most ``block_ms``, should a wake-up be lost), and wakes the notifier through
``bw:notify:wake`` when it published turn changes.

``rebuild()`` drops every read model and writes them again from the table logs; the
result is byte-identical to the incremental one because both render the state at the
same head version with the same functions.
"""

from __future__ import annotations

import asyncio
import os
import socket
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cachetools import LRUCache
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ResponseError

import engines
from engines.core.canonical import canonical_json
from engines.core.contract import Engine, Outcome
from engines.core.control import (
    Control,
    TableRules,
    due,
    fold_table,
    table_outcome,
    table_to_act,
)
from proto import common_pb2
from services.config import TABLES_HELD
from services.eventstore import (
    FEEDS_WAKE_KEY,
    NOTIFY_WAKE_KEY,
    PROJECTED_KEPT,
    PROJECTED_KEY,
    PROJECTOR_LAG_KEY,
    VIEWS_LOST_KEY,
    Acknowledgements,
    Durability,
    EventStore,
    Keys,
    LobbyKeys,
    NotDurable,
    ScriptCall,
    ShardKeys,
    StreamTrimmer,
    TableNotFound,
    forget_idle_consumers,
    is_redis_trouble,
    run_scripts,
)
from services.eventstore.durability import Waits, waits_for
from services.logs import bind, get_logger
from services.notifications.turns import (
    TURN_FIELDS,
    TURN_VERSION_AT,
    TURNS_KEPT,
    TurnChange,
    command_runs,
    is_news,
)
from services.projector.lobby import Lobby
from services.projector.retention import FINISHED_TTL_S, Retention
from services.scheduler.due import DuePlans
from services.seating import OPEN, RosterStore
from services.wakeups import WAKES_KEPT, Sleeper

__all__ = ["LAG_KEY", "PROJECTOR_GROUP", "Projector", "ReadModels", "render", "table_status"]

PROJECTOR_GROUP = "projector"
LAG_KEY = PROJECTOR_LAG_KEY

log = get_logger("projector")

# KEYS: the views (status first), then the shard's turns stream. ARGV: the version, the
# turns stream's bound, a JSON text per view, then the fields of each turn change. Only
# the turn changes after the stored version are published: another projector replica
# published those before, with the views it wrote. The status and the turns are
# replicated and appended to the AOF; the views proper (the spectator's and the seats')
# are not: see "Views in memory" above.
_WRITE_VIEWS = f"""
local current = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if tonumber(ARGV[1]) <= current then
  return 0
end
local views = #KEYS - 1
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'json', ARGV[3])
redis.set_repl(redis.REPL_NONE)
for i = 2, views do
  redis.call('HSET', KEYS[i], 'version', ARGV[1], 'json', ARGV[i + 2])
end
redis.set_repl(redis.REPL_ALL)
for i = views + 3, #ARGV, {TURN_FIELDS} do
  if tonumber(ARGV[i + {TURN_VERSION_AT}]) > current then
    local last = i + {TURN_FIELDS - 1}
    redis.call('XADD', KEYS[#KEYS], 'MAXLEN', '~', ARGV[2], '*', unpack(ARGV, i, last))
  end
end
return 1
"""


# KEYS: the views (status first). ARGV: the status's version, then a JSON text per view
# after the status. Writes again the views a restart or a failover lost (those behind the
# status), kept out of the AOF and the replicas like every write of the views; nothing
# when the status has moved on meanwhile (its own write brought every view along).
_RESTORE_VIEWS = """
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then
  return 0
end
local version = tonumber(ARGV[1])
redis.set_repl(redis.REPL_NONE)
local restored = 0
for i = 2, #KEYS do
  if tonumber(redis.call('HGET', KEYS[i], 'version') or '0') < version then
    redis.call('HSET', KEYS[i], 'version', ARGV[1], 'json', ARGV[i])
    restored = restored + 1
  end
end
return restored
"""


# KEYS: bw:projected. ARGV: its bound, then table id and version pairs.
_WAKE_READS = """
redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', unpack(ARGV, 2))
return 1
"""


@dataclass(frozen=True, slots=True)
class ReadModels:
    """One table's read models at one version, as the JSON texts stored."""

    version: int
    status: str
    public: str
    seats: tuple[str, ...]
    finished: bool


def render(
    engine: Engine[Any, Any, Any],
    meta: common_pb2.TableMeta,
    state: Any,
    control: Control,
    version: int,
    outcome: Outcome | None = None,
) -> ReadModels:
    """The read models of ``state`` and ``control`` (the table at ``version``);
    ``outcome`` is the game's outcome of ``state`` when the caller has it already."""
    outcome = outcome if outcome is not None else engine.outcome(state)
    table = table_outcome(TableRules.of(meta), control, outcome.as_dict())
    spectator, *seat_views = engine.views(state, meta.seats)
    public = canonical_json(spectator)
    return ReadModels(
        version=version,
        status=canonical_json(table_status(meta, version, table)),
        public=public,
        seats=tuple(canonical_json(view) for view in seat_views),
        finished=bool(table["finished"]),
    )


# What the status read model keeps of the table's outcome (the breakdown stays in views).
_STATUS_FIELDS = (
    "phase",
    "to_act",
    "finished",
    "scores",
    "winners",
    "end",
    "left",
    "bots",
    "clock",
)


def table_status(meta: common_pb2.TableMeta, version: int, table: dict[str, Any]) -> dict[str, Any]:
    """The status read model of the table at ``version`` whose outcome (with its control:
    :func:`engines.core.control.table_outcome`) is ``table``; the gateway answers with the
    same document when it asks the engine service instead."""
    status = {
        "table_id": meta.table_id,
        "game": meta.game,
        "seats": meta.seats,
        "created_ms": meta.created_ms,
        "version": version,
        **{name: table[name] for name in _STATUS_FIELDS if name in table},
    }
    if meta.unlisted:
        status["unlisted"] = True
    return status


@dataclass(frozen=True, slots=True)
class _Write:
    """Read models to write for one table."""

    keys: Keys
    game: str
    models: ReadModels
    # What the commands folded into ``models`` changed about whose turn it is.
    turns: Sequence[TurnChange] = ()


@dataclass(frozen=True, slots=True)
class _Folded:
    meta: common_pb2.TableMeta
    version: int
    state: Any
    control: Control
    # The append time of the event at ``version``: a bot's turn is due from then.
    time_ms: int = 0
    # The game's outcome at ``version`` (None before the first event).
    outcome: Outcome | None = None


class Projector:
    """Keeps the read models of every table in step with the shard feeds."""

    def __init__(
        self,
        store: EventStore,
        *,
        group: str = PROJECTOR_GROUP,
        name: str | None = None,
        batch: int = 500,
        block_ms: int = 1000,
        cache_size: int = TABLES_HELD,
        lag_every_s: float = 5.0,
        reclaim_idle_ms: int = 30_000,
        finished_ttl_s: int = FINISHED_TTL_S,
        trim_every_s: float = 1.0,
        sweep_every_s: float = 1.0,
        durability: Durability | None = None,
    ) -> None:
        self.store = store
        self.redis = store.redis
        self.shards = store.shards
        self.group = group
        self.name = name or f"{socket.gethostname()}-{os.getpid()}-{os.urandom(3).hex()}"
        self.batch = batch
        self.block_ms = block_ms
        self.lag_every_s = lag_every_s
        self.reclaim_idle_ms = reclaim_idle_ms
        self.processed = 0
        self.last_event_ms = 0
        self._cache: LRUCache[str, _Folded] = LRUCache(maxsize=cache_size)
        self._engines: dict[str, Engine[Any, Any, Any]] = {}
        self._write_views = self.redis.register_script(_WRITE_VIEWS)
        self._restore_views = self.redis.register_script(_RESTORE_VIEWS)
        self._wake_reads = self.redis.register_script(_WAKE_READS)
        self.lobby = Lobby(self.redis)
        self.seating = RosterStore(self.redis, self.shards)
        self.retention = Retention(self.redis, finished_ttl_s)
        self.plans = DuePlans(self.redis, self.shards)
        self.trimmer = StreamTrimmer(self.redis, trim_every_s)
        self.durability = durability or Durability()
        self._waits: Waits | None = None
        self._cluster = isinstance(self.redis, RedisCluster)
        self._fed = Sleeper(self.redis, FEEDS_WAKE_KEY)
        # Feed entries projected and durable: on one server acknowledged with the next read.
        self._acks = Acknowledgements(self.group, self.trimmer)
        self._lag_at = 0.0
        self.sweep_every_s = sweep_every_s
        self._swept_at = 0.0

    def engine(self, game: str) -> Engine[Any, Any, Any]:
        if game not in self._engines:
            self._engines[game] = engines.get(game)
        return self._engines[game]

    # -- the incremental run ------------------------------------------------------------

    async def ensure_groups(self) -> None:
        for stream in [*(ShardKeys(shard).feed for shard in range(self.shards)), VIEWS_LOST_KEY]:
            try:
                await self.redis.xgroup_create(stream, self.group, id="0", mkstream=True)
            except ResponseError as exists:
                if "BUSYGROUP" not in str(exists):
                    raise

    async def run(self, stop: asyncio.Event) -> None:
        """Project until ``stop`` is set; reports its lag every few seconds."""
        await self.ensure_groups()
        log.info("projector.started", consumer=self.name, shards=self.shards)
        while not stop.is_set():
            try:
                if time.monotonic() - self._lag_at >= self.lag_every_s:
                    await self.reclaim()
                    await self.report_lag()
                if time.monotonic() - self._swept_at >= self.sweep_every_s:
                    await self.sweep()
                    await self.restore_lost_views()
                await self.step()
                await self.trimmer.trim_due()
            except Exception as trouble:
                if not (is_redis_trouble(trouble) or isinstance(trouble, NotDurable)):
                    raise
                # Redis restarting or failing over: nothing is acknowledged, so wait and go on.
                log.warning("projector.redis_unavailable", error=str(trouble))
                await asyncio.sleep(1)
        await self._acks.send_before_stopping(self.redis)
        log.info("projector.stopped", processed=self.processed)

    async def step(self) -> int:
        """Read one batch of new feed entries and project it; returns the entries. The
        batch is acknowledged with the next read on one server, at once on a cluster."""
        streams = [ShardKeys(shard).feed for shard in range(self.shards)]
        found = [(stream, entries) for stream, entries in await self._read(streams, ">") if entries]
        # Every shard's entries of one read together: a batch costs the same few round
        # trips however many shards it spans (one batch a shard cost a dozen
        # milliseconds each, so a read spanning many shards left the last ones behind).
        if found:
            await self._project_batch(found)
        handled = sum(len(entries) for _, entries in found)
        self.processed += handled
        return handled

    async def reclaim(self) -> int:
        """Project entries a stopped projector read but never acknowledged.

        Projecting is idempotent and order-free (a gap reads the table's stream), so any
        entry idle longer than ``reclaim_idle_ms`` may be taken over. Every feed is asked
        in one round trip (a cluster client splits it by node), and asked again only where
        more is left: this runs inside the projecting loop, and a round trip a feed held
        the reads waiting for their versions behind 64 fsyncs every few seconds.
        """
        feeds = [ShardKeys(shard).feed for shard in range(self.shards)]
        starts: dict[str, Any] = dict.fromkeys(feeds, "0-0")
        handled = 0
        while starts:
            async with self.redis.pipeline(transaction=False) as pipe:
                for feed, start in starts.items():
                    pipe.xautoclaim(
                        feed,
                        self.group,
                        self.name,
                        self.reclaim_idle_ms,
                        start_id=start,
                        count=self.batch,
                    )
                replies: list[Any] = await pipe.execute()
            found = [
                (feed, entries)
                for feed, reply in zip(starts, replies, strict=True)
                if (entries := [entry for entry in reply[1] if entry[1]])
            ]
            if found:
                await self._project_batch(found)
                handled += sum(len(entries) for _, entries in found)
            starts = {
                feed: reply[0]
                for feed, reply in zip(starts, replies, strict=True)
                if _text(reply[0]) != "0-0"
            }
        # What was taken over is acknowledged now: it is old already.
        await self._acks.send(self.redis)
        await forget_idle_consumers(self.redis, feeds, self.group, 10 * self.reclaim_idle_ms)
        if handled:
            log.info("projector.reclaimed", entries=handled)
        self.processed += handled
        return handled

    async def _read(self, streams: Sequence[str], start: str) -> list[tuple[str, list[Any]]]:
        if self._cluster:
            # A cluster cannot read streams of several slots in one call: read each without
            # blocking, and when none had anything sleep until an append wakes us.
            await self._fed.mark()
            async with self.redis.pipeline(transaction=False) as pipe:
                for stream in streams:
                    pipe.xreadgroup(self.group, self.name, {stream: start}, count=self.batch)
                replies: list[Any] = await pipe.execute()
            found = [(_text(s), e) for reply in replies for s, e in reply or []]
            if not any(entries for _, entries in found) and start == ">":
                await self._fed.sleep(self.block_ms)
            return found
        reply: Any = await self._acks.read(
            self.redis,
            self.name,
            dict.fromkeys(streams, start),
            count=self.batch,
            block=self.block_ms if start == ">" else None,
        )
        return [(_text(s), e) for s, e in reply or []]

    async def _project_batch(self, found: Sequence[tuple[str, Sequence[Any]]]) -> None:
        """Bring every table named in the entries of ``found`` ((feed, entries) pairs) up
        to its newest version there, then ack them all in one round trip. A table's
        entries are all in its shard's feed, so tables never span two feeds."""
        entries = [entry for _, batch in found for entry in batch]
        newest: dict[str, int] = {}
        games: dict[str, str] = {}
        feed_events: dict[str, list[common_pb2.StoredEvent]] = defaultdict(list)
        for _, fields in entries:
            table_id = _text(fields[b"table"])
            version = int(fields[b"v"])
            games[table_id] = _text(fields[b"game"])
            newest[table_id] = max(newest.get(table_id, 0), version)
            feed_events[table_id].append(common_pb2.StoredEvent.FromString(fields[b"e"]))
            self.last_event_ms = max(self.last_event_ms, feed_events[table_id][-1].time_ms)
        # A table held in the cache is taken to be stored at the cached version: its writes
        # only move forward and publish only what is newer than what is stored, so a
        # replica that wrote further meanwhile costs a read of the log, nothing more.
        cached = {t: f.version for t in newest if (f := self._cache.get(t)) is not None}
        unknown = [t for t in newest if t not in cached]
        stored = {**cached, **(await self._stored_versions(unknown) if unknown else {})}
        writes: list[_Write] = []
        for table_id, version in newest.items():
            with bind(table_id=table_id, version=version):
                try:
                    advanced = await self._advance(
                        table_id, games[table_id], version, stored[table_id], feed_events[table_id]
                    )
                except TableNotFound:
                    log.warning("projector.table_missing")
                    continue
                except engines.UnknownGame:
                    log.error("projector.unknown_game", game=games[table_id])
                    continue
                except Exception as failed:
                    if is_redis_trouble(failed):
                        raise
                    # One table's broken view must not stop every other table's; its next
                    # event finds the gap and tries again from the log.
                    log.exception("projector.table_failed")
                    continue
            if advanced is not None:
                models, turns = advanced
                writes.append(_Write(self.store.keys(table_id), games[table_id], models, turns))
        try:
            written = await self._write_all(writes, wake_reads=not self._cluster)
        except BaseException:
            # What was cached may not be stored: the retry must read what is.
            for write in writes:
                self._cache.pop(write.keys.table_id, None)
            raise
        for game in sorted(set(games.values())):
            await self._lobby_durable(game)
        # Written (and durable where the mode waits for it): now the entries may be
        # acknowledged, never before.
        for stream, batch in found:
            self._acks.add(stream, (entry_id for entry_id, _ in batch))
        if not self._cluster:
            return
        turned = any(w.turns for w, done in zip(writes, written, strict=True) if done)
        async with self.redis.pipeline(transaction=False) as pipe:
            self._acks.queue(pipe)
            # Table id -> version: what wakes the reads waiting for these versions (on one
            # server, woken with the writes already).
            projected: dict[Any, Any] = {
                w.keys.table_id: w.models.version
                for w, done in zip(writes, written, strict=True)
                if done
            }
            if projected:
                pipe.xadd(PROJECTED_KEY, projected, maxlen=PROJECTED_KEPT, approximate=True)
            if turned:
                # The notifier cannot block on every turns stream of a cluster.
                pipe.xadd(NOTIFY_WAKE_KEY, {"w": 1}, maxlen=WAKES_KEPT, approximate=True)
            await pipe.execute()
        self._acks.sent()

    async def project(
        self,
        table_id: str,
        game: str,
        target: int,
        known: Sequence[common_pb2.StoredEvent] = (),
    ) -> bool:
        """Write the table's read models at ``target`` unless they are there already.

        Nothing is published to the notifier: this is for rebuilding, where every turn
        of the table's past would come again."""
        stored = await self._stored_versions([table_id])
        advanced = await self._advance(table_id, game, target, stored[table_id], known)
        if advanced is None:
            return False
        return await self.write(self.store.keys(table_id), game, advanced[0])

    async def restore_lost_views(self) -> int:
        """Write again the views of the tables gateways named in ``bw:views:lost``;
        returns how many tables had views to restore. The stream is read in the group,
        without acknowledgements: a report lost with a crash is sent again by the next
        read of that view."""
        try:
            reply: Any = await self.redis.xreadgroup(
                self.group, self.name, {VIEWS_LOST_KEY: ">"}, count=self.batch, noack=True
            )
        except ResponseError as missing:
            # A Redis that lost its data lost the group too: the next sweep reads again.
            if "NOGROUP" not in str(missing):
                raise
            await self.ensure_groups()
            return 0
        named = sorted(
            {
                _text(fields[b"table"])
                for _, entries in reply or []
                for _, fields in entries
                if b"table" in fields
            }
        )
        restored = 0
        for table_id in named:
            with bind(table_id=table_id):
                try:
                    restored += await self.restore_views(table_id)
                except TableNotFound:
                    log.warning("projector.table_missing")
                except engines.UnknownGame:
                    log.error("projector.unknown_game")
                except Exception as failed:
                    if is_redis_trouble(failed):
                        raise
                    # As in a batch: one table's broken view must not stop the others'.
                    log.exception("projector.table_failed")
        if restored:
            log.info("projector.views_restored", tables=restored, named=len(named))
        return restored

    async def restore_views(self, table_id: str) -> bool:
        """Write again each of the table's views that is behind its status (lost with a
        Redis restart or failover), at the status's version; True when one was."""
        version = (await self._stored_versions([table_id]))[table_id]
        if not version:
            return False
        folded = self._cache.get(table_id)
        if folded is not None and folded.version == version:
            engine = self.engine(folded.meta.game)
            models = render(
                engine, folded.meta, folded.state, folded.control, version, folded.outcome
            )
        else:
            meta = await self.store.meta(table_id)
            # Folded from the log up to the status (the turns it finds were announced).
            advanced = await self._advance(table_id, meta.game, version, 0, ())
            if advanced is None:
                return False
            models = advanced[0]
        keys = self.store.keys(table_id).views(len(models.seats))
        restored = await self._restore_views(
            keys=keys, args=[version, models.public, *models.seats]
        )
        return bool(restored)

    async def _stored_versions(self, table_ids: Sequence[str]) -> dict[str, int]:
        """The version each table's read models are at (0: none yet), in one round trip."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in table_ids:
                pipe.hget(self.store.keys(table_id).view("status"), "version")
            replies = await pipe.execute()
        return {t: int(v or 0) for t, v in zip(table_ids, replies, strict=True)}

    async def _advance(
        self,
        table_id: str,
        game: str,
        target: int,
        stored: int,
        known: Sequence[common_pb2.StoredEvent],
    ) -> tuple[ReadModels, list[TurnChange]] | None:
        """The read models at ``target`` (None when those ``stored`` are there already),
        folded on from the state held for the stored version, and the turn changes of
        the commands after ``stored``."""
        if target <= stored:
            return None
        engine = self.engine(game)
        folded = self._cache.get(table_id)
        if folded is None or folded.version != stored:
            meta = await self.store.meta(table_id)
            folded = _Folded(meta, 0, engine.initial_state(), Control.start(meta.seats))
        later = [e for e in known if folded.version < e.version <= target]
        if [e.version for e in later] != list(range(folded.version + 1, target + 1)):
            # A gap: the feed entries at hand do not continue the projection; the table's
            # own stream does.
            later = await self.store.read(
                table_id, after=folded.version, count=target - folded.version
            )
        rules = TableRules.of(folded.meta)
        # What the stored read models show already was announced with them.
        shown = [e for e in later if e.version <= stored]
        state, control = fold_table(engine, rules, folded.state, folded.control, shown)
        outcome = folded.outcome
        if shown or (outcome is None and folded.version > 0):
            outcome = engine.outcome(state)
        turns = []
        for run in command_runs([e for e in later if e.version > stored]):
            before = outcome
            state, control = fold_table(engine, rules, state, control, run)
            outcome = engine.outcome(state)
            if is_news(before, outcome):
                last = run[-1]
                turns.append(
                    TurnChange(table_id, game, last.version, last.time_ms, before, outcome)
                )
        reached = later[-1].version if later else folded.version
        time_ms = later[-1].time_ms if later else folded.time_ms
        if rules.schedules or control.left:
            # Only such a table can wait for a timeout or a bot's turn; a plan only
            # replaces an older version's, so reprocessing a batch changes nothing.
            to_act = table_to_act(engine, state, control)
            planned = due(rules, control, to_act, reached, time_ms)
            await self.plans.replace(game, table_id, reached, planned)
        models = render(engine, folded.meta, state, control, reached, outcome)
        # Cached last: a failure before this leaves the cache at what may be stored.
        self._cache[table_id] = _Folded(folded.meta, reached, state, control, time_ms, outcome)
        return models, turns

    async def write(self, keys: Keys, game: str, models: ReadModels) -> bool:
        """Write one table's read models (see :meth:`_write_all`)."""
        return (await self._write_all([_Write(keys, game, models)]))[0]

    async def _write_all(self, writes: Sequence[_Write], wake_reads: bool = False) -> list[bool]:
        """Lobby entries first, then each table's views by one script; each only moves
        forward. A finished table's hot keys start to expire (see
        :mod:`services.projector.retention`). The views are never written before their
        lobby entry: on one server the lobby's scripts, the views' and (``wake_reads``)
        the wake-up of the reads waiting for these versions go in one pipeline, run in
        its order; a cluster runs scripts concurrently, so there the lobby's go first,
        on their own.

        Each round trip that writes waits for the server's fsync under ``appendfsync
        always`` (1-4 ms on this machine's disk), and a read waiting for its version
        waits for all of them: one for the whole batch, not three."""
        expiring = [self.retention.deadline() if w.models.finished else None for w in writes]
        lobby = [
            self.lobby.record_call(w.game, w.models.status, expire_at_ms=at)
            for w, at in zip(writes, expiring, strict=True)
        ]
        views = [
            ScriptCall(
                self._write_views,
                [*w.keys.views(len(w.models.seats)), w.keys.turns],
                [
                    w.models.version,
                    TURNS_KEPT,
                    w.models.status,
                    w.models.public,
                    *w.models.seats,
                    *(value for turn in w.turns for value in turn.fields()),
                ],
            )
            for w in writes
        ]
        if self._cluster:
            await run_scripts(self.redis, lobby)
            written = await run_scripts(self.redis, views)
        else:
            woken = [self._wake_reads_call(writes)] if wake_reads and writes else []
            replies = await run_scripts(self.redis, [*lobby, *views, *woken])
            written = replies[len(lobby) : len(lobby) + len(views)]
        for w, at in zip(writes, expiring, strict=True):
            if at is not None:
                await self.retention.expire(w.keys, len(w.models.seats), at)
        return [bool(done) for done in written]

    def _wake_reads_call(self, writes: Sequence[_Write]) -> ScriptCall:
        """The entry of ``bw:projected`` naming each table at its new version. A table
        whose write changed nothing was stored at that version or later already, so the
        reads it wakes find what they wait for all the same."""
        pairs = [value for w in writes for value in (w.keys.table_id, w.models.version)]
        return ScriptCall(self._wake_reads, [PROJECTED_KEY], [PROJECTED_KEPT, *pairs])

    async def _lobby_durable(self, game: str) -> None:
        """Wait until the lobby's writes so far are durable (raises NotDurable)."""
        if self._waits is None:
            self._waits = await waits_for(self.redis, self.durability, None)
        if self._waits:
            await self._waits.run(self.redis, LobbyKeys(game).durable, f"lobby:{game}")

    async def sweep(self) -> int:
        """Take finished tables whose time is up out of the lobby and delete their hot
        keys, and forget open tables whose seating expired; returns how many finished
        tables."""
        self._swept_at = time.monotonic()
        now = time.time_ns() // 1_000_000
        swept = 0
        for table_id in await self.lobby.sweep(engines.GAMES, now):
            keys = self.store.keys(table_id)
            try:
                meta = await self.store.meta(table_id)
            except TableNotFound:
                # A table that waited for players until its seating expired.
                if await self.seating.forget_expired(table_id):
                    log.info("projector.open_table_expired", table_id=table_id)
                continue
            await self.retention.forget(keys, meta.seats)
            self._cache.pop(table_id, None)
            swept += 1
        if swept:
            log.info("projector.swept", tables=swept)
        return swept

    # -- rebuild ----------------------------------------------------------------------------

    async def drop_read_models(self) -> int:
        """Delete every table's read models and every lobby index; returns keys deleted."""
        deleted = 0
        for shard in range(self.shards):
            for table_id in await self.store.table_ids(shard):
                try:
                    meta = await self.store.meta(table_id)
                except TableNotFound:
                    continue  # an open table: no read models before its first event
                for name in self.store.keys(table_id).views(meta.seats):
                    deleted += int(await self.redis.delete(name))
        for game in engines.GAMES:
            deleted += await self.lobby.drop(game)
        self._cache.clear()
        return deleted

    async def rebuild(self) -> int:
        """Drop the read models and project every table from its whole log."""
        dropped = await self.drop_read_models()
        tables = 0
        for shard in range(self.shards):
            for table_id in await self.store.table_ids(shard):
                try:
                    meta = await self.store.meta(table_id)
                except TableNotFound:
                    await self._relist_open(table_id)
                    continue
                head = await self.store.head(table_id)
                with bind(table_id=table_id, version=head.version):
                    try:
                        await self.project(table_id, meta.game, head.version)
                    except engines.UnknownGame:
                        log.error("projector.unknown_game", game=meta.game)
                        continue
                tables += 1
        log.info("projector.rebuilt", tables=tables, dropped_keys=dropped)
        return tables

    async def _relist_open(self, table_id: str) -> None:
        """List again a table still waiting for players (its entry comes from its seating)."""
        roster = await self.seating.get(table_id)
        if roster is not None and roster.state == OPEN:
            expiry = await self.seating.expires_at_ms(table_id, time.time_ns() // 1_000_000)
            await self.lobby.record(
                roster.game, canonical_json(roster.lobby_status()), expire_at_ms=expiry
            )

    # -- lag ---------------------------------------------------------------------------------

    async def lag(self) -> dict[str, Any]:
        """Feed entries not yet projected, and how old the last projected event is."""
        behind = 0
        pending = 0
        # One round trip for every feed (see reclaim).
        async with self.redis.pipeline(transaction=False) as pipe:
            for shard in range(self.shards):
                pipe.xinfo_groups(ShardKeys(shard).feed)
            listed: list[Any] = await pipe.execute()
        for groups in listed:
            for group in groups:
                if _text(group.get("name", b"")) != self.group:
                    continue
                pending += int(group.get("pending") or 0)
                behind += int(group.get("lag") or 0)
        now = time.time_ns() // 1_000_000
        return {
            "entries_behind": behind,
            "pending": pending,
            "last_event_ms": self.last_event_ms,
            "last_event_age_ms": now - self.last_event_ms if self.last_event_ms else None,
            "processed": self.processed,
            "updated_ms": now,
        }

    async def report_lag(self) -> dict[str, Any]:
        """Log the lag and publish it at ``bw:projector:lag`` for the gateway's /metrics."""
        self._lag_at = time.monotonic()
        lag = await self.lag()
        await self.redis.set(LAG_KEY, canonical_json(lag))
        log.info("projector.lag", **lag)
        return lag


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
