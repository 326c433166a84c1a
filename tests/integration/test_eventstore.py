"""The event store against a real Redis: create, append, idempotency, conflicts, tampering."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from dataclasses import replace
from typing import cast

import pytest
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from engines.core.hashchain import GENESIS, sealed_hash, verify_chain
from proto import common_pb2
from services.eventstore import (
    CommandApplied,
    CommandIdReused,
    CommandRejected,
    EventStore,
    Head,
    TableExists,
    TableNotFound,
    VersionConflict,
    connect,
)
from tests.integration.store_support import command_key

pytestmark = [pytest.mark.integration, pytest.mark.anyio]


def event(payload: bytes, seat: int = 0) -> common_pb2.StoredEvent:
    return common_pb2.StoredEvent(seat=seat, time_ms=1_700_000_000_000, payload=payload)


def table_meta(table_id: str, game: str = "freunde") -> common_pb2.TableMeta:
    return common_pb2.TableMeta(
        table_id=table_id, game=game, seats=2, seed_commitment=b"c" * 32, created_ms=1
    )


async def create(store: EventStore, table_id: str, setup: int = 1) -> Head:
    created = await store.create_table(
        table_meta(table_id), b"secret-seed", [event(b"setup-%d" % i, -1) for i in range(setup)]
    )
    return created.head


async def stream_lengths(store: EventStore, table_id: str) -> tuple[int, int]:
    """Entries in the table's stream, and in the shard feed for this table.

    The feed is shared with every other table of the shard, so only this table's
    entries are counted.
    """
    events = int(await store.redis.xlen(store.keys(table_id).events))
    return events, len(await feed_entries_of(store, table_id))


async def entries(store: EventStore, key: str) -> list[tuple[bytes, dict[bytes, bytes]]]:
    """A stream's entries as the bytes client returns them."""
    raw = await store.redis.xrange(key) or []
    return [(cast(bytes, entry_id), cast(dict[bytes, bytes], fields)) for entry_id, fields in raw]


async def feed_entries_of(store: EventStore, table_id: str) -> list[dict[bytes, bytes]]:
    feed = await entries(store, store.keys(table_id).feed)
    return [fields for _, fields in feed if fields[b"table"] == table_id.encode()]


async def test_created_table_has_meta_seed_and_sealed_setup_events(
    store: EventStore, table_id: str
) -> None:
    """Creation stores the meta, keeps the seed, and seals set-up events from GENESIS."""
    created = await store.create_table(
        table_meta(table_id), b"secret-seed", [event(b"a", -1), event(b"b", -1)]
    )

    assert (created.first_version, created.last_version, created.duplicate) == (1, 2, False)
    assert created.events[0].prev_hash == GENESIS
    assert await store.head(table_id) == Head(2, created.events[-1].hash)
    assert await store.meta(table_id) == table_meta(table_id)
    assert await store.seed(table_id) == b"secret-seed"
    stored = await store.read(table_id)
    assert stored == list(created.events)
    assert verify_chain(stored).ok
    assert table_id in await store.table_ids(store.keys(table_id).shard)


async def test_creating_a_table_twice_is_refused_and_writes_nothing(
    store: EventStore, table_id: str
) -> None:
    """A second create of the same id raises TableExists; the first table is untouched."""
    head = await create(store, table_id)

    with pytest.raises(TableExists):
        await store.create_table(table_meta(table_id, "harvest"), b"other", [event(b"x")])

    assert await store.head(table_id) == head
    assert (await store.meta(table_id)).game == "freunde"
    assert await stream_lengths(store, table_id) == (1, 1)


async def test_append_extends_the_chain_and_the_shard_feed(
    store: EventStore, table_id: str
) -> None:
    """Appended events get the next versions, link to the head, and reach the feed."""
    head = await create(store, table_id)

    appended = await store.append(table_id, command_key("cmd-1"), head, [event(b"x"), event(b"y")])

    assert (appended.first_version, appended.last_version) == (2, 3)
    assert [e.command_id for e in appended.events] == ["cmd-1", "cmd-1"]
    assert appended.events[0].prev_hash == head.hash
    assert await store.head(table_id) == appended.head
    assert verify_chain(await store.read(table_id)).ok
    feed = await feed_entries_of(store, table_id)
    assert [(f[b"game"], f[b"v"]) for f in feed] == [
        (b"freunde", b"1"),
        (b"freunde", b"2"),
        (b"freunde", b"3"),
    ]
    assert [f[b"e"] for f in feed[1:]] == [
        e.SerializeToString(deterministic=True) for e in appended.events
    ]


