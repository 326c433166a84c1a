"""Due control commands in Redis: each table's plan, and firing them exactly once.

Time never enters the rules. After each version of a table, the projector works out
what the table waits for (:func:`engines.core.control.due`): a bot's turn at once, or a
seat's timeout at its deadline, and replaces the table's *plan* with it
(:meth:`DuePlans.replace`): the envelopes go into the shard's sorted set
``bw:{s<n>}:due`` scored by when they are due, and the table's previous plan leaves it.
A plan only replaces one made for an older version, so a late or repeated projection
changes nothing.

The scheduler (``python -m services.scheduler``, any number of replicas) fires what is
due (:meth:`DuePlans.fire_all`): one script per shard takes the due members out of the
sorted set and appends each to the shard's command inbox, so two replicas can never both
fire one member, and a member is never taken without reaching the inbox; it answers with
the earliest member left, so the scheduler can sleep until then. A plan that puts a
member in earlier than every other of its shard adds an entry to the shard's wake-up
stream ``bw:{s<n>}:due:wake`` (:meth:`DuePlans.wait`, :mod:`services.wakeups`), which
ends such a sleep. On a Redis Cluster, where the scheduler cannot block on every shard's
stream, such a plan is also followed, in the background, by an entry in ``bw:due:wake``,
and a firing by an entry in ``bw:inboxes:wake``, which wakes the engine services'
consumers there. The engine service's
consumer decides them like any command: a timeout names the version and the deadline it
enforces, so one the table moved past is refused (``clock.stale``) and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engines.core.canonical import message_bytes
from engines.core.control import Due
from proto import common_pb2
from services.eventstore import (
    DUE_WAKE_KEY,
    INBOXES_WAKE_KEY,
    Keys,
    ScriptCall,
    ShardKeys,
    run_scripts,
    shard_of,
)
from services.wakeups import IS_EARLIER, WAKE_IF_EARLIER, Waker, WakeStreams

__all__ = ["DuePlans", "Fired", "Pass", "envelope_of"]

_SEPARATOR = b"|"

_REPLACE = (
    """
local current = tonumber(redis.call('GET', KEYS[3]) or '-1')
if tonumber(ARGV[1]) <= current then
  return 0
end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
for _, member in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  redis.call('ZREM', KEYS[1], member)
end
redis.call('DEL', KEYS[2])
local earliest = nil
for i = 2, #ARGV, 2 do
  redis.call('ZADD', KEYS[1], ARGV[i], ARGV[i + 1])
  redis.call('SADD', KEYS[2], ARGV[i + 1])
  if earliest == nil or tonumber(ARGV[i]) < tonumber(ARGV[earliest]) then
    earliest = i
  end
end
redis.call('SET', KEYS[3], ARGV[1])
if earliest ~= nil then
"""
    + WAKE_IF_EARLIER.format(first="first", at="ARGV[earliest]", wake="KEYS[4]")
    + """
  if """
    + IS_EARLIER.format(first="first", at="ARGV[earliest]")
    + """ then
    return 2
  end
end
return 1
"""
)

# Answers the members fired and the score of the earliest left (false: none).
_FIRE = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, member in ipairs(due) do
  redis.call('ZREM', KEYS[1], member)
  local bar = string.find(member, '|', 1, true)
  redis.call('XADD', KEYS[2], '*', 'env', string.sub(member, bar + 1),
             'game', string.sub(member, 1, bar - 1))
end
local next = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
return {due, next or false}
"""


def envelope_of(table_id: str, due: Due) -> common_pb2.CommandEnvelope:
    """The control command the scheduler sends for ``due``, in the table's seat's name."""
    return common_pb2.CommandEnvelope(
        table_id=table_id, command_id=due.command_id, seat=due.seat, control=due.command()
    )


