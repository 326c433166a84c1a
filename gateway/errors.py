"""Every error the gateway returns is JSON ``{code, message, details}``.

Routes raise :class:`ApiError`; the handlers installed by :func:`install_error_handlers`
turn it, request validation errors, unknown routes, gRPC failures and Redis outages into
that shape, so nothing a client sends produces a 500.
"""

from __future__ import annotations

from typing import Any

import grpc
import structlog
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from starlette.exceptions import HTTPException as StarletteHTTPException

__all__ = ["ApiError", "error_body", "install_error_handlers", "status_for_rejection"]

log = structlog.get_logger("gateway")


class ApiError(Exception):
    """An error with an HTTP status and a stable code."""

    def __init__(
        self, status: int, code: str, message: str, details: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.details = dict(details or {})


def error_body(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"code": code, "message": message, "details": dict(details or {})}


def status_for_rejection(code: str) -> int:
    """The HTTP status of an engine rejection code."""
    if code in ("version.conflict", "command.id_reused"):
        return 409
    if code == "table.not_found":
        return 404
    return 422


_GRPC_STATUS = {
    grpc.StatusCode.NOT_FOUND: (404, "table.not_found"),
    grpc.StatusCode.INVALID_ARGUMENT: (422, "request.invalid"),
    grpc.StatusCode.OUT_OF_RANGE: (422, "request.out_of_range"),
    grpc.StatusCode.FAILED_PRECONDITION: (422, "request.precondition_failed"),
    grpc.StatusCode.ALREADY_EXISTS: (409, "table.exists"),
    grpc.StatusCode.PERMISSION_DENIED: (403, "seat.forbidden"),
}


def _json(
    status: int, code: str, message: str, details: dict[str, Any] | None = None
) -> JSONResponse:
    return JSONResponse(status_code=status, content=error_body(code, message, details))


def _validation_details(exc: RequestValidationError) -> dict[str, Any]:
    errors = []
    for error in exc.errors()[:20]:
        errors.append(
            {
                "loc": [str(part) for part in error.get("loc", ())],
                "msg": str(error.get("msg", "")),
                "type": str(error.get("type", "")),
            }
        )
    return {"errors": errors}


def install_error_handlers(app: FastAPI) -> None:
    """Map every failure to ``{code, message, details}`` with a fitting status."""

    @app.exception_handler(ApiError)
    async def _api_error(_: Request, exc: ApiError) -> JSONResponse:
        return _json(exc.status, exc.code, exc.message, exc.details)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        return _json(422, "request.invalid", "The request is not valid.", _validation_details(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 404:
            return _json(404, "route.not_found", "No such endpoint.")
        if exc.status_code == 405:
            return _json(405, "method.not_allowed", "That method is not allowed here.")
        code = "request.invalid" if exc.status_code < 500 else "server.error"
        return _json(exc.status_code, code, str(exc.detail))

    @app.exception_handler(grpc.aio.AioRpcError)
    async def _grpc(_: Request, exc: grpc.aio.AioRpcError) -> JSONResponse:
        mapped = _GRPC_STATUS.get(exc.code())
        if mapped is not None:
            return _json(mapped[0], mapped[1], exc.details() or mapped[1])
        log.warning("engine.call_failed", grpc_code=exc.code().name, detail=exc.details())
        return _json(503, "engine.unavailable", "The game engine is not reachable; retry later.")

    @app.exception_handler(RedisConnectionError)
    async def _redis_down(_: Request, exc: RedisConnectionError) -> JSONResponse:
        log.warning("redis.unavailable", error=str(exc))
        return _json(503, "store.unavailable", "The event store is not reachable; retry later.")

    @app.exception_handler(RedisTimeoutError)
    async def _redis_slow(_: Request, exc: RedisTimeoutError) -> JSONResponse:
        log.warning("redis.timeout", error=str(exc))
        return _json(503, "store.unavailable", "The event store did not answer in time.")

    @app.exception_handler(Exception)
    async def _bug(_: Request, exc: Exception) -> JSONResponse:
        log.exception("gateway.unhandled", error_type=type(exc).__name__)
        return _json(500, "server.error", "Something went wrong on our side.")
