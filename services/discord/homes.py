"""Where a table lives on Discord, kept in Redis so that every bot replica knows it.

``bw:discord:channel:<channel id>`` names the table a channel plays now (``/open`` sets
it, so ``/join``, ``/play`` and ``/board`` in that channel need no table id);
``bw:discord:table:<table id>`` holds the table's ``channel`` (where moves, turns and the
final scores are posted), ``host``, the Discord user who opened it (the platform takes the
bot's app for the host, so the bot itself lets only this person start the table early),
and ``seat:<n>``, the Discord user the bot seated there (whom a turn pings). The seats
themselves are the platform's: this is only how to reach people. Both expire
``HOME_TTL_S`` after their last change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from services.eventstore.connection import AnyRedis
from services.eventstore.keys import discord_channel_key, discord_table_key

__all__ = ["HOME_TTL_S", "Home", "Homes"]

HOME_TTL_S = 90 * 24 * 3600
_CHANNEL = b"channel"
_HOST = b"host"
_SEAT = "seat:"


@dataclass(frozen=True, slots=True)
class Home:
    """A table's channel (``""`` when unknown), the Discord user who opened it and its
    Discord players by seat."""

    channel: str = ""
    host: str = ""
    users: dict[int, str] = field(default_factory=dict)


class Homes:
    """The channel ↔ table map and each table's Discord players."""

    def __init__(self, redis: AnyRedis) -> None:
        self.redis = redis

    async def open_in(self, channel: str, table_id: str) -> None:
        """``table_id`` is now the table of ``channel``, and posts about it go there."""
        await self.redis.set(discord_channel_key(channel), table_id, ex=HOME_TTL_S)
        key = discord_table_key(table_id)
        await self.redis.hset(key, "channel", channel)
        await self.redis.expire(key, HOME_TTL_S)

    async def table_of(self, channel: str) -> str | None:
        raw = await self.redis.get(discord_channel_key(channel))
        return raw.decode() if isinstance(raw, bytes) else raw

    async def seated(self, table_id: str, seat: int, user: str) -> None:
        """The bot seated Discord ``user`` at ``seat``."""
        key = discord_table_key(table_id)
        await self.redis.hset(key, f"{_SEAT}{seat}", user)
        await self.redis.expire(key, HOME_TTL_S)

    async def hosted(self, table_id: str, user: str) -> None:
        """Discord ``user`` opened the table."""
        key = discord_table_key(table_id)
        await self.redis.hset(key, _HOST.decode(), user)
        await self.redis.expire(key, HOME_TTL_S)

    async def left(self, table_id: str, seat: int) -> None:
        """The Discord user the bot seated at ``seat`` left it."""
        await self.redis.hdel(discord_table_key(table_id), f"{_SEAT}{seat}")

    async def home(self, table_id: str) -> Home:
        raw: dict[Any, Any] = await self.redis.hgetall(discord_table_key(table_id))
        users = {
            int(name.decode().removeprefix(_SEAT)): value.decode()
            for name, value in raw.items()
            if name.decode().startswith(_SEAT)
        }
        return Home(raw.get(_CHANNEL, b"").decode(), raw.get(_HOST, b"").decode(), users)
