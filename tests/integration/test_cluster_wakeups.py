"""On a real Redis Cluster the consumers of the streams of every shard (the projector, the
engine services' command consumers, the notifier, the scheduler), which cannot block on
them in one read, are woken by their writers, not by their cap: each is given a cap far
longer than the test waits, then something is written. A write that wakes nobody (an
integration's bare ``XADD``, a wake-up lost in a failover) is still read once the cap is
up. On one server nothing writes the wake-up streams."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from redis.asyncio.cluster import RedisCluster as ClusterClient

from engines.core.control import Due
from proto import common_pb2
from services.engine.consumer import CommandConsumer, ConsumerSettings
from services.engine.host import TableHost
from services.eventstore import (
    DUE_WAKE_KEY,
    FEEDS_WAKE_KEY,
    INBOXES_WAKE_KEY,
    NOTIFY_WAKE_KEY,
    EventStore,
    ShardKeys,
    connect,
)
from services.notifications import PlayerInbox, Webhooks
from services.notifier.derive import Deriver
from services.projector.projector import Projector
from services.scheduler.due import DuePlans
from services.scheduler.scheduler import Scheduler
from services.seating import OPEN, Roster, RosterStore, Seat
from tests.conftest import local_cluster_url
from tests.integration.test_engine_service_support import (
    FREUNDE,
    SHARDS,
    create_request,
    envelope,
    opened_store,
    private_redis,
    scripted_game,
)

pytestmark = [pytest.mark.anyio, pytest.mark.integration]

# Far beyond the liveness bound below: a consumer that only woke at its cap would fail.
LONG_CAP_MS = 30_000
SHORT_CAP_MS = 200
# How long a woken consumer may take: a liveness bound on a loaded machine, not a speed claim.
WITHIN_S = 10


@pytest.fixture(scope="module")
def own_cluster_url() -> Iterator[str]:
    """A cluster of this module's own: consumer groups and leases are cluster-wide."""
    yield from local_cluster_url()


@pytest.fixture
async def store(own_cluster_url: str) -> AsyncIterator[EventStore]:
    # Blocking reads longer than redis-py's default 5 s socket timeout need a longer one.
    redis = await connect(own_cluster_url, socket_timeout=LONG_CAP_MS / 1000 + 10)
    assert isinstance(redis, ClusterClient)
    try:
        yield EventStore(redis, shards=SHARDS)
    finally:
        await redis.aclose()


async def asleep_on(redis: ClusterClient, wake: str) -> None:
    """Until a client is blocked in XREAD on the wake-up stream's node (the one sleeper of
    the test), so that what the test writes next comes while it sleeps."""
    node = redis.get_node_from_key(wake)
    while not any(
        client["cmd"] == "xread" and "b" in client["flags"]
        for client in await redis.client_list(target_nodes=node)
    ):
        await asyncio.sleep(0.01)


async def from_now_on(redis: ClusterClient, group: str, streams: list[str]) -> None:
    """A group of the test's own on ``streams`` that reads only what comes next."""
    for stream in streams:
        await redis.xgroup_create(stream, group, id="$", mkstream=True)


async def projector_steps(projector: Projector) -> int:
    """Step until a step handles something; what it handled."""
    while not (handled := await projector.step()):
        pass
    return handled


async def deriver_steps(deriver: Deriver) -> int:
    while not (handled := await deriver.step()):
        pass
    return handled


async def consumer_steps(consumer: CommandConsumer, handled: int) -> None:
    while consumer.handled < handled:
        await consumer.step()


def feeds() -> list[str]:
    return [ShardKeys(shard).feed for shard in range(SHARDS)]