@dataclass(frozen=True, slots=True)
class Fired:
    """One control command the scheduler put into a shard's inbox."""

    game: str
    envelope: common_pb2.CommandEnvelope

    @classmethod
    def of(cls, member: bytes) -> Fired:
        game, _, envelope = member.partition(_SEPARATOR)
        return cls(game.decode(), common_pb2.CommandEnvelope.FromString(envelope))

    @property
    def kind(self) -> str:
        return self.envelope.control.WhichOneof("kind") or ""


@dataclass(frozen=True, slots=True)
class Pass:
    """One firing of every shard: what it fired, the earliest member left (ms, ``None``:
    none), and whether a shard had more due than one call takes."""

    fired: list[Fired]
    next_ms: int | None
    more: bool


class DuePlans:
    """The due sorted sets of every shard, and each table's plan."""

    def __init__(self, redis: Any, shards: int) -> None:
        self.redis = redis
        self.shards = shards
        self._replace = redis.register_script(_REPLACE)
        self._fire = redis.register_script(_FIRE)
        self._wakes = WakeStreams(redis, [ShardKeys(shard).due_wake for shard in range(shards)])
        # On a cluster the engine services' consumers cannot block on every inbox, nor the
        # scheduler on every shard's due wake-up stream.
        self._inboxes_written = Waker(redis, INBOXES_WAKE_KEY)
        self._due_earlier = Waker(redis, DUE_WAKE_KEY)

    async def replace(self, game: str, table_id: str, version: int, plan: Sequence[Due]) -> bool:
        """Make ``plan`` the table's, unless one for ``version`` or later is there."""
        keys = Keys(shard=shard_of(table_id, self.shards), table_id=table_id)
        args: list[Any] = [version]
        for due in plan:
            member = game.encode() + _SEPARATOR + message_bytes(envelope_of(table_id, due))
            args += [due.at_ms, member]
        done = await self._replace(
            keys=[keys.due, keys.plan, keys.plan_version, keys.due_wake], args=args
        )
        if done == 2:
            # Earlier than every other member of its shard: the scheduler must look now.
            self._due_earlier.wake()
        return bool(done)

    async def fire(self, shard: int, now_ms: int, limit: int = 100) -> list[Fired]:
        """Move the shard's members due by ``now_ms`` into its command inbox, atomically."""
        keys = ShardKeys(shard)
        members, _ = await self._fire(keys=[keys.due, keys.cmd], args=[now_ms, limit])
        if members:
            self._inboxes_written.wake()
        return [Fired.of(member) for member in members]

    async def fire_all(self, now_ms: int, limit: int = 100) -> Pass:
        """:meth:`fire` on every shard, in one round trip (on one server)."""
        calls = []
        for shard in range(self.shards):
            keys = ShardKeys(shard)
            calls.append(ScriptCall(self._fire, [keys.due, keys.cmd], [now_ms, limit]))
        fired: list[Fired] = []
        more = False
        next_ms: int | None = None
        for members, earliest in await run_scripts(self.redis, calls):
            fired += [Fired.of(member) for member in members]
            more = more or len(members) >= limit
            if earliest:
                at = int(float(earliest))
                next_ms = at if next_ms is None else min(next_ms, at)
        if fired:
            self._inboxes_written.wake()
        return Pass(fired, next_ms, more)

    async def wake_marks(self) -> dict[str, bytes]:
        """The newest entry of every shard's wake-up stream: :meth:`wait` wakes on any
        entry after these."""
        return await self._wakes.marks()

    async def wait(self, marks: dict[str, bytes], block_ms: int) -> bool:
        """Wait up to ``block_ms`` for a plan to put a member in earlier than every other of
        its shard since ``marks`` (moved on past what is read); whether one did. One server
        only: a cluster cannot block on streams of several slots in one call (there the
        scheduler sleeps on ``bw:due:wake``, :class:`services.wakeups.Sleeper`)."""
        return await self._wakes.wait(marks, block_ms)

    async def pending(self, shard: int) -> int:
        """Members waiting in the shard's due set."""
        return int(await self.redis.zcard(ShardKeys(shard).due))
