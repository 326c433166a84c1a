"""Apps' webhooks and their deliveries, in Redis.

An app registers up to :data:`WEBHOOKS_PER_APP` URLs; every notification for one of its
users becomes one delivery per URL. A delivery is a record in the app's deliveries hash
(status, attempts, last error, the exact body) and, while it is to be tried, a member of
the due set ``bw:webhooks:due`` scored by when. Any number of notifier replicas send
them: a replica *claims* due members in one script, which moves their score past a lease,
so no other replica takes them while it sends; a replica that dies mid-send leaves them to
come due again when the lease ends. A sender sleeps until the earliest member is due; a
delivery put in earlier than every other wakes it (:mod:`services.wakeups`).

Statuses: ``pending`` (not tried yet), ``failed`` (the last attempt failed, another is
due), ``delivered`` (a 2xx answer), ``dead`` (every attempt failed: dead-lettered).
A delivery's id is derived from its notification and webhook, so deriving a notification
twice makes one delivery. Each app keeps its newest :data:`DELIVERIES_KEPT` records.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from dataclasses import asdict, dataclass, replace
from typing import Any

from services.eventstore import (
    WEBHOOKS_DUE_KEY,
    WEBHOOKS_DUE_WAKE_KEY,
    app_deliveries_key,
    app_delivery_index_key,
    app_webhook_secret_key,
    app_webhooks_key,
)
from services.notifications.model import Notification
from services.notifications.signing import new_secret
from services.wakeups import WAKE_IF_EARLIER, WakeStreams

__all__ = [
    "DEAD",
    "DELIVERED",
    "DELIVERIES_KEPT",
    "FAILED",
    "PENDING",
    "STATUSES",
    "WEBHOOKS_PER_APP",
    "Delivery",
    "TooManyWebhooks",
    "Webhook",
    "Webhooks",
]

PENDING, FAILED, DELIVERED, DEAD = "pending", "failed", "delivered", "dead"
STATUSES = (PENDING, FAILED, DELIVERED, DEAD)
WEBHOOKS_PER_APP = 10
DELIVERIES_KEPT = 1000

_ENQUEUE = """
local existing = redis.call('HGET', KEYS[1], ARGV[1])
if existing then
  return existing
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
local extra = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[4])
if extra > 0 then
  local old = redis.call('ZRANGE', KEYS[2], 0, extra - 1)
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, extra - 1)
  redis.call('HDEL', KEYS[1], unpack(old))
end
return false
"""

# Answers the members claimed and the score of the earliest member then (false: none).
_CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, member in ipairs(due) do
  redis.call('ZADD', KEYS[1], 'XX', ARGV[2], member)
end
local next = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
return {due, next or false}
"""

# KEYS: the due set, its wake-up stream. ARGV: when (ms), the member, NX (a new member) or
# XX (one that is there). Wakes the senders when the member is now the earliest.
_DUE_AT = (
    """
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
if redis.call('ZADD', KEYS[1], ARGV[3], 'CH', ARGV[1], ARGV[2]) == 1 then
"""
    + WAKE_IF_EARLIER.format(first="first", at="ARGV[1]", wake="KEYS[2]")
    + """
end
"""
)

_SAVE = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""


class TooManyWebhooks(Exception):
    """The app has :data:`WEBHOOKS_PER_APP` webhooks already."""


@dataclass(frozen=True, slots=True)
class Webhook:
    webhook_id: str
    url: str
    created_ms: int


@dataclass(frozen=True, slots=True)
class Delivery:
    """One notification on its way to one webhook."""

    delivery_id: str
    app_id: str
    webhook_id: str
    url: str
    notification_id: str
    kind: str
    body: str
    status: str = PENDING
    attempts: int = 0
    last_error: str = ""
    created_ms: int = 0
    next_ms: int = 0
    updated_ms: int = 0

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes) -> Delivery:
        return cls(**json.loads(text))

    @property
    def member(self) -> str:
        """Its member of the due set."""
        return f"{self.app_id}:{self.delivery_id}"


def delivery_body(delivery_id: str, app_id: str, user: str, note: Notification) -> str:
    """The JSON a webhook receives: the same bytes on every attempt."""
    doc = {
        "delivery_id": delivery_id,
        "app_id": app_id,
        "user": user,
        "notification": json.loads(note.to_json()),
    }
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


def now_ms() -> int:
    return time.time_ns() // 1_000_000


