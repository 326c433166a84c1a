"""Deriving notifications from the shard feeds and the seating feeds.

The notifier reads every turns stream ``bw:{s<n>}:turns`` and every seating feed
``bw:{s<n>}:seating:feed`` (each seating change) in the consumer group ``notifier``, so
its replicas share the work and an entry a dead replica read is taken over
(``XAUTOCLAIM``) after ``reclaim_idle_ms``. On a Redis Cluster, which cannot block on
streams of several slots in one read, it sleeps between empty reads on ``bw:notify:wake``,
written by the projector after turn changes and by seating changes (at most ``block_ms``,
should a wake-up be lost).

Turn changes: the projector, which folds every command's events for the views, publishes
the game's outcome before and after each command that made someone new to act or ended
the game (:mod:`services.notifications.turns`): a seat that now is to act gets
``your_turn``; every player gets ``game_over`` when the game has just ended. Nothing is
folded here. Earlier versions read the shard feeds ``bw:{s<n>}:feed`` in the same group;
:meth:`Deriver.ensure_groups` deletes that group, so it holds back no feed's trimming.

Seating changes: the roster before and after says which seat was taken (``seat_joined``,
for the table's other players) or freed (``seat_left``, for every player, the one who left
too: the host may have removed it).

After a read that found changes, the notifier waits ``linger_ms`` (``BW_NOTIFY_LINGER_MS``,
100 ms) before it reads again: a lone change is told at once, and the changes of a busy
moment wait up to that long to share one read, one round trip to the players' streams and
one acknowledgement (a read that brought a whole batch is followed by the next at once).
Nobody waits on a notification the way a read waits on its view, and a read
(``XREADGROUP`` over every shard's streams) with its acknowledgements costs about as much
as telling one change: at 500 commands a second the notifier's CPU a command fell from
0.20 to 0.08 ms.

Only players get notifications: bots' seats and seats reserved for a rematch do not. Every
notification goes to its player's stream (:class:`PlayerInbox`) and, for an app's user, to
each of the app's webhooks (:class:`Webhooks`). Entries are acknowledged after that, and
notification ids are derived from what they are about, so handling an entry twice changes
nothing. A revoked app's users keep their streams; the app gets no more deliveries.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import time
from collections.abc import Sequence
from typing import Any

from cachetools import LRUCache
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ResponseError

from engines.core.contract import Outcome
from services.eventstore import (
    NOTIFY_WAKE_KEY,
    Acknowledgements,
    EventStore,
    ShardKeys,
    StreamTrimmer,
    forget_idle_consumers,
    is_redis_trouble,
)
from services.logs import bind, get_logger
from services.notifications import (
    GAME_OVER,
    SEAT_JOINED,
    SEAT_LEFT,
    YOUR_TURN,
    Notification,
    PlayerInbox,
    Webhooks,
    notification_id,
)
from services.notifications.turns import TurnChange
from services.players import AppRegistry, app_user_of
from services.seating import OPEN, Roster, RosterStore
from services.wakeups import Sleeper

__all__ = ["NOTIFIER_GROUP", "Deriver", "seat_changes", "turn_changes"]

NOTIFIER_GROUP = "notifier"

# How often the names of stopped replicas are looked for in the groups.
_FORGET_EVERY_S = 60.0

log = get_logger("notifier")


def _players(roster: Roster) -> dict[int, str]:
    """Seat -> player, for the seats a person has taken (no bots, no reservations)."""
    return {
        n: seat.player
        for n, seat in enumerate(roster.seats)
        if seat.player and not seat.bot and not seat.reserved
    }


def _note(
    kind: str,
    roster: Roster,
    at: str,
    seat: int,
    player: str,
    version: int,
    time_ms: int,
    text: str,
    data: dict[str, Any],
) -> Notification:
    """A notification for ``player`` in ``seat`` of ``roster``'s table, about ``at``
    (``v<version>`` or ``r<rev>:<seat>``)."""
    return Notification(
        id=notification_id(kind, roster.table_id, at, seat, player),
        kind=kind,
        player=player,
        table_id=roster.table_id,
        game=roster.game,
        seat=seat,
        version=version,
        time_ms=time_ms,
        text=text,
        data=data,
    )


def turn_changes(
    roster: Roster, before: Outcome | None, after: Outcome, version: int, time_ms: int
) -> list[Notification]:
    """What one command changed for the table's players: whose turn it now is, and the end.

    ``before`` is ``None`` at the table's set-up, where nobody was to act yet."""
    players = _players(roster)
    at = f"v{version}"
    if after.finished:
        if before is not None and before.finished:
            return []  # what follows the end (the revealed seed) concerns nobody
        scores = ", ".join(str(s) for s in after.scores)
        return [
            _note(
                GAME_OVER,
                roster,
                at,
                seat,
                player,
                version,
                time_ms,
                f"The {roster.game} game is over: you {'won' if seat in after.winners else 'lost'}"
                f" (scores {scores}).",
                {
                    "scores": list(after.scores),
                    "winners": list(after.winners),
                    "won": seat in after.winners,
                },
            )
            for seat, player in players.items()
        ]
    earlier = set(before.to_act) if before is not None else set()
    return [
        _note(
            YOUR_TURN,
            roster,
            at,
            seat,
            players[seat],
            version,
            time_ms,
            f"Your turn in the {roster.game} game ({after.phase}).",
            {"phase": after.phase},
        )
        for seat in after.to_act
        if seat not in earlier and seat in players
    ]