@pytest.mark.cluster
async def test_the_projector_is_woken_by_an_append_and_reads_an_unannounced_entry_by_its_cap(
    store: EventStore, table_id: str
) -> None:
    redis = store.redis
    assert isinstance(redis, ClusterClient)
    group = f"wake-{os.urandom(4).hex()}"
    await from_now_on(redis, group, feeds())
    projector = Projector(store, group=group, name="woken", block_ms=LONG_CAP_MS)
    stepping = asyncio.create_task(projector_steps(projector))
    await asyncio.wait_for(asleep_on(redis, FEEDS_WAKE_KEY), WITHIN_S)
    await TableHost(store, FREUNDE).create_table(create_request(table_id))
    assert await asyncio.wait_for(stepping, WITHIN_S) > 0
    assert await redis.hget(store.keys(table_id).view("status"), "version")

    # The same event again, added as no append adds it: nothing wakes the projector.
    first: Any = await redis.xrange(store.keys(table_id).events, count=1)
    stored = first[0][1]
    capped = Projector(store, group=group, name="capped", block_ms=SHORT_CAP_MS)
    stepping = asyncio.create_task(projector_steps(capped))
    await asyncio.wait_for(asleep_on(redis, FEEDS_WAKE_KEY), WITHIN_S)
    fields: dict[Any, Any] = {"table": table_id, "game": "freunde", "v": 1, "e": stored[b"e"]}
    await redis.xadd(store.keys(table_id).feed, fields)
    assert await asyncio.wait_for(stepping, WITHIN_S) == 1


@pytest.mark.cluster
async def test_the_command_consumer_is_woken_by_the_scheduler_and_reads_a_bare_xadd_by_its_cap(
    store: EventStore, table_id: str
) -> None:
    redis = store.redis
    assert isinstance(redis, ClusterClient)
    host = TableHost(store, FREUNDE)
    await host.create_table(create_request(table_id))
    head = await store.head(table_id)
    # A lease outlasts any block: the cap is the block.
    settings = ConsumerSettings(lease_ms=4 * LONG_CAP_MS, block_ms=LONG_CAP_MS)
    consumer = CommandConsumer(redis, host, SHARDS, settings, name="woken")
    await consumer.ensure_groups()
    try:
        stepping = asyncio.create_task(consumer_steps(consumer, 1))
        await asyncio.wait_for(asleep_on(redis, INBOXES_WAKE_KEY), WITHIN_S)
        plans = DuePlans(redis, SHARDS)
        timeout = Due(at_ms=0, seat=0, version=head.version, kind="time_out")
        assert await plans.replace("freunde", table_id, head.version, [timeout])
        assert len((await plans.fire_all(int(time.time() * 1000))).fired) == 1
        await asyncio.wait_for(stepping, WITHIN_S)
    finally:
        await consumer.release_all()

    settings = ConsumerSettings(lease_ms=4 * LONG_CAP_MS, block_ms=SHORT_CAP_MS)
    consumer = CommandConsumer(redis, host, SHARDS, settings, name="capped")
    try:
        stepping = asyncio.create_task(consumer_steps(consumer, 1))
        await asyncio.wait_for(asleep_on(redis, INBOXES_WAKE_KEY), WITHIN_S)
        seat, command = scripted_game(table_id)[0]
        env = envelope(table_id, "c0", seat, command)
        await redis.xadd(
            store.keys(table_id).cmd, {"env": env.SerializeToString(), "game": "freunde"}
        )
        await asyncio.wait_for(stepping, WITHIN_S)
    finally:
        await consumer.release_all()
    assert await store.outcome(table_id, seat, "c0") is not None