class Webhooks:
    """Every app's webhooks, secrets and deliveries on one Redis (plain or cluster)."""

    def __init__(self, redis: Any, kept: int = DELIVERIES_KEPT) -> None:
        self.redis = redis
        self.kept = kept
        self._enqueue = redis.register_script(_ENQUEUE)
        self._claim = redis.register_script(_CLAIM)
        self._save = redis.register_script(_SAVE)
        self._due_at = redis.register_script(_DUE_AT)
        self.wakes = WakeStreams(redis, [WEBHOOKS_DUE_WAKE_KEY])

    # -- webhooks and the secret ------------------------------------------------------------

    async def add(self, app_id: str, url: str) -> tuple[Webhook, str | None]:
        """Register ``url`` (checked by the caller); the app's webhook secret too when it
        has none yet (returned only then: it is shown once)."""
        if len(await self.all(app_id)) >= WEBHOOKS_PER_APP:
            raise TooManyWebhooks(app_id)
        hook = Webhook(f"wh_{secrets.token_hex(6)}", url, now_ms())
        await self.redis.hset(
            app_webhooks_key(app_id),
            hook.webhook_id,
            json.dumps({"url": hook.url, "created_ms": hook.created_ms}),
        )
        secret = new_secret()
        made = await self.redis.set(app_webhook_secret_key(app_id), secret, nx=True)
        return hook, secret if made else None

    async def all(self, app_id: str) -> list[Webhook]:
        found = await self.redis.hgetall(app_webhooks_key(app_id))
        hooks = []
        for webhook_id, doc in found.items():
            fields = json.loads(doc)
            hooks.append(Webhook(_text(webhook_id), fields["url"], int(fields["created_ms"])))
        return sorted(hooks, key=lambda hook: (hook.created_ms, hook.webhook_id))

    async def remove(self, app_id: str, webhook_id: str) -> bool:
        return bool(await self.redis.hdel(app_webhooks_key(app_id), webhook_id))

    async def secret(self, app_id: str) -> str | None:
        found = await self.redis.get(app_webhook_secret_key(app_id))
        return _text(found) if found is not None else None

    async def rotate_secret(self, app_id: str) -> str:
        """A new secret (shown once); deliveries are signed with it from now on."""
        secret = new_secret()
        await self.redis.set(app_webhook_secret_key(app_id), secret)
        return secret

    # -- deliveries -------------------------------------------------------------------------

    async def enqueue(self, app_id: str, user: str, note: Notification) -> list[Delivery]:
        """One delivery of ``note`` per webhook of the app, due now; a delivery made
        before (the same notification derived again) is kept as it is, and put back in the
        due set unless it is finished."""
        made = []
        for hook in await self.all(app_id):
            digest = hashlib.sha256(f"{note.id}|{hook.webhook_id}".encode()).hexdigest()
            delivery_id = f"d_{digest[:32]}"
            at = now_ms()
            delivery = Delivery(
                delivery_id=delivery_id,
                app_id=app_id,
                webhook_id=hook.webhook_id,
                url=hook.url,
                notification_id=note.id,
                kind=note.kind,
                body=delivery_body(delivery_id, app_id, user, note),
                created_ms=at,
                next_ms=at,
                updated_ms=at,
            )
            existing = await self._enqueue(
                keys=[app_deliveries_key(app_id), app_delivery_index_key(app_id)],
                args=[delivery_id, delivery.to_json(), at, self.kept],
            )
            if existing:
                delivery = Delivery.from_json(existing)
            if delivery.status in (PENDING, FAILED):
                await self._put_due(delivery, "NX")
            made.append(delivery)
        return made

    async def deliveries(
        self, app_id: str, status: str | None = None, limit: int = 100
    ) -> list[Delivery]:
        """The app's deliveries, newest first (only those in ``status`` if given)."""
        ids = await self.redis.zrevrange(app_delivery_index_key(app_id), 0, self.kept - 1)
        if not ids:
            return []
        docs = await self.redis.hmget(app_deliveries_key(app_id), ids)
        found = [Delivery.from_json(doc) for doc in docs if doc is not None]
        return [d for d in found if status is None or d.status == status][:limit]

    async def get(self, app_id: str, delivery_id: str) -> Delivery | None:
        doc = await self.redis.hget(app_deliveries_key(app_id), delivery_id)
        return Delivery.from_json(doc) if doc is not None else None

    async def claim(self, count: int, lease_ms: int) -> tuple[list[tuple[str, str]], int | None]:
        """Take up to ``count`` due deliveries for ``lease_ms``: (app id, delivery id) each,
        and when the earliest member then is due (ms; ``None``: the set is empty)."""
        at = now_ms()
        members, earliest = await self._claim(
            keys=[WEBHOOKS_DUE_KEY], args=[at, at + lease_ms, count]
        )
        claimed = []
        for member in members:
            app_id, _, delivery_id = _text(member).partition(":")
            claimed.append((app_id, delivery_id))
        return claimed, int(float(earliest)) if earliest else None

    async def settle(self, delivery: Delivery, **changes: Any) -> Delivery:
        """Record an attempt's outcome; a finished delivery leaves the due set, one to try
        again is due at its ``next_ms``."""
        after = replace(delivery, updated_ms=now_ms(), **changes)
        await self._save(
            keys=[app_deliveries_key(after.app_id)], args=[after.delivery_id, after.to_json()]
        )
        if after.status in (DELIVERED, DEAD):
            await self.redis.zrem(WEBHOOKS_DUE_KEY, after.member)
        else:
            await self._put_due(after, "XX")
        return after

    async def _put_due(self, delivery: Delivery, mode: str) -> None:
        """Score ``delivery`` in the due set at its ``next_ms`` (``NX``: only if it is not
        there; ``XX``: only if it is), waking the senders if it is now the earliest."""
        await self._due_at(
            keys=[WEBHOOKS_DUE_KEY, WEBHOOKS_DUE_WAKE_KEY],
            args=[delivery.next_ms, delivery.member, mode],
        )

    async def drop_due(self, app_id: str, delivery_id: str) -> None:
        """Forget a due member whose record is gone (trimmed) or finished."""
        await self.redis.zrem(WEBHOOKS_DUE_KEY, f"{app_id}:{delivery_id}")


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
