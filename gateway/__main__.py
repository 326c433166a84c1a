"""``python -m gateway --host 127.0.0.1 --port 8000``: serve the gateway with uvicorn."""

from __future__ import annotations

import argparse

import uvicorn

from gateway.app import create_app
from gateway.settings import Settings
from services.heap import settle_heap
from services.logs import configure_logging


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m gateway", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    settings = Settings()
    configure_logging("gateway", settings.log_level)
    app = create_app(settings)
    settle_heap()
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        # The C event loop and HTTP parser: the pure-Python h11 parser and asyncio loop
        # were a visible share of every request's CPU.
        loop="uvloop",
        http="httptools",
        access_log=False,  # the gateway logs each request itself, without headers
        # Longer than a client's usual idle pool time, so a kept-alive connection is not
        # closed under a client that is about to reuse it.
        timeout_keep_alive=75,
        # The client address the rate limits count is X-Forwarded-For's only behind these.
        forwarded_allow_ips=settings.forwarded_allow_ips,
    )


if __name__ == "__main__":
    main()
