"""An engine serves its own game's tables only, and the audit fails a log of another game.

A Freunde engine service (real gRPC, real Redis) is pointed at a Harvest table through
every entry point: each refuses with ``table.wrong_game`` and nothing is written. A log
into which another game's events were appended anyway (as happened before this check
existed) fails the Harvest engine's audit.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import grpc
import pytest

import engines
from engines.core.canonical import message_bytes
from engines.core.codes import CODE_METADATA
from engines.core.contract import TableConfig
from engines.core.play import Table
from proto import common_pb2, engine_pb2, engine_pb2_grpc
from services.engine.consumer import CommandConsumer, ConsumerSettings
from services.engine.host import TableHost
from services.eventstore import CommandKey, EventStore, connect
from tests.integration.test_engine_service_support import (
    FREUNDE,
    SEED,
    SHARDS,
    channel,
    scripted_game,
    service,
    stub,
)

pytestmark = [pytest.mark.anyio, pytest.mark.integration]

__all__ = ["channel", "service", "stub"]

HARVEST = engines.get("harvest")


@pytest.fixture
async def harvest_host(redis_url: str) -> AsyncIterator[TableHost]:
    host = TableHost(EventStore(await connect(redis_url), shards=SHARDS), HARVEST)
    try:
        yield host
    finally:
        await host.store.redis.aclose()


async def _harvest_table(host: TableHost, table_id: str) -> int:
    created = await host.create_table(
        engine_pb2.CreateTableRequest(table_id=table_id, seats=2, seed=SEED)
    )
    return created.version


async def test_every_rpc_of_another_games_engine_refuses_the_table(
    stub: engine_pb2_grpc.EngineStub, harvest_host: TableHost, table_id: str
) -> None:
    """Execute is rejected with `table.wrong_game`, every read is FAILED_PRECONDITION with
    that code, and the Harvest table is exactly as it was."""
    version = await _harvest_table(harvest_host, table_id)
    store = harvest_host.store
    before = await store.read(table_id)
    seat, command = scripted_game(table_id)[0]
    envelope = common_pb2.CommandEnvelope(
        table_id=table_id, command_id="c1", seat=seat, payload=message_bytes(command)
    )
    reply = await stub.Execute(envelope)
    assert reply.rejected.code == "table.wrong_game"
    assert "harvest" in reply.rejected.message and "freunde" in reply.rejected.message
    spectator = engine_pb2.Viewer()
    for call in (
        stub.LegalCommands(engine_pb2.LegalCommandsRequest(table_id=table_id, seat=0)),
        stub.GetView(engine_pb2.ViewRequest(table_id=table_id, viewer=spectator)),
        stub.EventsAfter(engine_pb2.EventsAfterRequest(table_id=table_id, viewer=spectator)),
        stub.Replay(engine_pb2.ReplayRequest(table_id=table_id, viewer=spectator, at=1)),
        stub.Audit(engine_pb2.AuditRequest(table_id=table_id)),
    ):
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await call
        assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        trailing = dict(refused.value.trailing_metadata() or ())
        assert trailing[CODE_METADATA] == "table.wrong_game"
    assert await store.read(table_id) == before
    assert (await store.head(table_id)).version == version
    assert await store.outcome(table_id, seat, "c1") is None


async def test_the_async_path_of_another_game_writes_nothing(
    redis_url: str, harvest_host: TableHost, table_id: str
) -> None:
    """A command for a Harvest table queued as a Freunde command is refused into the dead
    letters, not applied."""
    version = await _harvest_table(harvest_host, table_id)
    store = harvest_host.store
    seat, command = scripted_game(table_id)[0]
    envelope = common_pb2.CommandEnvelope(
        table_id=table_id, command_id="queued", seat=seat, payload=message_bytes(command)
    )
    await store.redis.xadd(
        store.keys(table_id).cmd, {"env": envelope.SerializeToString(), "game": "freunde"}
    )
    freunde = TableHost(EventStore(await connect(redis_url), shards=SHARDS), FREUNDE)
    consumer = CommandConsumer(
        freunde.store.redis, freunde, SHARDS, ConsumerSettings(block_ms=50, poll_ms=10)
    )
    try:
        await consumer.ensure_groups()
        dead = store.keys(table_id).dead
        for _ in range(50):
            await consumer.step()
            if await store.redis.xlen(dead):
                break
        letters: list[Any] = await store.redis.xrange(dead) or []
        assert [fields[b"code"] for _, fields in letters] == [b"table.wrong_game"]
    finally:
        await consumer.release_all()
        await freunde.store.redis.aclose()
    assert (await store.head(table_id)).version == version
    assert await store.outcome(table_id, seat, "queued") is None


async def test_the_audit_fails_a_log_with_another_games_events(
    harvest_host: TableHost, table_id: str
) -> None:
    """Freunde events appended to a Harvest table (a well-linked chain) fail the audit."""
    version = await _harvest_table(harvest_host, table_id)
    store = harvest_host.store
    good = await harvest_host.audit(engine_pb2.AuditRequest(table_id=table_id))
    assert good.ok, good.detail
    freunde = Table.create(FREUNDE, TableConfig(table_id, 2, {"round_limit": 3}), SEED)
    chooser = random.Random(2)
    freunde.play(lambda t, seat: chooser.choice(FREUNDE.legal_commands(t.state, seat)))
    foreign = [
        common_pb2.StoredEvent(seat=0, time_ms=1, payload=message_bytes(event))
        for event in freunde.events[:20]
    ]
    head = await store.head(table_id)
    await store.append(table_id, CommandKey(0, "foreign", bytes(32)), head, foreign)

    audit = await harvest_host.audit(engine_pb2.AuditRequest(table_id=table_id))
    assert audit.chain_ok, "the foreign events are properly chained"
    assert not audit.ok
    checks = {check.name: check for check in audit.checks}
    assert not checks["events"].ok
    assert f"version {version + 1}: not a harvest event" in checks["events"].detail
