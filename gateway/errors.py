"""Every error the gateway returns is JSON ``{code, message, details}``.

Routes raise :class:`ApiError`; the handlers installed by :func:`install_error_handlers`
turn it, request validation errors, unknown routes, gRPC failures and Redis outages into
that shape, so nothing a client sends produces a 500.

Statuses follow one rule: the client's fault is 4xx and retrying it changes nothing; a
part that is down is 503 with ``Retry-After`` (retrying helps); 500 is left for a bug
(``server.error`` here, ``engine.error`` when the engine service failed on a request).
"""

from __future__ import annotations

import json
from typing import Any

import grpc
import structlog
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from engines.core import codes
from services.eventstore import STORE_UNAVAILABLE, is_store_unavailable
from services.seating import Refused, SeatingBusy

__all__ = [
    "SEATING_STATUS",
    "SERVICE_STATUS",
    "ApiError",
    "ErrorResponse",
    "error_body",
    "install_error_handlers",
    "status_for_rejection",
]

log = structlog.get_logger("gateway")


class ApiError(Exception):
    """An error with an HTTP status and a stable code."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        details: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.details = dict(details or {})
        self.headers = dict(headers or {})


def error_body(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"code": code, "message": message, "details": dict(details or {})}


# What a service refusal (engines/core/codes.SERVICE) means over HTTP. Every rule code of
# every game (codes.RULES and each game's own) is a 422: the move is not allowed now.
SERVICE_STATUS: dict[str, int] = {
    codes.COMMAND_MALFORMED.code: 422,
    codes.COMMAND_ID_REUSED.code: 409,
    codes.COMMAND_INVALID.code: 422,
    codes.TABLE_NOT_FOUND.code: 404,
    codes.TABLE_WRONG_GAME.code: 409,
    codes.SEAT_INVALID.code: 422,
    codes.VERSION_CONFLICT.code: 409,
}

# What a seating refusal (services/seating) means over HTTP; any other is a 409.
SEATING_STATUS: dict[str, int] = {
    "seat.not_found": 404,
    "seat.taken": 409,
    "seat.open": 409,
    "table.full": 409,
    "table.started": 409,
    "table.not_full": 409,
    "table.exists": 409,
    "player.seated": 409,
}

# Seconds a client should wait before retrying a 503.
RETRY_AFTER_UNAVAILABLE = 1


def status_for_rejection(code: str) -> int:
    """The HTTP status of an engine rejection code."""
    return SERVICE_STATUS.get(code, 422)


# The engine's refusals of a request are the client's fault: 4xx, never retried.
_GRPC_REFUSED = {
    grpc.StatusCode.NOT_FOUND: (404, "table.not_found"),
    grpc.StatusCode.INVALID_ARGUMENT: (422, "request.invalid"),
    grpc.StatusCode.OUT_OF_RANGE: (422, "request.out_of_range"),
    grpc.StatusCode.FAILED_PRECONDITION: (422, "request.precondition_failed"),
    grpc.StatusCode.ALREADY_EXISTS: (409, "table.exists"),
    grpc.StatusCode.PERMISSION_DENIED: (403, "seat.forbidden"),
}
# The engine failed on the request (a bug): retrying the same request will not help.
_GRPC_FAILED = frozenset(
    {
        grpc.StatusCode.UNKNOWN,
        grpc.StatusCode.INTERNAL,
        grpc.StatusCode.DATA_LOSS,
        grpc.StatusCode.UNIMPLEMENTED,
    }
)


class ErrorResponse(JSONResponse):
    """JSON with every non-ASCII character escaped: an error may quote what a client sent
    (a table id, an option name), and no text it sends can make the reply unencodable."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, separators=(",", ":")).encode("ascii")


