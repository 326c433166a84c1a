"""Seating records in Redis: one hash per table beside its log, changed by compare-and-set.

Each change is also written, in the same script, to the shard's seating feed
``bw:{s<n>}:seating:feed`` (the roster before and after), from which the notifier tells
the players that a seat was taken or freed.

``bw:{s<n>}:t:<id>:seating`` holds ``rev`` and ``doc`` (the :class:`Roster` as JSON). A
change reads the record, computes the next roster with a pure function and writes it
only if ``rev`` is still the one it read; if another request changed it in between, it
reads again and decides again (a bounded number of times). The record lives in the
table's shard slot, so on Redis Cluster it sits with the table's meta and log.

An open table's id also goes into the shard's table set, so a rebuild of the read models
finds it (and lists it in the lobby again) before it has any event.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from services.eventstore import Keys, shard_of
from services.seating.roster import Refused, Roster

__all__ = ["RosterStore", "SeatingBusy"]

T = TypeVar("T")

_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'rev', '1', 'doc', ARGV[1])
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
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[5], '*',
  'table', ARGV[4], 'rev', ARGV[2], 'before', before, 'after', ARGV[3])
return 1
"""

_RETRIES = 32
# Seating changes the shard's seating feed keeps for the notifier (it trims what it read).
SEATING_FEED_MAX = 10_000


class SeatingBusy(Exception):
    """Too many other changes landed while this one was decided; it may be sent again."""


class RosterStore:
    """Seating records of one deployment."""

    def __init__(self, redis: Any, shards: int) -> None:
        self.redis = redis
        self.shards = shards
        self._create = redis.register_script(_CREATE)
        self._set = redis.register_script(_SET)

    def keys(self, table_id: str) -> Keys:
        return Keys(shard=shard_of(table_id, self.shards), table_id=table_id)

    async def create(self, roster: Roster) -> Roster:
        """Store a new table's seating; ``Refused`` (``table.exists``) if it has one."""
        keys = self.keys(roster.table_id)
        made = await self._create(
            keys=[keys.seating, keys.tables], args=[roster.to_json(), roster.table_id]
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
                ],
            )
            if written:
                return replace(after, rev=current.rev + 1), result
        raise SeatingBusy(table_id)
