"""Reads waiting for a version (``?min_version``) are woken by the projector's feed
``bw:projected`` rather than by polling, against a real Redis and a real projector."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

from gateway.live import Projections
from gateway.store import ReadStore
from services.eventstore import PROJECTED_KEY, connect
from services.projector.projector import Projector
from tests.integration.test_engine_service_support import (
    create_request,
    envelope,
    open_host,
    private_redis_url,
    scripted_game,
)
from tests.integration.test_projector import caught_up

pytestmark = [pytest.mark.anyio, pytest.mark.integration]

__all__ = ["private_redis_url"]

# Long enough that a wait ending before it was ended by a wake-up, not by its timeout.
NEVER_S = 30.0


@pytest.fixture
async def projections(redis_url: str) -> AsyncIterator[Projections]:
    redis = await connect(redis_url)
    reader = Projections(redis, 200)
    reader.start()
    try:
        await asyncio.wait_for(reader.armed.wait(), NEVER_S)
        yield reader
    finally:
        await reader.stop()
        await redis.aclose()


async def _published(projections: Projections, table_id: str, version: int) -> None:
    """What the projector adds once it wrote ``table_id``'s read models at ``version``."""
    await projections.redis.xadd(PROJECTED_KEY, {table_id: version, "other-table": 99})


async def test_a_waiting_read_wakes_when_its_version_is_projected(
    projections: Projections,
) -> None:
    table_id = f"wake-{uuid.uuid4().hex}"
    waiting = asyncio.create_task(projections.reached(table_id, 5, NEVER_S))
    while not projections.waiting:
        await asyncio.sleep(0.01)
    await _published(projections, table_id, 5)
    assert await waiting is True
    assert projections.waiting == 0


async def test_an_older_version_does_not_end_the_wait(projections: Projections) -> None:
    table_id = f"wake-{uuid.uuid4().hex}"
    waiting = asyncio.create_task(projections.reached(table_id, 5, 0.5))
    while not projections.waiting:
        await asyncio.sleep(0.01)
    await _published(projections, table_id, 4)
    assert await waiting is False


async def test_a_version_projected_before_the_wait_began_ends_it_at_once(
    projections: Projections,
) -> None:
    table_id = f"wake-{uuid.uuid4().hex}"
    await _published(projections, table_id, 7)
    while projections.versions.get(table_id) != 7:
        await asyncio.sleep(0.01)
    assert await projections.reached(table_id, 6, NEVER_S) is True
    assert projections.waiting == 0


async def test_a_read_at_least_a_version_is_answered_once_the_projector_writes_it(
    redis_url: str, projections: Projections
) -> None:
    """The gateway's read: behind at first, answered with the new read model when the
    projector's entry arrives."""
    store = ReadStore(await connect(redis_url), 16, look_again_s=NEVER_S)
    table_id = f"wake-{uuid.uuid4().hex}"
    view = store.keys(table_id).view

    async def project(version: int) -> None:
        for name in ("seat:0", "status"):
            document = json.dumps({"at": version})
            await store.redis.hset(view(name), mapping={"version": version, "json": document})

    try:
        await project(4)
        reading = asyncio.create_task(
            store.read_models_at_least(table_id, "seat:0", 5, NEVER_S, projections)
        )
        while not projections.waiting:
            await asyncio.sleep(0.01)
        await project(5)
        await _published(projections, table_id, 5)
        # Unwoken, the read would look again only at its deadline, NEVER_S from its start.
        model, status = await asyncio.wait_for(reading, NEVER_S / 2)
        assert model is not None and model.version == 5 and model.data == {"at": 5}
        assert status is not None and status.version == 5
    finally:
        await store.close()


async def test_the_projector_names_each_table_it_wrote_with_its_version(
    private_redis_url: str,
) -> None:
    host = await open_host(private_redis_url)
    try:
        tables = [f"proj-{uuid.uuid4().hex[:12]}" for _ in range(3)]
        for table_id in tables:
            await host.create_table(create_request(table_id, seats=2))
            for n, (seat, command) in enumerate(scripted_game(table_id)[:3]):
                await host.execute(envelope(table_id, f"c{n}", seat, command))
        await caught_up(Projector(host.store, name="wakes"))
        named: dict[str, int] = {}
        entries: Any = await host.store.redis.xrange(PROJECTED_KEY)
        for _, fields in entries:
            for table, version in fields.items():
                named[table.decode()] = max(named.get(table.decode(), 0), int(version))
        heads = {t: (await host.store.head(t)).version for t in tables}
        assert {t: named.get(t) for t in tables} == heads
    finally:
        await host.store.redis.aclose()
