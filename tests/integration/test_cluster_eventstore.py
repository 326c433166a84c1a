"""The event store on a real 3-node Redis Cluster on loopback: no CROSSSLOT, any shard."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest
from redis.asyncio.cluster import RedisCluster
from redis.crc import key_slot

from engines.core.hashchain import verify_chain
from proto import common_pb2
from services.eventstore import EventStore, Head, Keys, VersionConflict, shard_of
from tests.integration.store_support import command_key
from tests.integration.test_engine_service_support import opened_store

pytestmark = [pytest.mark.integration, pytest.mark.cluster, pytest.mark.anyio]

SHARDS = 64


def event(payload: bytes) -> common_pb2.StoredEvent:
    return common_pb2.StoredEvent(seat=0, time_ms=1, payload=payload)


@pytest.fixture
async def cluster_store(redis_cluster_url: str) -> AsyncIterator[EventStore]:
    async with opened_store(redis_cluster_url, SHARDS) as store:
        yield store


def cluster_client(store: EventStore) -> RedisCluster:
    assert isinstance(store.redis, RedisCluster)
    return store.redis


def tables_on_every_node(store: EventStore, nodes: int) -> list[str]:
    """Fresh table ids whose shards live on every node of the cluster, two per node."""
    client = cluster_client(store)
    by_node: dict[str, list[str]] = {}
    while len(by_node) < nodes or any(len(ids) < 2 for ids in by_node.values()):
        table_id = f"cl-{uuid.uuid4().hex}"
        node = client.get_node_from_key(store.keys(table_id).meta)
        assert node is not None
        by_node.setdefault(node.name, []).append(table_id)
    return [table_id for ids in by_node.values() for table_id in ids[:2]]


async def test_connect_detects_the_cluster(cluster_store: EventStore) -> None:
    """``connect`` hands out a cluster client for a cluster node's URL."""
    client = cluster_client(cluster_store)

    assert len(client.get_primaries()) == 3


def test_every_key_of_a_table_and_its_shard_shares_one_slot() -> None:
    """The hash tag puts table keys and shard keys in the same slot."""
    for table_id in ("a", "table-42", "zz-top"):
        keys = Keys(shard=shard_of(table_id, SHARDS), table_id=table_id)
        names = [keys.events, keys.meta, keys.cmds, keys.snap, keys.view("public")]
        names += [keys.feed, keys.cmd, keys.dead, keys.tables]
        assert len({key_slot(name.encode()) for name in names}) == 1


async def test_appends_on_tables_spread_over_all_nodes(cluster_store: EventStore) -> None:
    """Create, append, retry and conflict work on every node, each in one script."""
    table_ids = tables_on_every_node(cluster_store, 3)
    assert len({cluster_store.keys(t).shard for t in table_ids}) > 1

    for table_id in table_ids:
        meta = common_pb2.TableMeta(table_id=table_id, game="tend", seats=2)
        created = await cluster_store.create_table(meta, b"seed", [event(b"setup")])
        appended = await cluster_store.append(
            table_id, command_key("cmd-1"), created.head, [event(b"x")]
        )
        again = await cluster_store.append(
            table_id, command_key("cmd-1"), created.head, [event(b"x")]
        )
        with pytest.raises(VersionConflict) as conflict:
            await cluster_store.append(
                table_id, command_key("cmd-2"), created.head, [event(b"late")]
            )

        assert again.duplicate and again.events == appended.events
        assert conflict.value.head == appended.head
        stored = await cluster_store.read(table_id)
        assert [e.version for e in stored] == [1, 2]
        assert verify_chain(stored).ok
        feed = await cluster_client(cluster_store).xrange(cluster_store.keys(table_id).feed)
        ours = [
            fields
            for _, fields in feed or []
            if fields is not None and fields[b"table"] == table_id.encode()
        ]
        assert [(f[b"game"], f[b"v"]) for f in ours] == [(b"tend", b"1"), (b"tend", b"2")]


async def test_concurrent_writers_on_one_cluster_table(cluster_store: EventStore) -> None:
    """Eight concurrent writers on one table still give versions 1..N and a valid chain."""
    table_id = f"cl-{uuid.uuid4().hex}"
    meta = common_pb2.TableMeta(table_id=table_id, game="bardwood", seats=4)
    await cluster_store.create_table(meta, b"seed", [])

    async def writer(w: int) -> None:
        head = Head.empty()
        for n in range(10):
            while True:
                try:
                    head = (
                        await cluster_store.append(
                            table_id, command_key(f"w{w}-{n}"), head, [event(f"{w}:{n}".encode())]
                        )
                    ).head
                    break
                except VersionConflict as conflict:
                    head = conflict.head

    await asyncio.gather(*(writer(w) for w in range(8)))

    stored = await cluster_store.read(table_id)
    assert [e.version for e in stored] == list(range(1, 81))
    assert verify_chain(stored).ok
    assert len({e.command_id for e in stored}) == 80
