"""The async path and the projector on a real Redis Cluster (streams spread over slots)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from redis.asyncio.cluster import RedisCluster as ClusterClient

from services.engine.consumer import CommandConsumer, ConsumerSettings
from services.engine.host import TableHost
from services.eventstore import EventStore, connect
from services.projector.projector import Projector
from tests.conftest import local_cluster_url
from tests.integration.test_engine_service_support import (
    FREUNDE,
    SHARDS,
    create_request,
    envelope,
    scripted_game,
)

pytestmark = [pytest.mark.anyio, pytest.mark.integration, pytest.mark.cluster]


@pytest.fixture(scope="module")
def own_cluster_url() -> Iterator[str]:
    """A cluster of this module's own: leases and consumer groups are cluster-wide."""
    yield from local_cluster_url()


async def status_view(store: EventStore, table_id: str) -> Any:
    """The table's status read model, decoded from the JSON the projector stored."""
    stored = await store.redis.hget(store.keys(table_id).view("status"), "json")
    assert isinstance(stored, bytes), stored
    return json.loads(stored)


async def test_a_game_sent_to_the_command_streams_is_played_and_projected(
    own_cluster_url: str, table_id: str
) -> None:
    """Leases, reads and acks work across slots; the projector then shows the finished game."""
    redis = await connect(own_cluster_url)
    try:
        assert isinstance(redis, ClusterClient)
        store = EventStore(redis, shards=SHARDS)
        host = TableHost(store, FREUNDE)
        await host.create_table(create_request(table_id))
        game = scripted_game(table_id)
        for n, (seat, command) in enumerate(game):
            env = envelope(table_id, f"c{n}", seat, command)
            await redis.xadd(
                store.keys(table_id).cmd, {"env": env.SerializeToString(), "game": "freunde"}
            )
        consumer = CommandConsumer(
            redis, host, SHARDS, ConsumerSettings(lease_ms=1000, block_ms=50, poll_ms=5)
        )
        await consumer.ensure_groups()
        for _ in range(2000):
            if await store.outcome(table_id, game[-1][0], f"c{len(game) - 1}") is not None:
                break
            await consumer.step()
        await consumer.release_all()
        log = await store.read(table_id)
        assert [e.command_id for e in log if e.command] == [f"c{n}" for n in range(len(game))]
        assert log[-1].WhichOneof("body") == "seed_revealed"

        projector = Projector(store, name="cluster", block_ms=50)
        await projector.ensure_groups()
        for _ in range(200):
            await projector.step()
            lag = await projector.lag()
            if lag["entries_behind"] == 0 and lag["pending"] == 0:
                break
        status = await status_view(store, table_id)
        assert status["finished"] and status["version"] == len(log)
        assert await projector.rebuild() >= 1
        rebuilt = await status_view(store, table_id)
        assert rebuilt == status
    finally:
        await redis.aclose()
