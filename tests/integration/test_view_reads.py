"""A view read served from what the request gate read with the rate limits, against a real
Redis: only when it is the caller's own view; any other is read afresh, so a guess the
gate made from a seating that has moved since (a token re-issued) never shows a seat's
secrets to another."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any, cast

import pytest

from gateway.api.deps import Gateway, TableCaller
from gateway.api.reads import view_for
from gateway.live import Projections
from gateway.middleware import ViewsRead
from gateway.settings import Settings
from gateway.store import ReadModel, ReadStore
from proto import common_pb2
from services.eventstore import connect

pytestmark = [pytest.mark.anyio, pytest.mark.integration]


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[ReadStore]:
    read_store = ReadStore(await connect(redis_url), 16)
    try:
        yield read_store
    finally:
        await read_store.close()


def _gateway(store: ReadStore) -> Gateway:
    # view_for needs only the read store and the settings while the read models are
    # current (the projector's wake-ups are never waited for).
    projections = Projections(store.redis, 100)
    return cast(Gateway, SimpleNamespace(store=store, settings=Settings(), projections=projections))


def _hash(version: int, data: dict[str, Any]) -> dict[bytes, bytes]:
    return {b"version": str(version).encode(), b"json": json.dumps(data).encode()}


async def _project(store: ReadStore, table_id: str, name: str, data: dict[str, Any]) -> None:
    keys = store.keys(table_id)
    await store.redis.hset(keys.view(name), mapping=_hash(4, data))
    await store.redis.hset(keys.view("status"), mapping=_hash(4, {"finished": False}))


def _caller(table_id: str, seat: int | None) -> TableCaller:
    meta = common_pb2.TableMeta(table_id=table_id, game="freunde", seats=2)
    return TableCaller(table_id, meta, cast(Any, None), seat)


async def test_the_gates_read_is_served_only_to_its_viewer(store: ReadStore) -> None:
    table_id = f"test-{uuid.uuid4().hex}"
    await _project(store, table_id, "seat:0", {"hand": ["own"]})
    gate_read = ViewsRead(
        table_id,
        "seat:1",
        ReadModel(4, json.dumps({"hand": ["secret"]}).encode()),
        ReadModel(4, json.dumps({"finished": False}).encode()),
    )
    gateway = _gateway(store)

    seat_0 = await view_for(gateway, _caller(table_id, 0), None, gate_read)
    assert seat_0.view == {"hand": ["own"]}
    seat_1 = await view_for(gateway, _caller(table_id, 1), 4, gate_read)
    assert seat_1.view == {"hand": ["secret"]} and seat_1.version == 4
    elsewhere = ViewsRead(f"{table_id}-other", "seat:0", gate_read.view, gate_read.status)
    assert (await view_for(gateway, _caller(table_id, 0), 4, elsewhere)).view == {"hand": ["own"]}
