"""The FastAPI application factory."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import structlog
from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline

from gateway.api.deps import Gateway
from gateway.api.main import BUSIEST, ROUTERS
from gateway.api.routes.pages import STATIC
from gateway.engines import GameBackends
from gateway.errors import install_error_handlers
from gateway.live import Projections, SharedCalls, StreamSlots, live_players, live_tables
from gateway.metrics import GatewayMetrics
from gateway.middleware import RequestGate
from gateway.openapi import install_openapi
from gateway.ratelimits import RateLimits
from gateway.settings import Settings
from gateway.store import ReadStore
from services.eventstore import connect

__all__ = ["create_app"]

log = structlog.get_logger("gateway")


# The name of the gateway's live readers' connections in Redis (CLIENT LIST).
LIVE_CLIENT_NAME = "bw-gateway-live"
# ... and that of the reader waking the reads that wait for the projector.
PROJECTIONS_CLIENT_NAME = "bw-gateway-projections"


def create_app(settings: Settings | None = None) -> FastAPI:
    """The gateway for ``settings`` (read from the environment when not given)."""
    settings = settings or Settings()
    metrics = GatewayMetrics()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await ReadStore.open(settings.redis_url, settings.shards, settings.open_table_ttl_s)
        # The live readers block in XREAD: a client of their own, one connection per feed
        # (a table shard's, a player shard's) at most, whose socket waits longer than one
        # blocking read. Named, so that CLIENT LIST tells them from other blocked readers.
        live_redis = await connect(
            settings.redis_url,
            max_connections=2 * settings.shards,
            socket_timeout=settings.stream_block_ms / 1000 + 5,
            client_name=LIVE_CLIENT_NAME,
        )
        live = live_tables(live_redis, settings.shards, settings.stream_block_ms)
        players_live = live_players(live_redis, settings.shards, settings.stream_block_ms)
        # The reads waiting for the projector are woken by one more blocked reader, on a
        # connection of its own, named apart.
        projections_redis = await connect(
            settings.redis_url,
            max_connections=1,
            socket_timeout=settings.stream_block_ms / 1000 + 5,
            client_name=PROJECTIONS_CLIENT_NAME,
        )
        projections = Projections(projections_redis, settings.stream_block_ms)
        projections.start()
        backends = GameBackends(settings.engine_addrs, settings.engine_timeout_seconds)
        limits = RateLimits(
            store.redis,
            store.seating,
            settings.rate_limit_address,
            settings.rate_limit_seat,
            settings.rate_limit_create,
        )
        streams = StreamSlots(settings.streams_per_address, settings.max_streams)
        app.state.gateway = Gateway(
            settings,
            store,
            backends,
            metrics,
            live,
            SharedCalls(),
            limits,
            streams,
            players_live,
            projections,
        )
        log.info("gateway.started", games=backends.names(), shards=settings.shards)
        try:
            yield
        finally:
            await live.close()
            await players_live.close()
            await projections.stop()
            await projections_redis.aclose()
            await live_redis.aclose()
            await backends.close()
            await store.close()

    # /docs and /redoc load their scripts from the gateway itself, not from a CDN.
    app = FastAPIOffline(
        title="Boardwright",
        version="1",
        summary="Event-sourced board games over HTTP: tables, commands, views, replays, audits.",
        lifespan=lifespan,
        # FastAPI's own OpenTelemetry, unused here: left on, it asks the tracer, meter and
        # logger providers (environment look-ups) on every request, ~10% of the gateway's CPU.
        telemetry={"tracing": False, "metrics": False, "logs": False, "operation_spans": False},
    )
    install_error_handlers(app)
    # The routes themselves go into the app's list, not the routers: FastAPI matches an
    # included router through a wrapper per level of inclusion, each trying every route
    # below it again, which cost a command more CPU than its own route did. The routers
    # take no options at inclusion, so the routes are the same either way.
    for router in ROUTERS:
        app.router.routes.extend(router.routes)
    documented = list(app.router.routes)
    busiest = [
        route
        for endpoint in BUSIEST
        for route in documented
        if getattr(route, "endpoint", None) is endpoint
    ]
    app.router.routes[:] = busiest + [route for route in documented if route not in busiest]
    # The replay page's script and style sheet (gateway/static), served by the gateway itself.
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(RequestGate, metrics=metrics, max_bytes=settings.max_body_bytes)
    install_openapi(app, settings, documented)
    return app
