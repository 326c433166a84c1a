"""``python -m services.notifier``: derive notifications and send webhook deliveries."""

from __future__ import annotations

import argparse
import asyncio

import uvloop

from services.config import Settings
from services.eventstore import EventStore, connect
from services.heap import collecting, settle_heap
from services.logs import configure_logging, get_logger
from services.notifications import PlayerInbox, Webhooks
from services.notifier.derive import Deriver
from services.notifier.sender import Sender, SenderSettings
from services.shutdown import stop_on_signals

log = get_logger("notifier")


async def _main(settings: Settings) -> None:
    if not settings.redis_url:
        raise SystemExit("REDIS_URL is not set")
    redis = await connect(settings.redis_url)
    try:
        webhooks = Webhooks(redis)
        deriver = Deriver(
            EventStore(redis, shards=settings.shards),
            PlayerInbox(redis, settings.shards, settings.notifications_kept),
            webhooks,
            linger_ms=settings.notify_linger_ms,
        )
        sender = Sender(
            webhooks,
            SenderSettings(
                max_attempts=settings.webhook_max_attempts,
                backoff_ms=settings.webhook_backoff_ms,
                backoff_max_ms=settings.webhook_backoff_max_ms,
                timeout_s=settings.webhook_timeout_s,
                concurrency=settings.webhook_concurrency,
                allow_loopback=settings.webhook_allow_loopback,
            ),
        )
        stop = stop_on_signals()
        await asyncio.gather(deriver.run(stop), sender.run(stop))
        log.info("notifier.stopped", published=deriver.published, delivered=sender.sent)
    finally:
        await redis.aclose()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m services.notifier", description=__doc__)
    parser.parse_args(argv)
    settings = Settings()
    configure_logging("notifier", settings.log_level)
    settle_heap()
    # uvloop: the event loop and its transports in C (README › Benchmarks).
    uvloop.run(collecting(_main(settings)))


if __name__ == "__main__":
    main()
