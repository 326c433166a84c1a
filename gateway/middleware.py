"""The gateway's one ASGI middleware: the request log, the rate limits and the body limit,
in that order, before any route (and any body parsing) runs.

One pure-ASGI layer instead of three: each layer is a coroutine call and a wrapped
``send`` or ``receive`` per request, which a gateway serving a command in about a
millisecond of CPU notices.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any

import structlog
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gateway.errors import ErrorResponse, error_body
from gateway.metrics import GatewayMetrics
from gateway.ratelimits import RateLimits, Refusal, ViewGuess
from gateway.seats import bearer_token, token_digest
from gateway.store import ReadModel

__all__ = ["ROSTER_SCOPE_KEY", "VIEWS_SCOPE_KEY", "BodyTooLarge", "RequestGate", "ViewsRead"]

log = structlog.get_logger("gateway")

# Probes and metrics answer whatever the load: an orchestrator must always reach them.
_UNLIMITED_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})
# The table a path names (its own page or one below it): its seating is read with the
# rate limits, in the same round trip.
_TABLE_PATH = re.compile(r"^/v1/tables/([A-Za-z0-9_\-]{1,64})(?:/|$)")
# Where the seating read with the rate limits waits for the route: (table id, roster).
ROSTER_SCOPE_KEY = "boardwright.roster"
# Where a view read with the rate limits waits for the route: a ViewsRead.
VIEWS_SCOPE_KEY = "boardwright.views"


@dataclass(frozen=True, slots=True)
class ViewsRead:
    """A table's read model ``name`` and its status (``None`` where missing or damaged),
    read with the rate limits: the route serves them only to the viewer ``name`` is."""

    table_id: str
    name: str
    view: ReadModel | None
    status: ReadModel | None


class BodyTooLarge(HTTPException):
    """A request body over the limit (rendered by the error handlers as 413)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"The request body is larger than {limit} bytes.")
        self.limit = limit


class RequestGate:
    """Per HTTP request, outermost first:

    - **log**: one line (at debug for a success, at info for a refusal or failure) and one
      latency sample; the route's bound context (table, seat, command id) is still there
      when the line is written. Headers are never logged, so a seat token cannot end up
      in the logs.
    - **rate limits**: 429 ``rate.limited`` with ``Retry-After`` once a client address or a
      seat token has spent its budget (:mod:`gateway.ratelimits`), before the request is
      read; the seating of the table the path names comes back with the same call and is
      left in the scope for the route (``ROSTER_SCOPE_KEY``).
    - **body limit**: 413 ``request.too_large`` for a body over ``max_bytes``. A declared
      ``Content-Length`` over the limit is refused at once, unread; a body without one
      (chunked) is counted as it arrives and refused at the first chunk past the limit,
      so no more than the limit is ever held for one request.
    """

    def __init__(self, app: ASGIApp, metrics: GatewayMetrics, max_bytes: int) -> None:
        self.app = app
        self.metrics = metrics
        self.max_bytes = max_bytes
        # Histogram children by (method, route, status class): labels() builds a key and
        # takes a lock on every call.
        self._latency: dict[tuple[str, str, str], Any] = {}

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
            await self._admit(scope, receive, send_and_note)
        finally:
            self._note(scope, status, time.perf_counter() - started)

    def _note(self, scope: Scope, status: int, elapsed: float) -> None:
        route = getattr(scope.get("route"), "path", "unmatched")
        method = str(scope.get("method", ""))
        labels = (method, route, f"{status // 100}xx")
        latency = self._latency.get(labels)
        if latency is None:
            latency = self.metrics.request_seconds.labels(*labels)
            self._latency[labels] = latency
        latency.observe(elapsed)
        # Successes at debug (one line per command is the gateway's busiest output); every
        # refusal and failure at info.
        (log.debug if status < 400 else log.info)(
            "http.request", method=method, route=route, status=status, ms=round(elapsed * 1000, 2)
        )

    async def _admit(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope["path"]
        headers = _headers(scope)
        if path not in _UNLIMITED_PATHS:
            # Built with the app's Redis clients when it starts.
            gateway = scope["app"].state.gateway
            client = scope.get("client")
            method = scope["method"]
            table = _TABLE_PATH.match(path)
            token = bearer_token(headers.get(b"authorization"))
            table_id = table.group(1) if table else None
            guess: ViewGuess | None = None
            # The table's own page (its view), not a page below it.
            if table is not None and method == "GET" and table.end(1) == len(path):
                guess = _view_guess(gateway, table.group(1), token, scope)
            admission = await gateway.limits.check(
                client[0] if client else "unknown",
                token,
                method == "POST" and path == "/v1/tables",
                table_id,
                guess,
            )
            if admission.refusal is not None:
                await self._refuse(gateway, admission.refusal, scope, receive, send)
                return
            if admission.roster_read and table_id is not None:
                scope[ROSTER_SCOPE_KEY] = (table_id, admission.roster)
                if guess is not None and admission.views is not None:
                    scope[VIEWS_SCOPE_KEY] = ViewsRead(table_id, guess.name, *admission.views)
        declared = headers.get(b"content-length")
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

    async def _refuse(
        self, gateway: Any, refused: Refusal, scope: Scope, receive: Receive, send: Send
    ) -> None:
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


def _view_guess(gateway: Any, table_id: str, token: str | None, scope: Scope) -> ViewGuess | None:
    """The read model a view read of ``table_id`` will most likely serve: a spectator's
    (no credentials), or the seat the token held in the last seating read here; ``None``
    for an app's request or a token of a table not read yet (the route reads its view)."""
    if token is None:
        if any(name == b"x-app-key" for name, _ in scope["headers"]):
            return None
        name = "public"
    else:
        limits: RateLimits = gateway.limits
        roster = limits.held(table_id)
        seat = roster.seat_of_token(token_digest(token)) if roster is not None else None
        if seat is None:
            return None
        name = f"seat:{seat}"
    keys = gateway.store.keys(table_id)
    return ViewGuess(name, keys.view(name), keys.view("status"))


def _headers(scope: Scope) -> dict[bytes, str]:
    """The two headers the gate reads (names are lower case in ASGI); the first of each."""
    found: dict[bytes, str] = {}
    for name, value in scope["headers"]:
        if name in (b"authorization", b"content-length") and name not in found:
            found[name] = value.decode("latin-1")
    return found
