"""Error mapping: every failure becomes {code, message, details} with a fitting status."""

from __future__ import annotations

import asyncio

import grpc
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel
from redis.exceptions import ConnectionError as RedisConnectionError
from starlette.types import ASGIApp, Receive, Scope, Send

from engines.core import codes
from gateway.errors import SERVICE_STATUS, ApiError, install_error_handlers, status_for_rejection
from tests.unit.broken_redis import transport_closed, writer_gone


class Body(BaseModel):
    n: int


def _app() -> FastAPI:
    app = FastAPI()
    install_error_handlers(app)

    @app.get("/api-error")
    async def api_error() -> None:
        raise ApiError(403, "seat.forbidden", "no", {"seat": "1"})

    @app.get("/grpc/{code}")
    async def grpc_error(code: str) -> None:
        raise grpc.aio.AioRpcError(
            grpc.StatusCode[code], grpc.aio.Metadata(), grpc.aio.Metadata(), details="engine says"
        )

    @app.get("/redis")
    async def redis_down() -> None:
        raise RedisConnectionError("refused")

    @app.get("/redis-broken/writer")
    async def writer_dropped() -> None:
        raise await writer_gone()

    @app.get("/redis-broken/transport")
    async def transport_gone() -> None:
        # The gateway runs on uvloop; the failing write is made on a loop of its own.
        raise await asyncio.to_thread(transport_closed)

    @app.get("/bug")
    async def bug() -> None:
        raise RuntimeError("a bug")

    @app.get("/attribute-bug")
    async def attribute_bug() -> None:
        raise AttributeError("'NoneType' object has no attribute 'writelines'")

    @app.post("/body")
    async def body(payload: Body) -> int:
        return payload.n

    return app


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(_app(), raise_server_exceptions=False)


def test_api_errors_keep_their_status_code_and_details(client: TestClient) -> None:
    """An ApiError is rendered as raised."""
    reply = client.get("/api-error")
    assert reply.status_code == 403
    assert reply.json() == {"code": "seat.forbidden", "message": "no", "details": {"seat": "1"}}


@pytest.mark.parametrize(
    ("code", "status", "error"),
    [
        ("NOT_FOUND", 404, "table.not_found"),
        ("INVALID_ARGUMENT", 422, "request.invalid"),
        ("OUT_OF_RANGE", 422, "request.out_of_range"),
        ("ALREADY_EXISTS", 409, "table.exists"),
        ("UNAVAILABLE", 503, "engine.unavailable"),
        ("DEADLINE_EXCEEDED", 503, "engine.unavailable"),
        ("RESOURCE_EXHAUSTED", 503, "engine.unavailable"),
        ("INTERNAL", 500, "engine.error"),
        ("UNKNOWN", 500, "engine.error"),
    ],
)
def test_grpc_failures_map_to_client_or_unavailable_statuses(
    client: TestClient, code: str, status: int, error: str
) -> None:
    """An engine's refusal is 4xx (never retried), an engine that is down is 503 with
    Retry-After, and an engine that failed on the request is a 500 (retrying won't help)."""
    reply = client.get(f"/grpc/{code}")
    assert (reply.status_code, reply.json()["code"]) == (status, error)
    assert ("retry-after" in reply.headers) == (status == 503)


def test_every_grpc_status_the_engine_may_return_is_mapped_without_a_bare_500(
    client: TestClient,
) -> None:
    """No gRPC status falls through to the generic bug handler."""
    for code in grpc.StatusCode:
        if code is grpc.StatusCode.OK:
            continue
        reply = client.get(f"/grpc/{code.name}")
        assert reply.json()["code"] != "server.error", code


def test_validation_errors_and_unknown_routes_are_json(client: TestClient) -> None:
    """Bad bodies are 422 request.invalid with the failing fields; unknown routes 404."""
    reply = client.post("/body", json={"n": "x"})
    assert reply.status_code == 422
    assert reply.json()["code"] == "request.invalid"
    assert reply.json()["details"]["errors"][0]["loc"] == ["body", "n"]
    assert client.get("/nowhere").json()["code"] == "route.not_found"
    assert client.delete("/redis").json()["code"] == "method.not_allowed"


def test_a_store_outage_is_503_and_a_bug_is_a_json_500(client: TestClient) -> None:
    """Redis down is retryable (503); only a bug on our side is a 500, still as JSON."""
    assert (client.get("/redis").status_code, client.get("/redis").json()["code"]) == (
        503,
        "store.unavailable",
    )
    assert client.get("/bug").json() == {
        "code": "server.error",
        "message": "Something went wrong on our side.",
        "details": {},
    }


@pytest.mark.parametrize("path", ["/redis-broken/writer", "/redis-broken/transport"])
def test_a_redis_client_broken_mid_failover_is_503_not_500(client: TestClient, path: str) -> None:
    """redis-py's cluster client raising AttributeError or (under uvloop) RuntimeError while
    a primary fails over is the store being unavailable: 503 with Retry-After."""
    reply = client.get(path)
    assert reply.status_code == 503
    assert reply.json() == {
        "code": "store.unavailable",
        "message": "The event store is not reachable or is failing over; retry later.",
        "details": {},
    }
    assert reply.headers["retry-after"] == "1"


def test_the_same_error_types_raised_by_our_code_are_500(client: TestClient) -> None:
    """An AttributeError of a route (RuntimeError: see above) is a bug, whatever it says."""
    assert client.get("/attribute-bug").json()["code"] == "server.error"


class FailingMiddleware:
    """A middleware (as the rate limits are) whose Redis call fails before any route runs."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == "/through-middleware":
            raise await writer_gone()
        await self.app(scope, receive, send)


def test_a_broken_redis_client_in_a_middleware_is_503_too() -> None:
    app = _app()
    app.add_middleware(FailingMiddleware)
    reply = TestClient(app, raise_server_exceptions=False).get("/through-middleware")
    assert (reply.status_code, reply.json()["code"]) == (503, "store.unavailable")


@pytest.mark.parametrize(
    ("code", "status"),
    [
        ("version.conflict", 409),
        ("command.id_reused", 409),
        ("table.not_found", 404),
        ("turn.not_yours", 422),
        ("plot.not_adjacent", 422),
    ],
)
def test_rejection_codes_choose_the_status(code: str, status: int) -> None:
    """Conflicts (a stale version, a command id reused) are 409, unknown tables 404, every
    rule violation 422."""
    assert status_for_rejection(code) == status


def test_every_shared_code_has_one_meaning_over_http() -> None:
    """Each service code of engines/core/codes has its own status, chosen on purpose (a new
    code must be added to the map), and every shared rule code is a 422."""
    assert set(SERVICE_STATUS) == {refusal.code for refusal in codes.SERVICE}
    assert all(400 <= status < 500 for status in SERVICE_STATUS.values())
    for refusal in codes.RULES:
        assert status_for_rejection(refusal.code) == 422, refusal.code


def test_an_error_quoting_a_lone_surrogate_is_still_json(client: TestClient) -> None:
    """A message that quotes unencodable client text is escaped, not a crash."""
    app = _app()

    @app.get("/quote")
    async def quote() -> None:
        raise ApiError(404, "game.not_found", "No game \ud800 here.", {"game": "\ud800"})

    reply = TestClient(app, raise_server_exceptions=False).get("/quote")
    assert reply.status_code == 404
    assert reply.json()["details"] == {"game": "\ud800"}
