"""``python -m services.scheduler``: send each table's timeouts and bots' turns when due."""

from __future__ import annotations

import argparse

import uvloop

from services.config import Settings
from services.eventstore import connect
from services.heap import collecting, settle_heap
from services.logs import configure_logging
from services.scheduler.due import DuePlans
from services.scheduler.scheduler import Scheduler
from services.shutdown import stop_on_signals


async def _main(settings: Settings) -> None:
    if not settings.redis_url:
        raise SystemExit("REDIS_URL is not set")
    redis = await connect(settings.redis_url)
    try:
        scheduler = Scheduler(
            DuePlans(redis, settings.shards),
            max_sleep_ms=settings.scheduler_max_sleep_ms,
        )
        stop = stop_on_signals()
        await scheduler.run(stop)
    finally:
        await redis.aclose()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m services.scheduler", description=__doc__)
    parser.parse_args(argv)
    settings = Settings()
    configure_logging("scheduler", settings.log_level)
    settle_heap()
    # uvloop: the event loop and its transports in C (README › Benchmarks).
    uvloop.run(collecting(_main(settings)))


if __name__ == "__main__":
    main()
