"""Sending webhook deliveries: claimed from the due set, signed, retried with backoff.

One attempt: the record is read (a finished or vanished one is dropped from the due
set), the URL is checked again and its host resolved (:mod:`services.notifications.urls`),
the body is signed with the app's webhook secret and the attempt's timestamp, and POSTed
with a timeout and no redirects. A 2xx answer delivers it; anything else (another
status, a timeout, a refused connection, a refused address) is a failed attempt, tried
again after :func:`backoff_ms`, and dead-lettered (status ``dead``) after
``max_attempts``. At most ``concurrency`` attempts run at once per process, and a claim
lasts long enough for one attempt, so a delivery is sent again only when its sender died.
With nothing due, a sender sleeps until the earliest delivery is, woken by one due sooner.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from dataclasses import dataclass

import httpx

from services.eventstore import is_redis_trouble
from services.logs import get_logger
from services.notifications import (
    DEAD,
    DELIVERED,
    FAILED,
    Delivery,
    Webhooks,
    pin,
)
from services.notifications.signing import signed_headers
from services.wakeups import pause_ms, sleep_or_wake

__all__ = ["Sender", "SenderSettings", "backoff_ms"]

log = get_logger("notifier")

_ERROR_LIMIT = 300


def backoff_ms(attempts: int, base_ms: int, cap_ms: int, rng: random.Random) -> int:
    """The pause after the ``attempts``-th failed attempt: the base doubled per attempt,
    at most the cap, of which a random half is taken off ("equal jitter"), so receivers
    that fail together are not all called again at the same instant."""
    ceiling = min(cap_ms, base_ms * 2 ** min(attempts - 1, 40))
    return ceiling // 2 + rng.randint(0, ceiling - ceiling // 2)


@dataclass(frozen=True, slots=True)
class SenderSettings:
    max_attempts: int = 8
    backoff_ms: int = 1000
    backoff_max_ms: int = 600_000
    timeout_s: float = 5.0
    concurrency: int = 16
    allow_loopback: bool = False
    # With nothing due: how long a sender sleeps at most, woken earlier by a delivery due
    # sooner than the earliest it knew of (so a lost wake-up delays nothing longer). The
    # wake-up stream shares the due set's slot, so it blocks on a Redis Cluster too.
    max_sleep_s: float = 1.0
    # With every slot busy: how often it looks whether an attempt has finished.
    poll_s: float = 0.1

    @property
    def lease_ms(self) -> int:
        """How long a claim holds: one attempt (resolution, connection, answer) and then
        some, so another replica takes a delivery over only when its sender is gone."""
        return int(self.timeout_s * 4 * 1000) + 5_000


class Sender:
    """Sends the due deliveries of every app, ``concurrency`` at a time."""

    def __init__(
        self, webhooks: Webhooks, settings: SenderSettings, client: httpx.AsyncClient | None = None
    ) -> None:
        self.webhooks = webhooks
        self.settings = settings
        self.client = client or httpx.AsyncClient(
            timeout=httpx.Timeout(settings.timeout_s),
            follow_redirects=False,
            # No connection is kept for another call: connections are made to the checked
            # address of one host name, and a kept one could serve another name with the
            # same address under the first one's TLS session.
            limits=httpx.Limits(max_connections=settings.concurrency, max_keepalive_connections=0),
            trust_env=False,
        )
        self.rng = random.Random()
        self.sent = 0

    async def run(self, stop: asyncio.Event) -> None:
        """Claim what is due while a slot is free, then sleep until the earliest delivery
        left is due or one due sooner is put in (:mod:`services.wakeups`)."""
        running: set[asyncio.Task[None]] = set()
        marks: dict[str, bytes] | None = None
        log.info("notifier.sending", concurrency=self.settings.concurrency)
        try:
            while not stop.is_set():
                free = self.settings.concurrency - len(running)
                if free <= 0:
                    await asyncio.wait(
                        running, timeout=self.settings.poll_s, return_when=asyncio.FIRST_COMPLETED
                    )
                    continue
                try:
                    if marks is None:
                        # Read before the claim: a wake-up written after it is not missed.
                        marks = await self.webhooks.wakes.marks()
                    claimed, next_ms = await self.webhooks.claim(free, self.settings.lease_ms)
                    for app_id, delivery_id in claimed:
                        task = asyncio.create_task(self.attempt(app_id, delivery_id))
                        running.add(task)
                        task.add_done_callback(running.discard)
                    if len(claimed) < free:  # nothing else is due now
                        await self._sleep(stop, next_ms, marks)
                except Exception as trouble:
                    if not is_redis_trouble(trouble):
                        raise
                    log.warning("notifier.redis_unavailable", error=str(trouble))
                    marks = None
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(stop.wait(), 1)
        finally:
            if running:
                await asyncio.wait(running, timeout=self.settings.timeout_s + 1)
            await self.client.aclose()

    async def _sleep(
        self, stop: asyncio.Event, next_ms: int | None, marks: dict[str, bytes] | None
    ) -> None:
        cap_ms = int(self.settings.max_sleep_s * 1000)
        pause = pause_ms(next_ms, time.time_ns() // 1_000_000, cap_ms)
        if pause > 0:
            woken = self.webhooks.wakes.wait(marks, pause) if marks is not None else None
            await sleep_or_wake(stop, pause, woken)

    async def attempt(self, app_id: str, delivery_id: str) -> None:
        """One attempt at one delivery (never raises: a failure is recorded)."""
        try:
            delivery = await self.webhooks.get(app_id, delivery_id)
            if delivery is None or delivery.status in (DELIVERED, DEAD):
                await self.webhooks.drop_due(app_id, delivery_id)
                return
            error = await self._send(delivery)
            await self._settle(delivery, error)
        except Exception:
            # Redis went away mid-attempt: the claim ends and the delivery comes due again.
            log.exception("notifier.attempt_failed", app=app_id, delivery=delivery_id)

    async def _send(self, delivery: Delivery) -> str | None:
        """POST the delivery once; the error, or ``None`` for a 2xx answer."""
        hooks = {hook.webhook_id for hook in await self.webhooks.all(delivery.app_id)}
        if delivery.webhook_id not in hooks:
            return "the webhook was removed"
        secret = await self.webhooks.secret(delivery.app_id)
        if secret is None:
            return "the app has no webhook secret"
        pinned = await pin(delivery.url, self.settings.allow_loopback)
        if isinstance(pinned, str):
            return pinned
        body = delivery.body.encode()
        headers = signed_headers(
            secret, int(time.time()), body, delivery.delivery_id, delivery.kind
        )
        headers["Host"] = pinned.host
        extensions = {"sni_hostname": pinned.server_name} if pinned.server_name else None
        try:
            answer = await self.client.post(
                pinned.url, content=body, headers=headers, extensions=extensions
            )
        except httpx.HTTPError as failed:
            return f"{type(failed).__name__}: {failed}"[:_ERROR_LIMIT] or type(failed).__name__
        if 200 <= answer.status_code < 300:
            return None
        return f"HTTP {answer.status_code}"

    async def _settle(self, delivery: Delivery, error: str | None) -> None:
        attempts = delivery.attempts + 1
        if error is None:
            await self.webhooks.settle(delivery, status=DELIVERED, attempts=attempts, last_error="")
            self.sent += 1
            log.info("webhook.delivered", app=delivery.app_id, delivery=delivery.delivery_id)
            return
        if attempts >= self.settings.max_attempts:
            await self.webhooks.settle(delivery, status=DEAD, attempts=attempts, last_error=error)
            log.warning(
                "webhook.dead", app=delivery.app_id, delivery=delivery.delivery_id, error=error
            )
            return
        pause = backoff_ms(
            attempts, self.settings.backoff_ms, self.settings.backoff_max_ms, self.rng
        )
        next_ms = time.time_ns() // 1_000_000 + pause
        await self.webhooks.settle(
            delivery, status=FAILED, attempts=attempts, last_error=error, next_ms=next_ms
        )
        log.info(
            "webhook.failed",
            app=delivery.app_id,
            delivery=delivery.delivery_id,
            attempts=attempts,
            error=error,
            retry_in_ms=pause,
        )
