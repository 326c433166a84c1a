"""Seating records in Redis: one hash per table beside its log, changed by compare-and-set.

Each change is also written, in the same script, to the shard's seating feed
``bw:{s<n>}:seating:feed`` (the roster before and after), from which the notifier tells
the players that a seat was taken or freed. On a Redis Cluster a change is followed, in
the background, by an entry in ``bw:notify:wake``, which wakes the notifier there
(:class:`services.wakeups.Waker`).

``bw:{s<n>}:t:<id>:seating`` holds ``rev`` and ``doc`` (the :class:`Roster` as JSON). A
change reads the record, computes the next roster with a pure function and writes it
only if ``rev`` is still the one it read; if another request changed it in between, it
reads again and decides again (a bounded number of times). The record lives in the
table's shard slot, so on Redis Cluster it sits with the table's meta and log.

An open table's id also goes into the shard's table set, so a rebuild of the read models
finds it (and lists it in the lobby again) before it has any event.

A table that waits for players is not kept for ever: while the record is ``open`` it
expires ``open_ttl_s`` after its last change (``BW_OPEN_TABLE_TTL_S``, 7 days by
default), so tables strangers open and nobody joins do not pile up; each change starts
the period again, and the record is kept for good from the start of the game on. The
lobby entry leaves at the same time (the gateway writes it with that expiry) and the
projector's sweep then takes the id out of the shard's table set
(:meth:`RosterStore.forget_expired`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from services.eventstore import NOTIFY_WAKE_KEY, Keys, shard_of
from services.seating.roster import OPEN, Refused, Roster
from services.wakeups import Waker

__all__ = ["OPEN_TABLE_TTL_S", "RosterStore", "SeatingBusy"]

T = TypeVar("T")

_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'rev', '1', 'doc', ARGV[1])
if tonumber(ARGV[3]) > 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
redis.call('SADD', KEYS[2], ARGV[2])
return 1
"""

_SET = """
local rev = redis.call('HGET', KEYS[1], 'rev') or '0'
if rev ~= ARGV[1] then
  return 0
end
local before = redis.call('HGET', KEYS[1], 'doc') or ''
redis.call('HSET', KEYS[1], 'rev', ARGV[2], 'doc', ARGV[3])
if tonumber(ARGV[6]) > 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[6])
else
  redis.call('PERSIST', KEYS[1])
end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[5], '*',
  'table', ARGV[4], 'rev', ARGV[2], 'before', before, 'after', ARGV[3])
return 1
"""

# Take an expired open table's id out of the shard's table set, unless it has a seating
# record or a game again.
_FORGET = """
if redis.call('EXISTS', KEYS[1]) == 0 and redis.call('EXISTS', KEYS[2]) == 0 then
  return redis.call('SREM', KEYS[3], ARGV[1])
end
return 0
"""

_RETRIES = 32
# Seating changes the shard's seating feed keeps for the notifier (it trims what it read).
SEATING_FEED_MAX = 10_000
# How long a table waiting for players is kept after its last seating change.
OPEN_TABLE_TTL_S = 7 * 24 * 3600


class SeatingBusy(Exception):
    """Too many other changes landed while this one was decided; it may be sent again."""


class RosterStore:
    """Seating records of one deployment."""

    def __init__(self, redis: Any, shards: int, open_ttl_s: int = OPEN_TABLE_TTL_S) -> None:
        self.redis = redis
        self.shards = shards
        self.open_ttl_ms = open_ttl_s * 1000
        self._create = redis.register_script(_CREATE)
        self._set = redis.register_script(_SET)
        self._forget = redis.register_script(_FORGET)
        self._fed_notifier = Waker(redis, NOTIFY_WAKE_KEY)

    def _ttl_ms(self, roster: Roster) -> int:
        """How long the record is kept after this change (0: for good)."""
        return self.open_ttl_ms if roster.state == OPEN else 0

    def keys(self, table_id: str) -> Keys:
        return Keys(shard=shard_of(table_id, self.shards), table_id=table_id)

    async def create(self, roster: Roster) -> Roster:
        """Store a new table's seating; ``Refused`` (``table.exists``) if it has one."""
        keys = self.keys(roster.table_id)
        made = await self._create(
            keys=[keys.seating, keys.tables],
            args=[roster.to_json(), roster.table_id, self._ttl_ms(roster)],
        )
        if not made:
            raise Refused("table.exists", "A table with that id exists already.")
        return replace(roster, rev=1)

    async def get(self, table_id: str) -> Roster | None:
        rev, doc = await self.redis.hmget(self.keys(table_id).seating, ["rev", "doc"])
        if rev is None or doc is None:
            return None
        return Roster.from_json(doc, int(rev))

    async def change(
        self, table_id: str, decide: Callable[[Roster], tuple[Roster, T]]
    ) -> tuple[Roster, T]:
        """Apply ``decide`` (current roster -> next roster and a result) atomically.

        ``decide`` may raise :class:`Refused`; it is called again on the fresh roster when
        another change won the race. Raises ``LookupError`` when the table has no seating.
        """
        keys = self.keys(table_id)
        for _ in range(_RETRIES):
            current = await self.get(table_id)
            if current is None:
                raise LookupError(table_id)
            after, result = decide(current)
            written = await self._set(
                keys=[keys.seating, keys.seating_feed],
                args=[
                    str(current.rev),
                    str(current.rev + 1),
                    after.to_json(),
                    table_id,
                    SEATING_FEED_MAX,
                    self._ttl_ms(after),
                ],
            )
            if written:
                self._fed_notifier.wake()
                return replace(after, rev=current.rev + 1), result
        raise SeatingBusy(table_id)

    async def expires_at_ms(self, table_id: str, now_ms: int) -> int | None:
        """When the table's seating record expires (``None``: it is kept for good or is
        gone already)."""
        left = int(await self.redis.pttl(self.keys(table_id).seating))
        return now_ms + left if left >= 0 else None

    async def forget_expired(self, table_id: str) -> bool:
        """Take an open table whose record expired out of its shard's table set; ``False``
        when it still has a seating record or a game."""
        keys = self.keys(table_id)
        return bool(
            await self._forget(keys=[keys.seating, keys.meta, keys.tables], args=[table_id])
        )