async def test_stream_ids_address_versions(store: EventStore, table_id: str) -> None:
    """Entry ``<version>-1`` holds event ``version``, so reads can start at any version."""
    head = await create(store, table_id)
    for n in range(4):
        head = (await store.append(table_id, command_key(f"c{n}"), head, [event(b"%d" % n)])).head

    stream = await entries(store, store.keys(table_id).events)

    assert [entry_id for entry_id, _ in stream] == [b"1-1", b"2-1", b"3-1", b"4-1", b"5-1"]
    assert [e.version for e in await store.read(table_id, after=2)] == [3, 4, 5]
    assert [e.version for e in await store.read(table_id, after=1, count=2)] == [2, 3]
    assert await store.read(table_id, after=5) == []


async def test_retried_command_id_returns_the_first_outcome_and_writes_nothing(
    store: EventStore, table_id: str
) -> None:
    """A repeated command id gets its stored events back; streams and head stay as they were."""
    head = await create(store, table_id)
    first = await store.append(table_id, command_key("cmd-1"), head, [event(b"x"), event(b"y")])
    lengths = await stream_lengths(store, table_id)

    # The retry carries different events and a stale head: neither may matter.
    again = await store.append(table_id, command_key("cmd-1"), head, [event(b"something else")])

    assert again.duplicate
    assert (again.first_version, again.last_version) == (first.first_version, first.last_version)
    assert again.events == first.events
    assert await stream_lengths(store, table_id) == lengths
    assert await store.head(table_id) == first.head
    assert await store.outcome(table_id, 0, "cmd-1") == again


async def test_command_ids_belong_to_the_seat_that_sent_them(
    store: EventStore, table_id: str
) -> None:
    """The same id from two seats is two commands: neither gets the other's outcome."""
    head = await create(store, table_id)
    mine = await store.append(table_id, command_key("c1", seat=0), head, [event(b"x")])
    theirs = await store.append(table_id, command_key("c1", seat=1), mine.head, [event(b"y", 1)])

    assert not theirs.duplicate and theirs.first_version == mine.last_version + 1
    assert await store.outcome(table_id, 0, "c1") == replace(mine, duplicate=True)
    assert await store.outcome(table_id, 1, "c1") == replace(theirs, duplicate=True)


async def test_an_id_sent_again_for_another_command_is_refused(
    store: EventStore, table_id: str
) -> None:
    """An id remembers what it was used for: another command under it changes nothing."""
    head = await create(store, table_id)
    applied = await store.append(table_id, command_key("c1", command=b"a"), head, [event(b"x")])
    rejected = common_pb2.Rejection(code="turn.not_yours", message="no")
    await store.record_rejection(table_id, command_key("c2", command=b"a"), rejected)

    with pytest.raises(CommandIdReused):
        await store.append(table_id, command_key("c1", command=b"b"), applied.head, [event(b"y")])
    with pytest.raises(CommandIdReused):
        await store.record_rejection(table_id, command_key("c1", command=b"b"), rejected)
    with pytest.raises(CommandIdReused):
        await store.append(table_id, command_key("c2", command=b"b"), applied.head, [event(b"y")])
    with pytest.raises(CommandIdReused):
        await store.lookup(table_id, command_key("c2", command=b"b"))
    assert await store.head(table_id) == applied.head
    assert (await store.lookup(table_id, command_key("c2", command=b"a"))).prior == rejected


async def test_stale_expected_version_is_rejected_with_the_actual_head(
    store: EventStore, table_id: str
) -> None:
    """A writer that read an old head gets VersionConflict and nothing is written."""
    stale = await create(store, table_id)
    current = (await store.append(table_id, command_key("cmd-1"), stale, [event(b"x")])).head
    lengths = await stream_lengths(store, table_id)

    with pytest.raises(VersionConflict) as conflict:
        await store.append(table_id, command_key("cmd-2"), stale, [event(b"late")])

    assert conflict.value.head == current
    assert await stream_lengths(store, table_id) == lengths
    assert await store.outcome(table_id, 0, "cmd-2") is None


