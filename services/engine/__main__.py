"""``python -m services.engine --game freunde --port 50051``: one game's engine service."""

from __future__ import annotations

import argparse

import uvloop

import engines
from services.config import Settings
from services.engine.server import serve
from services.heap import collecting, settle_heap
from services.logs import configure_logging


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m services.engine", description=__doc__)
    parser.add_argument("--game", required=True, choices=engines.GAMES)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=50051)
    args = parser.parse_args(argv)
    settings = Settings()
    configure_logging(f"engine-{args.game}", settings.log_level)
    settle_heap()
    # uvloop: the event loop and its transports in C (README › Benchmarks).
    uvloop.run(collecting(serve(args.game, args.host, args.port, settings)))


if __name__ == "__main__":
    main()
