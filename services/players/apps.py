"""Apps: a Discord bot, a web site... that act for their own users with an API key.

An operator creates one (``boardwright apps create NAME``) and hands its key to the app;
the key is shown once and kept only as its SHA-256. A key reads ``bwa_<app id>_<secret>``,
so a request names its app without any index, and the secret is compared in constant
time. A revoked app's key is refused from then on; its record stays (who seated whom).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from dataclasses import dataclass
from typing import Any

from services.eventstore import APPS_KEY, app_key

__all__ = ["App", "AppRegistry", "new_app_key"]

_KEY = re.compile(r"^bwa_([0-9a-f]{12})_([A-Za-z0-9_\-]{43})$")
NAME_LIMIT = 100


@dataclass(frozen=True, slots=True)
class App:
    """One app as the registry keeps it (never its key)."""

    app_id: str
    name: str
    created_ms: int
    revoked_ms: int = 0

    @property
    def active(self) -> bool:
        return not self.revoked_ms


def new_app_key(app_id: str) -> str:
    return f"bwa_{app_id}_{secrets.token_urlsafe(32)}"


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class AppRegistry:
    """Every app of one deployment, in Redis."""

    def __init__(self, redis: Any) -> None:
        self.redis = redis

    async def create(self, name: str) -> tuple[App, str]:
        """A new app and its key (shown only now)."""
        name = name.strip()
        if not name or len(name) > NAME_LIMIT or not name.isprintable():
            raise ValueError(f"an app's name is 1 to {NAME_LIMIT} printable characters")
        app_id = secrets.token_hex(6)
        key = new_app_key(app_id)
        app = App(app_id, name, time.time_ns() // 1_000_000)
        await self.redis.hset(
            app_key(app_id),
            mapping={"name": name, "key": _digest(key), "created_ms": app.created_ms},
        )
        await self.redis.sadd(APPS_KEY, app_id)
        return app, key

    async def get(self, app_id: str) -> App | None:
        fields = await self.redis.hgetall(app_key(app_id))
        if not fields:
            return None
        return _app(app_id, {_text(k): _text(v) for k, v in fields.items()})

    async def all(self) -> list[App]:
        ids = sorted(_text(member) for member in await self.redis.smembers(APPS_KEY))
        apps = [await self.get(app_id) for app_id in ids]
        return [app for app in apps if app is not None]

    async def revoke(self, app_id: str) -> App | None:
        """Refuse the app's key from now on; None when there is no such app."""
        if not await self.redis.exists(app_key(app_id)):
            return None
        await self.redis.hsetnx(app_key(app_id), "revoked_ms", time.time_ns() // 1_000_000)
        return await self.get(app_id)

    async def authenticate(self, key: str) -> App | None:
        """The active app whose key this is; None for any other string."""
        found = _KEY.match(key)
        if found is None:
            return None
        fields = await self.redis.hgetall(app_key(found.group(1)))
        if not fields:
            return None
        record = {_text(k): _text(v) for k, v in fields.items()}
        if not hmac.compare_digest(record.get("key", ""), _digest(key)):
            return None
        app = _app(found.group(1), record)
        return app if app.active else None


def _app(app_id: str, record: dict[str, str]) -> App:
    return App(
        app_id,
        record.get("name", ""),
        int(record.get("created_ms") or 0),
        int(record.get("revoked_ms") or 0),
    )


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