async def test_right_version_with_a_wrong_hash_is_a_conflict(
    store: EventStore, table_id: str
) -> None:
    """The head hash is checked too, so a writer can never fork the chain."""
    head = await create(store, table_id)

    with pytest.raises(VersionConflict) as conflict:
        await store.append(
            table_id, command_key("cmd-1"), Head(head.version, b"\x01" * 32), [event(b"x")]
        )

    assert conflict.value.head == head


async def test_first_rejection_under_a_command_id_stands(store: EventStore, table_id: str) -> None:
    """Rejections are recorded once; a later append under that id gets the rejection."""
    head = await create(store, table_id)
    first = common_pb2.Rejection(code="plot.not_adjacent", message="first")

    stored = await store.record_rejection(table_id, command_key("cmd-1"), first)
    second = await store.record_rejection(
        table_id, command_key("cmd-1"), common_pb2.Rejection(code="other", message="second")
    )
    with pytest.raises(CommandRejected) as rejected:
        await store.append(table_id, command_key("cmd-1"), head, [event(b"x")])

    assert stored == first
    assert second == first
    assert rejected.value.rejection == first
    assert await store.outcome(table_id, 0, "cmd-1") == first
    assert await store.head(table_id) == head


async def test_rejecting_an_applied_command_returns_its_events(
    store: EventStore, table_id: str
) -> None:
    """Once applied, a command id cannot be turned into a rejection."""
    head = await create(store, table_id)
    applied = await store.append(table_id, command_key("cmd-1"), head, [event(b"x")])

    with pytest.raises(CommandApplied) as raised:
        await store.record_rejection(
            table_id, command_key("cmd-1"), common_pb2.Rejection(code="late")
        )

    assert raised.value.appended.events == applied.events
    assert await store.outcome(table_id, 0, "cmd-1") == raised.value.appended


async def test_unknown_table(store: EventStore, table_id: str) -> None:
    """Every operation on a missing table says so instead of inventing one."""
    with pytest.raises(TableNotFound):
        await store.head(table_id)
    with pytest.raises(TableNotFound):
        await store.meta(table_id)
    with pytest.raises(TableNotFound):
        await store.seed(table_id)
    with pytest.raises(TableNotFound):
        await store.read(table_id)
    with pytest.raises(TableNotFound):
        await store.append(table_id, command_key("cmd-1"), Head.empty(), [event(b"x")])
    with pytest.raises(TableNotFound):
        await store.record_rejection(table_id, command_key("cmd-1"), common_pb2.Rejection(code="x"))
    assert await store.outcome(table_id, 0, "cmd-1") is None
    assert not await store.redis.exists(store.keys(table_id).events)


async def test_editing_a_stored_event_is_detected_by_the_chain_check(
    store: EventStore, table_id: str
) -> None:
    """Rewriting what an event shows every reader breaks the hash chain at that version."""
    head = await create(store, table_id)
    for n in range(4):
        head = (
            await store.append(table_id, command_key(f"c{n}"), head, [event(b"move-%d" % n)])
        ).head
    assert verify_chain(await store.read(table_id)).ok

    await rewrite_event(store, table_id, 3, lambda e: setattr(e, "public_payload", b"forged"))

    check = verify_chain(await store.read(table_id))
    assert not check.ok
    assert check.first_bad_version == 3


async def test_a_forged_event_with_a_recomputed_hash_breaks_the_next_link(
    store: EventStore, table_id: str
) -> None:
    """Re-hashing the forged event does not help: the next event no longer links to it."""
    head = await create(store, table_id)
    for n in range(4):
        head = (
            await store.append(table_id, command_key(f"c{n}"), head, [event(b"move-%d" % n)])
        ).head

    def forge(stored: common_pb2.StoredEvent) -> None:
        stored.public_payload = b"forged"
        stored.hash = sealed_hash(stored)

    await rewrite_event(store, table_id, 3, forge)

    check = verify_chain(await store.read(table_id))
    assert not check.ok
    assert check.first_bad_version == 4