@pytest.mark.cluster
async def test_the_notifier_is_woken_by_turns_and_seating_and_reads_a_bare_xadd_by_its_cap(
    store: EventStore, table_id: str
) -> None:
    redis = store.redis
    assert isinstance(redis, ClusterClient)
    group = f"wake-{os.urandom(4).hex()}"
    shards = [ShardKeys(shard) for shard in range(SHARDS)]
    await from_now_on(redis, group, [k.turns for k in shards] + [k.seating_feed for k in shards])
    await from_now_on(redis, group, feeds())

    def deriver(name: str, block_ms: int) -> Deriver:
        inbox = PlayerInbox(redis, SHARDS)
        return Deriver(store, inbox, Webhooks(redis), group=group, name=name, block_ms=block_ms)

    woken = deriver("woken", LONG_CAP_MS)
    # The turn changes of a new table, published by the projector.
    stepping = asyncio.create_task(deriver_steps(woken))
    await asyncio.wait_for(asleep_on(redis, NOTIFY_WAKE_KEY), WITHIN_S)
    await TableHost(store, FREUNDE).create_table(create_request(table_id))
    projector = Projector(store, group=group, name="projector", block_ms=SHORT_CAP_MS)
    await asyncio.wait_for(projector_steps(projector), WITHIN_S)
    assert await asyncio.wait_for(stepping, WITHIN_S) > 0

    # A seat taken at an open table.
    seating = RosterStore(redis, SHARDS)
    waiting = f"{table_id}-open"
    ann = Seat(player="guest:ann", name="Ann")
    await seating.create(Roster(waiting, "freunde", (ann, Seat()), state=OPEN, created_ms=1))
    stepping = asyncio.create_task(deriver_steps(woken))
    await asyncio.wait_for(asleep_on(redis, NOTIFY_WAKE_KEY), WITHIN_S)
    await seating.change(waiting, lambda r: r.claim(None, "guest:bob", "Bob"))
    assert await asyncio.wait_for(stepping, WITHIN_S) == 1

    capped = deriver("capped", SHORT_CAP_MS)
    stepping = asyncio.create_task(deriver_steps(capped))
    await asyncio.wait_for(asleep_on(redis, NOTIFY_WAKE_KEY), WITHIN_S)
    await redis.xadd(store.keys(waiting).seating_feed, {"table": waiting, "rev": 9})
    assert await asyncio.wait_for(stepping, WITHIN_S) == 1


@pytest.mark.cluster
async def test_the_scheduler_is_woken_by_a_plan_due_before_every_other_and_fires_it(
    store: EventStore, table_id: str
) -> None:
    redis = store.redis
    assert isinstance(redis, ClusterClient)
    await TableHost(store, FREUNDE).create_table(create_request(table_id))
    head = await store.head(table_id)
    plans = DuePlans(redis, SHARDS)
    scheduler = Scheduler(plans, max_sleep_ms=LONG_CAP_MS)
    stop = asyncio.Event()
    running = asyncio.create_task(scheduler.run(stop))
    try:
        await asyncio.wait_for(asleep_on(redis, DUE_WAKE_KEY), WITHIN_S)
        fired = scheduler.fired
        timeout = Due(at_ms=0, seat=0, version=head.version, kind="time_out")
        assert await plans.replace("freunde", table_id, head.version, [timeout])

        async def fired_it() -> None:
            while scheduler.fired == fired:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(fired_it(), WITHIN_S)
        # The shard's inbox, which other tables of the shard share.
        inbox: Any = await redis.xrange(store.keys(table_id).cmd)
        envelopes = [common_pb2.CommandEnvelope.FromString(f[b"env"]) for _, f in inbox]
        assert [e.command_id for e in envelopes if e.table_id == table_id] == [timeout.command_id]
    finally:
        stop.set()
        await running


async def test_on_one_server_nothing_writes_the_wake_up_streams(table_id: str) -> None:
    for url in private_redis():
        async with opened_store(url, SHARDS) as store:
            host = TableHost(store, FREUNDE)
            await host.create_table(create_request(table_id))
            head = await store.head(table_id)
            plans = DuePlans(store.redis, SHARDS)
            timeout = Due(at_ms=0, seat=0, version=head.version, kind="time_out")
            await plans.replace("freunde", table_id, head.version, [timeout])
            assert (await plans.fire_all(int(time.time() * 1000))).fired
            seating = RosterStore(store.redis, SHARDS)
            ann = Seat(player="guest:ann", name="Ann")
            await seating.create(Roster(table_id, "freunde", (ann, Seat()), state=OPEN))
            await seating.change(table_id, lambda r: r.claim(None, "guest:bob", "Bob"))
            await asyncio.sleep(0)  # a wake-up would be on its way by now
            for wake in (FEEDS_WAKE_KEY, INBOXES_WAKE_KEY, NOTIFY_WAKE_KEY, DUE_WAKE_KEY):
                assert not await store.redis.exists(wake)
