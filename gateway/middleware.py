"""The gateway's ASGI middleware, outermost first: the request log, the rate limits, the
body limit. Each is pure ASGI, so it runs before any route (and any body parsing)."""

from __future__ import annotations

import time

import structlog
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gateway.errors import ErrorResponse, error_body
from gateway.metrics import GatewayMetrics
from gateway.ratelimits import RateLimits
from gateway.seats import bearer_token

__all__ = ["BodyLimit", "BodyTooLarge", "RateLimit", "RequestLog"]

log = structlog.get_logger("gateway")

# Probes and metrics answer whatever the load: an orchestrator must always reach them.
_UNLIMITED_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})


class RequestLog:
    """One log line (at debug for a success) and one latency sample per request (pure
    ASGI, so the route's bound context — table, seat, command id — is still there when
    the line is written).
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
            # Successes at debug (one line per command is the gateway's busiest output);
            # every refusal and failure at info.
            (log.debug if status < 400 else log.info)(
                "http.request",
                method=method,
                route=route,
                status=status,
                ms=round(elapsed * 1000, 2),
            )


class RateLimit:
    """429 ``rate.limited`` with ``Retry-After`` once a client address or a seat token has
    spent its budget (see :mod:`gateway.ratelimits`), before the request is read."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path") in _UNLIMITED_PATHS:
            await self.app(scope, receive, send)
            return
        # Built with the app's other Redis clients when it starts.
        gateway = scope["app"].state.gateway
        limits: RateLimits = gateway.limits
        client = scope.get("client")
        address = client[0] if client else "unknown"
        token = bearer_token(Headers(scope=scope).get("authorization"))
        creating = scope.get("method") == "POST" and scope.get("path") == "/v1/tables"
        refused = await limits.check(address, token, creating)
        if refused is None:
            await self.app(scope, receive, send)
            return
        log.info("http.rate_limited", budget=refused.budget, retry_after=refused.retry_after_s)
        gateway.metrics.rate_limited.labels(budget=refused.budget).inc()
        response = ErrorResponse(
            status_code=429,
            content=error_body(
                "rate.limited",
                f"Too many requests ({refused.budget}: {refused.limit}); retry after"
                f" {refused.retry_after_s} s.",
                {"budget": refused.budget, "limit": refused.limit},
            ),
            headers={"Retry-After": str(refused.retry_after_s)},
        )
        await response(scope, receive, send)


class BodyTooLarge(HTTPException):
    """A request body over the limit (rendered by the error handlers as 413)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"The request body is larger than {limit} bytes.")
        self.limit = limit


class BodyLimit:
    """413 ``request.too_large`` for a body over ``max_bytes``, before it is read in full.

    A declared ``Content-Length`` over the limit is refused at once, unread. A body without
    one (chunked) is counted as it arrives and refused at the first chunk past the limit,
    so no more than the limit is ever held for one request.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            response = ErrorResponse(
                status_code=413,
                content=error_body(
                    "request.too_large",
                    f"The request body is larger than {self.max_bytes} bytes.",
                    {"max_bytes": str(self.max_bytes)},
                ),
            )
            await response(scope, receive, send)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise BodyTooLarge(self.max_bytes)
            return message

        await self.app(scope, counted, send)
