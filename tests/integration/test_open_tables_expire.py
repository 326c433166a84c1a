"""Tables that wait for players are not kept for ever (real Redis, the real projector).

While a table's seating is ``open`` its record expires ``open_ttl_s`` after its last
change, and each change starts the period again; from the start of the game on it is
kept. The lobby entry written with it leaves at the same time, and the projector's sweep
then takes the table's id out of its shard's table set (a rebuild would otherwise look
for it for ever).
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator

import pytest

from engines.core.canonical import canonical_json
from services.eventstore import EventStore, connect
from services.projector.lobby import Lobby, entries_key
from services.projector.projector import Projector
from services.seating import OPEN, Roster, RosterStore, Seat
from tests.integration.test_engine_service_support import SHARDS, private_redis_url

pytestmark = [pytest.mark.anyio, pytest.mark.integration]

__all__ = ["private_redis_url"]

TTL_S = 60


@pytest.fixture
async def store(private_redis_url: str) -> AsyncIterator[EventStore]:
    redis = await connect(private_redis_url)
    try:
        yield EventStore(redis, shards=SHARDS)
    finally:
        await redis.aclose()


def _open_table(name: str) -> Roster:
    table_id = f"{name}-{os.urandom(6).hex()}"
    ann = Seat(player="guest:ann", name="Ann")
    return Roster(table_id, "freunde", (ann, Seat()), state=OPEN, created_ms=1)


async def test_an_open_record_expires_from_its_last_change_and_a_started_one_is_kept(
    store: EventStore,
) -> None:
    rosters = RosterStore(store.redis, SHARDS, open_ttl_s=TTL_S)
    roster = await rosters.create(_open_table("waiting"))
    seating = rosters.keys(roster.table_id).seating
    assert 0 < await store.redis.pttl(seating) <= TTL_S * 1000

    # A change while it waits starts the period again.
    await store.redis.pexpire(seating, 5_000)
    renamed, _ = await rosters.change(roster.table_id, lambda r: (r.rename(0, "Annie"), None))
    assert renamed.state == OPEN
    assert await store.redis.pttl(seating) > 5_000

    # Once the seats are final the record is kept for good.
    await rosters.change(roster.table_id, lambda r: r.claim(None, "guest:bob", "Bob"))
    starting, _ = await rosters.change(roster.table_id, lambda r: (r.starting(), None))
    assert starting.state != OPEN
    assert await store.redis.pttl(seating) == -1


async def test_the_sweep_delists_and_forgets_an_open_table_once_its_record_expired(
    store: EventStore,
) -> None:
    rosters = RosterStore(store.redis, SHARDS, open_ttl_s=1)
    lobby = Lobby(store.redis)
    gone = await rosters.create(_open_table("gone"))
    kept = await rosters.create(_open_table("kept"))
    for roster, expiry in ((gone, time.time_ns() // 1_000_000 + 1_000), (kept, None)):
        await lobby.record("freunde", canonical_json(roster.lobby_status()), expire_at_ms=expiry)
    # The second table's record is made to last (as a join before the period ends would).
    await store.redis.persist(rosters.keys(kept.table_id).seating)
    tables = rosters.keys(gone.table_id).tables

    projector = Projector(store, name="sweeper")
    deadline = time.monotonic() + 30
    while await store.redis.hexists(entries_key("freunde"), gone.table_id):
        assert time.monotonic() < deadline, "the expired open table was never delisted"
        await asyncio.sleep(0.2)
        await projector.sweep()

    assert await rosters.get(gone.table_id) is None
    assert not await store.redis.sismember(tables, gone.table_id)
    assert await rosters.get(kept.table_id) is not None
    assert await store.redis.hexists(entries_key("freunde"), kept.table_id)
    assert await store.redis.sismember(rosters.keys(kept.table_id).tables, kept.table_id)
    # A rebuild finds the table that still waits, and lists it again; the other is gone.
    await projector.rebuild()
    assert await store.redis.hexists(entries_key("freunde"), kept.table_id)
    assert not await store.redis.hexists(entries_key("freunde"), gone.table_id)