def seat_changes(before: Roster, after: Roster, time_ms: int) -> list[Notification]:
    """Who should hear that a seat was taken or freed between two rosters of a table: a
    seat taken, the table's other players; a seat freed, every player (the host may have
    removed the one who left)."""
    was, now = _players(before), _players(after)
    notes = []
    for seat in range(len(after.seats)):
        joined, left = now.get(seat), was.get(seat)
        if joined == left:
            continue
        if left:
            told = {**was, **now}
            notes += _seat_notes(SEAT_LEFT, after, seat, before.seats[seat].name, told, time_ms)
        if joined:
            told = {n: p for n, p in now.items() if p != joined}
            notes += _seat_notes(SEAT_JOINED, after, seat, after.seats[seat].name, told, time_ms)
    return notes


def _seat_notes(
    kind: str, roster: Roster, seat: int, name: str, told: dict[int, str], time_ms: int
) -> list[Notification]:
    verb = "took" if kind == SEAT_JOINED else "left"
    left = len(roster.open_seats)
    text = (
        f"{name or f'Seat {seat}'} {verb} seat {seat}"
        f" ({left} open seat{'s' if left != 1 else ''} left)."
    )
    data = {"seat": seat, "name": name, "open_seats": left}
    return [
        _note(kind, roster, f"r{roster.rev}:{seat}", own, player, 0, time_ms, text, data)
        for own, player in sorted(told.items())
    ]