def _json(
    status: int,
    code: str,
    message: str,
    details: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    return ErrorResponse(
        status_code=status, content=error_body(code, message, details), headers=headers
    )


def _unavailable(code: str, message: str) -> JSONResponse:
    return _json(503, code, message, headers={"Retry-After": str(RETRY_AFTER_UNAVAILABLE)})


def _store_unavailable() -> JSONResponse:
    return _unavailable(
        "store.unavailable", "The event store is not reachable or is failing over; retry later."
    )


def _engine_code(exc: grpc.aio.AioRpcError) -> str | None:
    """The shared code an engine service sent beside its status, if any."""
    for key, value in exc.trailing_metadata() or ():
        if key == codes.CODE_METADATA:
            return str(value)
    return None


def _validation_details(exc: RequestValidationError) -> dict[str, Any]:
    errors = []
    for error in exc.errors()[:20]:
        entry = {
            "loc": [str(part) for part in error.get("loc", ())],
            "msg": str(error.get("msg", "")),
            "type": str(error.get("type", "")),
        }
        reason = (error.get("ctx") or {}).get("error")
        if reason:
            entry["reason"] = str(reason)
        errors.append(entry)
    return {"errors": errors}


def _allowed(request: Request) -> str:
    """Every method some route of this path takes (several routes may share a path)."""
    methods: set[str] = set()
    for route in request.app.routes:
        regex = getattr(route, "path_regex", None)
        if regex is not None and regex.match(request.url.path):
            methods |= set(getattr(route, "methods", None) or ())
    return ", ".join(sorted(methods))


def install_error_handlers(app: FastAPI) -> None:
    """Map every failure to ``{code, message, details}`` with a fitting status."""

    @app.exception_handler(ApiError)
    async def _api_error(_: Request, exc: ApiError) -> JSONResponse:
        return _json(exc.status, exc.code, exc.message, exc.details, exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        return _json(422, "request.invalid", "The request is not valid.", _validation_details(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 404:
            return _json(404, "route.not_found", "No such endpoint.")
        if exc.status_code == 405:
            # RFC 9110: a 405 names the methods the endpoint does allow.
            return _json(
                405,
                "method.not_allowed",
                "That method is not allowed here.",
                headers={"Allow": _allowed(request)},
            )
        if exc.status_code == 413:
            return _json(413, "request.too_large", str(exc.detail))
        if exc.status_code == 400:
            # FastAPI's own refusal of a body it cannot parse (bad UTF-8, numbers too long).
            return _json(400, "request.unreadable", "The body is not readable JSON.")
        code = "request.invalid" if exc.status_code < 500 else "server.error"
        return _json(exc.status_code, code, str(exc.detail))

    @app.exception_handler(Refused)
    async def _seating(_: Request, exc: Refused) -> JSONResponse:
        return _json(SEATING_STATUS.get(exc.code, 409), exc.code, exc.message, exc.details)

    @app.exception_handler(SeatingBusy)
    async def _seating_busy(_: Request, exc: SeatingBusy) -> JSONResponse:
        return _unavailable("seating.busy", "Too many changes to this table's seats; retry.")

    @app.exception_handler(grpc.aio.AioRpcError)
    async def _grpc(_: Request, exc: grpc.aio.AioRpcError) -> JSONResponse:
        refused = _GRPC_REFUSED.get(exc.code())
        if refused is not None:
            return _json(refused[0], refused[1], exc.details() or refused[1])
        if exc.code() in _GRPC_FAILED:
            log.error("engine.call_failed", grpc_code=exc.code().name, detail=exc.details())
            return _json(500, "engine.error", "The game engine failed on this request.")
        if _engine_code(exc) == "store.unavailable":
            log.warning("engine.store_unavailable", detail=exc.details())
            return _store_unavailable()
        log.warning("engine.unreachable", grpc_code=exc.code().name, detail=exc.details())
        return _unavailable("engine.unavailable", "The game engine is not reachable; retry later.")

    async def _redis_down(_: Request, exc: Exception) -> JSONResponse:
        log.warning("redis.unavailable", error_type=type(exc).__name__, error=str(exc))
        return _store_unavailable()

    for unavailable in STORE_UNAVAILABLE:
        app.add_exception_handler(unavailable, _redis_down)

    async def _maybe_redis_down(request: Request, exc: Exception) -> JSONResponse:
        # redis-py's client, broken mid-failover, raises these instead of a ConnectionError;
        # anything else of these types is a bug, left to _bug below.
        if is_store_unavailable(exc):
            return await _redis_down(request, exc)
        raise exc

    for broken in (AttributeError, RuntimeError, OSError):
        app.add_exception_handler(broken, _maybe_redis_down)

    @app.exception_handler(Exception)
    async def _bug(request: Request, exc: Exception) -> JSONResponse:
        # Also reached by what the middleware raised, before any handler above could see it.
        if is_store_unavailable(exc):
            return await _redis_down(request, exc)
        log.exception("gateway.unhandled", error_type=type(exc).__name__)
        return _json(500, "server.error", "Something went wrong on our side.")
