"""Each player's notifications: a capped stream per player, and a wake-up feed per player
shard that the gateways' live readers follow (see :mod:`gateway.live`).

Adding is idempotent: a notification whose id the player's stream holds already is not
added again (the notifier may derive one twice after a replica took over another's work).
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import Any

from redis.asyncio.cluster import RedisCluster

from services.eventstore import (
    ScriptCall,
    player_feed_key,
    player_notifications_key,
    player_notified_key,
    run_scripts,
)
from services.notifications.model import Notification, entry_position

__all__ = ["FEED_MAX", "KEPT", "PlayerInbox", "player_shard"]

# Notifications kept per player (about: XADD MAXLEN ~).
KEPT = 1000
# Wake-up entries kept per player shard: a live reader only needs the newest.
FEED_MAX = 10_000

_ADD = """
if redis.call('ZSCORE', KEYS[2], ARGV[1]) then
  local newest = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
  if newest[1] then
    return {0, newest[1][1]}
  end
  return {0, '0-0'}
end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[4], '*', 'n', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -2 * tonumber(ARGV[4]) - 1)
return {1, id}
"""


def player_shard(player: str, shards: int) -> int:
    """The player shard whose wake-up feed carries ``player``'s notifications."""
    return zlib.crc32(player.encode()) % shards


class PlayerInbox:
    """The players' notification streams on one Redis (plain or cluster)."""

    def __init__(self, redis: Any, shards: int, kept: int = KEPT) -> None:
        self.redis = redis
        self.shards = shards
        self.kept = kept
        self._add = redis.register_script(_ADD)

    async def add(self, note: Notification) -> bool:
        """Add ``note`` to its player's stream unless it is there already, then wake the
        player's subscribers (always: a crash between the two must not lose the wake-up).
        Returns whether it was new."""
        return (await self.add_all([note]))[0]

    async def add_all(self, notes: Sequence[Notification]) -> list[bool]:
        """:meth:`add` each of ``notes`` in order: on one server in two round trips (the
        notifications, then the wake-ups), on a cluster one after another (its scripts
        would run in no order, and one player's notifications must keep theirs)."""
        calls = [
            ScriptCall(
                self._add,
                [player_notifications_key(note.player), player_notified_key(note.player)],
                [note.id, note.to_json(), note.time_ms, self.kept],
            )
            for note in notes
        ]
        if isinstance(self.redis, RedisCluster):
            replies = [await call.script(keys=call.keys, args=call.args) for call in calls]
        else:
            replies = await run_scripts(self.redis, calls) if calls else []
        async with self.redis.pipeline(transaction=False) as pipe:
            for note, (_, entry) in zip(notes, replies, strict=True):
                pipe.xadd(
                    player_feed_key(player_shard(note.player, self.shards)),
                    {"player": note.player, "v": entry_position(_text(entry))},
                    maxlen=FEED_MAX,
                    approximate=True,
                )
            await pipe.execute()
        return [bool(added) for added, _ in replies]

    async def after(self, player: str, after: str, count: int) -> list[tuple[str, Notification]]:
        """The player's notifications after entry id ``after`` (oldest first)."""
        found = await self.redis.xrange(
            player_notifications_key(player), min=f"({after}", max="+", count=count
        )
        return [(_text(entry), Notification.from_json(fields[b"n"])) for entry, fields in found]

    async def newest(self, player: str) -> str:
        """The id of the player's newest notification (``0-0`` when there is none)."""
        found = await self.redis.xrevrange(player_notifications_key(player), count=1)
        return _text(found[0][0]) if found else "0-0"


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
