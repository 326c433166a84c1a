"""The FastAPI application factory."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import structlog
from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import engines
from gateway.api.deps import Gateway
from gateway.api.main import api_router, ops_router
from gateway.api.routes.games import example_command
from gateway.engines import GameBackends
from gateway.errors import install_error_handlers
from gateway.metrics import GatewayMetrics
from gateway.settings import Settings
from gateway.store import ReadStore

__all__ = ["RequestLog", "create_app"]

log = structlog.get_logger("gateway")

_COMMANDS_PATH = "/v1/tables/{table_id}/commands"


def create_app(settings: Settings | None = None) -> FastAPI:
    """The gateway for ``settings`` (read from the environment when not given)."""
    settings = settings or Settings()
    metrics = GatewayMetrics()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await ReadStore.open(settings.redis_url, settings.shards)
        backends = GameBackends(settings.engine_addrs, settings.engine_timeout_seconds)
        app.state.gateway = Gateway(settings, store, backends, metrics)
        log.info("gateway.started", games=backends.names(), shards=settings.shards)
        try:
            yield
        finally:
            await backends.close()
            await store.close()

    app = FastAPI(
        title="Boardwright",
        version="1",
        summary="Event-sourced board games over HTTP: tables, commands, views, replays, audits.",
        lifespan=lifespan,
    )
    install_error_handlers(app)
    app.include_router(api_router)
    app.include_router(ops_router)
    app.add_middleware(RequestLog, metrics=metrics)
    _install_command_examples(app, settings)
    return app


class RequestLog:
    """One log line and one latency sample per request (pure ASGI, so the route's bound
    context — table, seat, command id — is still there when the line is written).
    Headers are never logged, so a seat token cannot end up in the logs."""

    def __init__(self, app: ASGIApp, metrics: GatewayMetrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        structlog.contextvars.clear_contextvars()
        started = time.perf_counter()
        status = 500

        async def send_and_note(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, send_and_note)
        finally:
            elapsed = time.perf_counter() - started
            route = getattr(scope.get("route"), "path", "unmatched")
            method = str(scope.get("method", ""))
            self.metrics.request_seconds.labels(
                method=method, route=route, status=f"{status // 100}xx"
            ).observe(elapsed)
            log.info(
                "http.request",
                method=method,
                route=route,
                status=status,
                ms=round(elapsed * 1000, 2),
            )


def _install_command_examples(app: FastAPI, settings: Settings) -> None:
    """Show one real command of each game (built from its ``Command`` message) in /docs."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = get_openapi(
            title=app.title, version=app.version, summary=app.summary, routes=app.routes
        )
        examples = {}
        for game in settings.engine_addrs:
            try:
                engine = engines.get(game)
            except engines.UnknownGame:
                continue
            command = example_command(game, engine)
            if command is not None:
                examples[game] = {
                    "summary": f"A {engine.info.title} command",
                    "value": {
                        "command_id": f"{game}-0001",
                        "expected_version": 1,
                        "command": command,
                    },
                }
        body = schema["paths"][_COMMANDS_PATH]["post"]["requestBody"]["content"]["application/json"]
        if examples:
            body["examples"] = examples
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
