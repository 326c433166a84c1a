"""Due control commands in Redis: each table's plan, and firing them exactly once.

Time never enters the rules. After each version of a table, the projector works out
what the table waits for (:func:`engines.core.control.due`): a bot's turn at once, or a
seat's timeout at its deadline, and replaces the table's *plan* with it
(:meth:`DuePlans.replace`): the envelopes go into the shard's sorted set
``bw:{s<n>}:due`` scored by when they are due, and the table's previous plan leaves it.
A plan only replaces one made for an older version, so a late or repeated projection
changes nothing.

The scheduler (``python -m services.scheduler``, any number of replicas) fires what is
due (:meth:`DuePlans.fire`): one script takes the due members out of the sorted set and
appends each to the shard's command inbox, so two replicas can never both fire one
member, and a member is never taken without reaching the inbox. The engine service's
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
from services.eventstore import Keys, ShardKeys, shard_of

__all__ = ["DuePlans", "Fired", "envelope_of"]

_SEPARATOR = b"|"

_REPLACE = """
local current = tonumber(redis.call('GET', KEYS[3]) or '-1')
if tonumber(ARGV[1]) <= current then
  return 0
end
for _, member in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  redis.call('ZREM', KEYS[1], member)
end
redis.call('DEL', KEYS[2])
for i = 2, #ARGV, 2 do
  redis.call('ZADD', KEYS[1], ARGV[i], ARGV[i + 1])
  redis.call('SADD', KEYS[2], ARGV[i + 1])
end
redis.call('SET', KEYS[3], ARGV[1])
return 1
"""

_FIRE = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, member in ipairs(due) do
  redis.call('ZREM', KEYS[1], member)
  local bar = string.find(member, '|', 1, true)
  redis.call('XADD', KEYS[2], '*', 'env', string.sub(member, bar + 1),
             'game', string.sub(member, 1, bar - 1))
end
return due
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


class DuePlans:
    """The due sorted sets of every shard, and each table's plan."""

    def __init__(self, redis: Any, shards: int) -> None:
        self.redis = redis
        self.shards = shards
        self._replace = redis.register_script(_REPLACE)
        self._fire = redis.register_script(_FIRE)

    async def replace(self, game: str, table_id: str, version: int, plan: Sequence[Due]) -> bool:
        """Make ``plan`` the table's, unless one for ``version`` or later is there."""
        keys = Keys(shard=shard_of(table_id, self.shards), table_id=table_id)
        args: list[Any] = [version]
        for due in plan:
            member = game.encode() + _SEPARATOR + message_bytes(envelope_of(table_id, due))
            args += [due.at_ms, member]
        done = await self._replace(keys=[keys.due, keys.plan, keys.plan_version], args=args)
        return bool(done)

    async def fire(self, shard: int, now_ms: int, limit: int = 100) -> list[Fired]:
        """Move the shard's members due by ``now_ms`` into its command inbox, atomically."""
        keys = ShardKeys(shard)
        members = await self._fire(keys=[keys.due, keys.cmd], args=[now_ms, limit])
        return [Fired.of(member) for member in members]

    async def pending(self, shard: int) -> int:
        """Members waiting in the shard's due set."""
        return int(await self.redis.zcard(ShardKeys(shard).due))
