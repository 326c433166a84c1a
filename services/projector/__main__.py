"""``python -m services.projector [--rebuild]``: keep the read models current, or rebuild them."""

from __future__ import annotations

import argparse

import uvloop

from services.config import Settings
from services.eventstore import EventStore, connect
from services.heap import collecting, settle_heap
from services.logs import configure_logging, get_logger
from services.projector.projector import Projector
from services.shutdown import stop_on_signals

log = get_logger("projector")


async def _main(rebuild: bool, settings: Settings) -> None:
    if not settings.redis_url:
        raise SystemExit("REDIS_URL is not set")
    redis = await connect(settings.redis_url)
    try:
        projector = Projector(
            EventStore(redis, shards=settings.shards),
            finished_ttl_s=settings.finished_ttl_s,
            cache_size=settings.tables_held,
            durability=settings.durability,
        )
        if rebuild:
            await projector.ensure_groups()
            await projector.rebuild()
            await projector.report_lag()
            return
        stop = stop_on_signals()
        await projector.run(stop)
    finally:
        await redis.aclose()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m services.projector", description=__doc__)
    parser.add_argument(
        "--rebuild",
        action="store_true",
        help="drop every read model, rebuild them from the table logs, then exit",
    )
    args = parser.parse_args(argv)
    settings = Settings()
    configure_logging("projector", settings.log_level)
    settle_heap()
    # uvloop: the event loop and its transports in C (README › Benchmarks).
    uvloop.run(collecting(_main(args.rebuild, settings)))


if __name__ == "__main__":
    main()
