"""What a real engine service refuses reaches an HTTP client as a 4xx naming the problem,
never as a 503 a client would retry forever: the engine's gRPC statuses through the
gateway's error handlers."""

from __future__ import annotations

from collections.abc import AsyncIterator

import grpc
import httpx
import pytest
from fastapi import FastAPI

from gateway.errors import install_error_handlers
from proto import engine_pb2, engine_pb2_grpc
from services.engine.server import EngineService

# The real engine service on the session's Redis, as the engine service's own tests run it.
from tests.integration.test_engine_service import service  # noqa: F401

pytestmark = [pytest.mark.anyio, pytest.mark.integration]


@pytest.fixture
async def http(service: EngineService) -> AsyncIterator[httpx.AsyncClient]:  # noqa: F811
    """An app whose routes hand the engine's answers to the gateway's error handlers."""
    app = FastAPI()
    install_error_handlers(app)
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{service.port}")
    stub = engine_pb2_grpc.EngineStub(channel)

    @app.post("/create/{table_id}")
    async def create(table_id: str, options: dict[str, str]) -> int:
        reply = await stub.CreateTable(
            engine_pb2.CreateTableRequest(table_id=table_id, seats=2, options=options)
        )
        return reply.version

    @app.get("/view/{table_id}/{seat}")
    async def view(table_id: str, seat: int) -> int:
        reply = await stub.GetView(
            engine_pb2.ViewRequest(table_id=table_id, viewer=engine_pb2.Viewer(seat=seat))
        )
        return reply.version

    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://engine") as client:
        yield client
    await channel.close()


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"round_limit": "-5"}, "'round_limit' must be from 1 to 1000"),
        ({"round_limit": str(10**30)}, "'round_limit' must be from 1 to 1000"),
        ({"round_limit": '"many"'}, "'round_limit' must be a whole number"),
        ({"colour": '"red"'}, "no option 'colour'"),
    ],
)
async def test_an_option_the_engine_refuses_is_a_422_naming_it(
    http: httpx.AsyncClient, table_id: str, options: dict[str, str], fragment: str
) -> None:
    reply = await http.post(f"/create/{table_id}", json=options)
    assert reply.status_code == 422, reply.text
    assert reply.json()["code"] == "request.invalid"
    assert fragment in reply.json()["message"]


async def test_an_unknown_table_and_a_seat_outside_it_are_4xx(
    http: httpx.AsyncClient, table_id: str
) -> None:
    assert (await http.get(f"/view/{table_id}/0")).status_code == 404
    assert (await http.post(f"/create/{table_id}", json={})).status_code == 200
    outside = await http.get(f"/view/{table_id}/7")
    assert outside.status_code == 422
    assert "seats 0 to 1" in outside.json()["message"]