class Deriver:
    """Reads the feeds in the ``notifier`` group and publishes what they mean to players."""

    def __init__(
        self,
        store: EventStore,
        inbox: PlayerInbox,
        webhooks: Webhooks,
        *,
        group: str = NOTIFIER_GROUP,
        name: str | None = None,
        batch: int = 200,
        block_ms: int = 1000,
        reclaim_every_s: float = 5.0,
        reclaim_idle_ms: int = 30_000,
        cache_size: int = 5_000,
        linger_ms: int = 0,
    ) -> None:
        self.store = store
        self.redis = store.redis
        self.shards = store.shards
        self.inbox = inbox
        self.webhooks = webhooks
        self.group = group
        self.name = name or f"{socket.gethostname()}-{os.getpid()}-{os.urandom(3).hex()}"
        self.batch = batch
        self.block_ms = block_ms
        self.reclaim_every_s = reclaim_every_s
        self.reclaim_idle_ms = reclaim_idle_ms
        self.linger_s = linger_ms / 1000
        self.published = 0
        self.seating = RosterStore(self.redis, self.shards)
        self.apps = AppRegistry(self.redis)
        self.trimmer = StreamTrimmer(self.redis)
        # Entries whose notifications are published: on one server acknowledged with the
        # next read.
        self._acks = Acknowledgements(self.group, self.trimmer)
        self._rosters: LRUCache[str, Roster] = LRUCache(maxsize=cache_size)
        self._cluster = isinstance(self.redis, RedisCluster)
        self._fed = Sleeper(self.redis, NOTIFY_WAKE_KEY)
        self._reclaimed_at = 0.0
        self._forgot_at = 0.0

    @property
    def streams(self) -> list[str]:
        shards = [ShardKeys(shard) for shard in range(self.shards)]
        return [keys.turns for keys in shards] + [keys.seating_feed for keys in shards]

    async def ensure_groups(self) -> None:
        """The ``notifier`` group on every stream it reads, from its oldest entry still
        kept; and none on the shard feeds, which it read before the projector published
        turn changes (a group nobody reads would keep every feed entry)."""
        for stream in self.streams:
            try:
                await self.redis.xgroup_create(stream, self.group, id="0", mkstream=True)
            except ResponseError as exists:
                if "BUSYGROUP" not in str(exists):
                    raise
        for shard in range(self.shards):
            if await self.redis.exists(ShardKeys(shard).feed):
                await self.redis.xgroup_destroy(ShardKeys(shard).feed, self.group)

    async def run(self, stop: asyncio.Event) -> None:
        await self.ensure_groups()
        log.info("notifier.deriving", consumer=self.name, shards=self.shards)
        while not stop.is_set():
            try:
                if time.monotonic() - self._reclaimed_at >= self.reclaim_every_s:
                    await self.reclaim()
                handled = await self.step()
                await self.trimmer.trim_due()
                if 0 < handled < self.batch and self.linger_s:
                    await _linger(stop, self.linger_s)
            except Exception as trouble:
                if not is_redis_trouble(trouble):
                    raise
                log.warning("notifier.redis_unavailable", error=str(trouble))
                await asyncio.sleep(1)
        # What a replica would publish again, under the same notification ids.
        await self._acks.send_before_stopping(self.redis)

    async def step(self) -> int:
        """Handle one batch of new feed entries; returns how many."""
        return await self._handle([(s, entries) for s, entries in await self._read() if entries])

    async def reclaim(self) -> int:
        """Take over entries a stopped replica read and never acknowledged."""
        self._reclaimed_at = time.monotonic()
        # One round trip for every stream (a cluster client splits it by node).
        async with self.redis.pipeline(transaction=False) as pipe:
            for stream in self.streams:
                pipe.xautoclaim(
                    stream, self.group, self.name, self.reclaim_idle_ms, count=self.batch
                )
            replies: list[Any] = await pipe.execute()
        handled = await self._handle(
            [
                (stream, entries)
                for stream, reply in zip(self.streams, replies, strict=True)
                if (entries := [entry for entry in reply[1] if entry[1]])
            ]
        )
        await self._acks.send(self.redis)
        if time.monotonic() - self._forgot_at >= _FORGET_EVERY_S:
            # Names are forgotten after 10 idle reclaim periods: no need to look often.
            self._forgot_at = time.monotonic()
            await forget_idle_consumers(
                self.redis, self.streams, self.group, 10 * self.reclaim_idle_ms
            )
        return handled

    async def _read(self) -> list[tuple[str, list[Any]]]:
        if self._cluster:
            # A cluster cannot read streams of several slots in one call: read each without
            # blocking, and when none had anything sleep until a writer wakes us.
            await self._fed.mark()
            async with self.redis.pipeline(transaction=False) as pipe:
                for stream in self.streams:
                    pipe.xreadgroup(self.group, self.name, {stream: ">"}, count=self.batch)
                replies: list[Any] = await pipe.execute()
            found = [(_text(s), e) for reply in replies for s, e in reply or []]
            if not any(entries for _, entries in found):
                await self._fed.sleep(self.block_ms)
            return found
        reply: Any = await self._acks.read(
            self.redis,
            self.name,
            dict.fromkeys(self.streams, ">"),
            count=self.batch,
            block=self.block_ms,
        )
        return [(_text(s), e) for s, e in reply or []]

    async def _handle(self, found: Sequence[tuple[str, Sequence[Any]]]) -> int:
        """The notifications of every stream's entries published together, then the entries
        acknowledged (on one server with the next read, on a cluster at once, in one round
        trip); returns how many entries. A stream's own notes keep their order."""
        notes: list[Notification] = []
        for stream, entries in found:
            if stream.endswith(":seating:feed"):
                notes += self._seating_notes(entries)
            else:
                notes += await self._turn_notes(entries)
        await self.publish_all(notes)
        for stream, entries in found:
            self._acks.add(stream, (entry_id for entry_id, _ in entries))
        if self._cluster:
            await self._acks.send(self.redis)
        return sum(len(entries) for _, entries in found)

    async def publish_all(self, notes: Sequence[Notification]) -> None:
        """Into the players' streams and, for an app's user, to the app's webhooks."""
        if not notes:
            return
        await self.inbox.add_all(notes)
        for note in notes:
            with bind(table_id=note.table_id, version=note.version):
                owner = app_user_of(note.player)
                if owner is not None:
                    app = await self.apps.get(owner[0])
                    if app is not None and app.active:  # a revoked app is sent nothing more
                        await self.webhooks.enqueue(owner[0], owner[1], note)
                self.published += 1
                log.info("notifier.published", kind=note.kind, notification=note.id)

    def _seating_notes(self, entries: Sequence[Any]) -> list[Notification]:
        notes = []
        for entry_id, fields in entries:
            before_doc, after_doc = fields.get(b"before"), fields.get(b"after")
            if not before_doc or not after_doc:
                continue
            rev = int(fields[b"rev"])
            before = Roster.from_json(before_doc, rev - 1)
            after = Roster.from_json(after_doc, rev)
            if before.state != OPEN:
                continue  # the seats are final: renames and re-issued tokens concern nobody
            # The feed entry's id is the change's time (ms).
            notes += seat_changes(before, after, int(_text(entry_id).split("-")[0]))
        return notes

    async def _turn_notes(self, entries: Sequence[Any]) -> list[Notification]:
        notes = []
        for _, fields in entries:
            change = TurnChange.of(fields)
            with bind(table_id=change.table_id):
                roster = await self._roster(change.table_id)
                if roster is None or not _players(roster):
                    continue
                notes += turn_changes(
                    roster, change.before, change.after, change.version, change.time_ms
                )
        return notes

    async def _roster(self, table_id: str) -> Roster | None:
        """The table's seating; its players are final once it left ``open``, so it is cached."""
        roster = self._rosters.get(table_id)
        if roster is None:
            roster = await self.seating.get(table_id)
            if roster is not None and roster.state != OPEN:
                self._rosters[table_id] = roster
        return roster


async def _linger(stop: asyncio.Event, seconds: float) -> None:
    """Wait ``seconds``, or less if the notifier is stopped meanwhile."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