async def rewrite_event(
    store: EventStore,
    table_id: str,
    version: int,
    edit: Callable[[common_pb2.StoredEvent], None],
) -> None:
    """Replace the stream with a copy in which event ``version`` was changed by ``edit``."""
    key = store.keys(table_id).events
    original = await entries(store, key)
    await store.redis.delete(key)
    for entry_id, fields in original:
        stored = common_pb2.StoredEvent.FromString(fields[b"e"])
        if stored.version == version:
            edit(stored)
        await store.redis.xadd(key, {b"e": stored.SerializeToString()}, id=entry_id)


async def test_snapshot_round_trip(store: EventStore, table_id: str) -> None:
    """A saved snapshot loads back with its version."""
    await create(store, table_id)

    await store.save_snapshot(table_id, 7, b"state-at-7")

    assert await store.load_snapshot(table_id) == (7, b"state-at-7")


async def test_missing_snapshot_is_none(store: EventStore, table_id: str) -> None:
    """No snapshot: callers fold from the events."""
    await create(store, table_id)

    assert await store.load_snapshot(table_id) is None


@pytest.mark.parametrize(
    ("field", "value"),
    [("blob", b"state-at-8"), ("v", b"8"), ("sum", b"\x00" * 32), ("v", b"not-a-number")],
)
async def test_damaged_snapshot_is_none(
    store: EventStore, table_id: str, field: str, value: bytes
) -> None:
    """A snapshot whose blob, version or checksum was changed is ignored, not trusted."""
    await create(store, table_id)
    await store.save_snapshot(table_id, 7, b"state-at-7")

    await store.redis.hset(store.keys(table_id).snap, field, value)

    assert await store.load_snapshot(table_id) is None


async def test_partial_snapshot_is_none(store: EventStore, table_id: str) -> None:
    """A snapshot missing a field is ignored."""
    await create(store, table_id)
    await store.save_snapshot(table_id, 7, b"state-at-7")

    await store.redis.hdel(store.keys(table_id).snap, "sum")

    assert await store.load_snapshot(table_id) is None


async def test_waitaof_is_used_exactly_when_the_server_supports_it(store: EventStore) -> None:
    """Detection agrees with the server's version and AOF setting."""
    server = await store.redis.info("server")
    persistence = await store.redis.info("persistence")
    version = tuple(int(p) for p in str(server["redis_version"]).split(".")[:2])
    expected = version >= (7, 2) and str(persistence["aof_enabled"]) == "1"

    assert await store.waits_for_aof() is expected


async def test_appends_wait_for_the_aof_where_supported(redis_url: str, table_id: str) -> None:
    """With WAITAOF forced on, appends still succeed (only on servers that have it)."""
    client = await connect(redis_url)
    try:
        if not await EventStore(client).waits_for_aof():
            pytest.skip("this server has no WAITAOF (Redis < 7.2) or runs without AOF")
        store = EventStore(client, waitaof=True)
        head = await create(store, table_id)
        appended = await store.append(table_id, command_key("cmd-1"), head, [event(b"x")])
        assert await store.head(table_id) == appended.head
        assert (await store.append(table_id, command_key("cmd-1"), head, [event(b"x")])).duplicate
    finally:
        await client.aclose()


async def test_connect_picks_the_client_the_server_needs(store: EventStore) -> None:
    """A server without cluster mode gets the single-server client, a cluster node the other."""
    info = await store.redis.info("cluster")

    expected = RedisCluster if str(info["cluster_enabled"]) == "1" else Redis
    assert type(store.redis) is expected


async def test_more_concurrent_writers_than_connections_wait_their_turn(redis_url: str) -> None:
    """Writers beyond the pool size wait for a connection instead of failing."""
    client = await connect(redis_url, max_connections=4)
    store = EventStore(client, shards=16)
    table_ids = [f"pool-{uuid.uuid4().hex}" for _ in range(64)]
    try:
        heads = await asyncio.gather(*(create(store, t) for t in table_ids))
        appended = await asyncio.gather(
            *(
                store.append(t, command_key("cmd-1"), h, [event(b"x")])
                for t, h in zip(table_ids, heads, strict=True)
            )
        )
    finally:
        await client.aclose()

    assert [a.last_version for a in appended] == [2] * len(table_ids)
