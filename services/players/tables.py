"""The tables a player sits at: one sorted set per player, newest seat first.

Written when a player takes or leaves a seat; read by ``GET /v1/me/tables``. It keeps
the newest :data:`KEPT` seats of a player, so a player who sits down at table after
table never grows it without bound.
"""

from __future__ import annotations

from typing import Any

from services.eventstore import player_tables_key

__all__ = ["KEPT", "PlayerTables"]

KEPT = 500


class PlayerTables:
    """Per-player sets of table ids on one Redis (plain or cluster)."""

    def __init__(self, redis: Any) -> None:
        self.redis = redis

    async def add(self, player: str, table_id: str, at_ms: int) -> None:
        key = player_tables_key(player)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.zadd(key, {table_id: at_ms})
            pipe.zremrangebyrank(key, 0, -KEPT - 1)
            await pipe.execute()

    async def remove(self, player: str, table_id: str) -> None:
        await self.redis.zrem(player_tables_key(player), table_id)

    async def recent(self, player: str, count: int) -> list[tuple[str, int]]:
        """The player's ``count`` newest tables: (table id, when it sat down, ms)."""
        found = await self.redis.zrevrange(player_tables_key(player), 0, count - 1, withscores=True)
        return [(_text(member), int(score)) for member, score in found]


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
