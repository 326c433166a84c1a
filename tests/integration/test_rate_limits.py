"""The gateway's admission script against a real Redis: budgets per address and per seat
token spent in one call, a refusal that spends nothing, Retry-After, the table's seating
read in the same call (sent again only when it changed), a view read with them, and a
Redis that cannot be asked."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest
from redis.asyncio import Redis

from gateway.ratelimits import RateLimits, ViewGuess, Window, parse_budget
from gateway.store import ReadModel
from services.eventstore import AnyRedis, EventStore, connect, rate_limit_key
from services.redis_server import free_port
from services.seating import Roster, RosterStore, Seat

pytestmark = [pytest.mark.anyio, pytest.mark.integration]


@pytest.fixture
async def redis(redis_url: str) -> AsyncIterator[AnyRedis]:
    client = await connect(redis_url)
    try:
        yield client
    finally:
        await client.aclose()


def _limits(redis: AnyRedis, address: str, seat: str, create: str = "") -> RateLimits:
    # A name of the test's own, so budgets of earlier runs on a shared server do not count.
    run = uuid.uuid4().hex[:8]
    return RateLimits(
        redis,
        RosterStore(redis, 16),
        parse_budget(f"address-{run}", address),
        parse_budget(f"seat-{run}", seat),
        parse_budget(f"create-{run}", create),
    )


def _address() -> str:
    return f"198.51.100.{uuid.uuid4().int % 250}-{uuid.uuid4().hex[:6]}"


async def test_an_over_budget_seat_is_refused_while_another_seat_spends_its_own(
    redis: AnyRedis,
) -> None:
    limits = _limits(redis, "100/minute", "3/minute")
    address = _address()
    for _ in range(3):
        assert (await limits.check(address, "table.mine", False)).refusal is None
    refused = (await limits.check(address, "table.mine", False)).refusal
    assert refused is not None
    assert refused.budget == limits.seat.name
    assert refused.limit == "3 per 1 minute"
    assert 1 <= refused.retry_after_s <= 120
    for _ in range(3):
        assert (await limits.check(address, "table.theirs", False)).refusal is None
    assert (await limits.check(address, "table.theirs", False)).refusal is not None


async def test_a_refused_request_spends_from_no_budget(redis: AnyRedis) -> None:
    """The address allows 5; a seat that is spent is refused twice, and the address still
    has the 5 - 2 it really let through."""
    limits = _limits(redis, "5/minute", "2/minute")
    address = _address()
    for _ in range(2):
        assert (await limits.check(address, "table.mine", False)).refusal is None
    for _ in range(2):
        refused = (await limits.check(address, "table.mine", False)).refusal
        assert refused is not None and refused.budget == limits.seat.name
    for _ in range(3):
        assert (await limits.check(address, None, False)).refusal is None
    refused = (await limits.check(address, None, False)).refusal
    assert refused is not None and refused.budget == limits.address.name


async def test_every_window_of_a_budget_holds_and_creation_has_its_own(
    redis: AnyRedis,
) -> None:
    limits = _limits(redis, "100/minute", "100/minute", "5/minute;2/hour")
    address = _address()
    assert (await limits.check(address, None, True)).refusal is None
    assert (await limits.check(address, None, True)).refusal is None
    refused = (await limits.check(address, None, True)).refusal
    assert refused is not None
    assert (refused.budget, refused.limit) == (limits.create.name, "2 per 1 hour")
    assert refused.retry_after_s > 60
    assert (await limits.check(address, None, False)).refusal is None


async def test_retry_after_is_when_the_request_gets_through(redis: AnyRedis) -> None:
    limits = _limits(redis, "2/second", "")
    address = _address()
    while (await limits.check(address, None, False)).refusal is None:
        pass
    refused = (await limits.check(address, None, False)).refusal
    assert refused is not None
    await asyncio.sleep(refused.retry_after_s)
    assert (await limits.check(address, None, False)).refusal is None


async def test_the_seating_comes_back_with_the_budgets_and_again_only_when_it_changed(
    redis: AnyRedis,
) -> None:
    limits = _limits(redis, "100/minute", "100/minute")
    table_id = f"test-{uuid.uuid4().hex}"
    admitted = await limits.check(_address(), None, False, table_id)
    assert admitted.refusal is None
    assert admitted.roster_read and admitted.roster is None

    rosters = RosterStore(redis, 16)
    stored = await rosters.create(Roster(table_id, "freunde", (Seat(), Seat())))
    first = await limits.check(_address(), None, False, table_id)
    assert first.roster == stored
    again = await limits.check(_address(), None, False, table_id)
    assert again.roster is first.roster  # the same revision: not sent, not parsed again

    changed, _ = await rosters.change(table_id, lambda r: (replace(r, host="player:ann"), None))
    latest = await limits.check(_address(), None, False, table_id)
    assert latest.roster == changed
    assert latest.roster is not None and latest.roster.host == "player:ann"


async def test_a_view_comes_back_with_the_budgets_even_from_a_server_that_lost_the_script(
    redis: AnyRedis,
) -> None:
    limits = _limits(redis, "4/minute", "")
    address = _address()
    table_id = f"test-{uuid.uuid4().hex}"
    keys = EventStore(redis, shards=16).keys(table_id)
    await redis.hset(keys.view("seat:1"), mapping={"version": 7, "json": '{"hand": [3]}'})
    await redis.hset(keys.view("status"), mapping={"version": 7, "json": '{"finished": false}'})
    guess = ViewGuess("seat:1", keys.view("seat:1"), keys.view("status"))
    read = (ReadModel(7, b'{"hand": [3]}'), ReadModel(7, b'{"finished": false}'))
    admitted = await limits.check(address, None, False, table_id, guess)
    assert admitted.refusal is None and admitted.views == read

    # Restarted without its scripts: the script is loaded again and the request counted once.
    await redis.script_flush()
    reloaded = await limits.check(address, None, False, table_id, guess)
    assert reloaded.refusal is None and reloaded.roster_read and reloaded.views == read
    # A missing read model comes back as None, a damaged one too.
    await redis.hset(keys.view("status"), mapping={"json": "not json"})
    damaged = await limits.check(address, None, False, table_id, guess)
    assert damaged.views == (read[0], None)
    assert (await limits.check(address, None, False, table_id, guess)).refusal is None
    refused = await limits.check(address, None, False, table_id, guess)
    assert refused.refusal is not None and refused.views is None


async def test_checks_made_together_share_a_pipeline_and_each_is_counted_in_turn(
    redis: AnyRedis, redis_url: str
) -> None:
    name = f"test-limits-{uuid.uuid4().hex[:8]}"
    batched = await connect(redis_url, client_name=name)
    try:
        limits = _limits(batched, "30/minute", "")
        address = _address()
        admitted = await asyncio.gather(*(limits.check(address, None, False) for _ in range(40)))
        clients = [c for c in await redis.client_list() if c.get("name") == name]
    finally:
        await batched.aclose()
    # In the order they were made: the first 30 spend the budget, the other 10 are refused.
    assert [a.refusal is not None for a in admitted] == [False] * 30 + [True] * 10
    # Sent one by one, 40 checks at once would each have taken a connection of their own.
    assert 1 <= len(clients) <= 2


async def test_a_refused_request_reads_no_seating(redis: AnyRedis) -> None:
    limits = _limits(redis, "1/minute", "")
    address = _address()
    table_id = f"test-{uuid.uuid4().hex}"
    assert (await limits.check(address, None, False, table_id)).roster_read
    refused = await limits.check(address, None, False, table_id)
    assert refused.refusal is not None and not refused.roster_read


async def test_a_redis_that_cannot_be_asked_lets_the_request_through() -> None:
    unreachable = Redis.from_url(f"redis://127.0.0.1:{free_port()}")
    try:
        limits = _limits(unreachable, "1/minute", "1/minute")
        for _ in range(3):
            admitted = await limits.check(_address(), "table.mine", False, "some-table")
            assert admitted.refusal is None and not admitted.roster_read
    finally:
        await unreachable.aclose()


async def test_on_a_cluster_each_budget_is_its_own_call(redis_cluster_url: str) -> None:
    cluster = await connect(redis_cluster_url)
    try:
        limits = _limits(cluster, "100/minute", "2/minute")
        address = _address()
        for _ in range(2):
            admitted = await limits.check(address, "table.mine", False, "some-table")
            assert admitted.refusal is None and not admitted.roster_read
        refused = (await limits.check(address, "table.mine", False)).refusal
        assert refused is not None and refused.budget == limits.seat.name
        assert (await limits.check(address, "table.theirs", False)).refusal is None
    finally:
        await cluster.aclose()


def test_budgets_are_read_as_the_settings_write_them() -> None:
    assert parse_budget("create", "20/minute;200/hour").windows == (
        Window(20, 1, "minute"),
        Window(200, 1, "hour"),
    )
    assert parse_budget("seat", "10 per 2 minutes").windows == (Window(10, 2, "minute"),)
    assert Window(10, 2, "minute").seconds == 120
    assert parse_budget("address", " ").windows == ()
    for wrong in ("many/minute", "5/fortnight", "0/minute", "5/0 minutes"):
        with pytest.raises(ValueError):
            parse_budget("address", wrong)


async def test_counting_requests_writes_nothing_to_the_append_only_file(redis: AnyRedis) -> None:
    """Counters are kept in memory only: no request waits for an fsync to be counted, and
    the log does not grow by every request. They still count."""
    persistence = await redis.info("persistence")
    if not persistence.get("aof_enabled"):
        pytest.skip("this server keeps no append-only file")
    limits = _limits(redis, "100/minute", "21/minute")
    address = _address()
    assert (await limits.check(address, "table.mine", False)).refusal is None  # script loaded
    before = (await redis.info("persistence"))["aof_current_size"]
    for _ in range(20):
        assert (await limits.check(address, "table.mine", False)).refusal is None
    assert (await redis.info("persistence"))["aof_current_size"] == before
    refused = (await limits.check(address, "table.mine", False)).refusal
    assert refused is not None and refused.budget == limits.seat.name


async def test_a_counter_expires_two_windows_after_its_window_began(redis: AnyRedis) -> None:
    """Set when a window's first request is counted, not again for each one after it:
    a counter lives through the next window, which still weighs its count, and no longer."""
    limits = _limits(redis, "100/hour", "")
    address = _address()
    key = rate_limit_key(limits.address.name, address, 100, 3600)
    assert (await limits.check(address, None, False)).refusal is None
    first_window, first_ttl = await redis.hget(key, "w"), await redis.pttl(key)
    assert 2 * 3600_000 - 5_000 < first_ttl <= 2 * 3600_000
    await asyncio.sleep(0.3)
    assert (await limits.check(address, None, False)).refusal is None
    window, ttl = await redis.hget(key, "w"), await redis.pttl(key)
    assert await redis.hget(key, "c") == (b"2" if window == first_window else b"1")
    if window == first_window:
        assert ttl <= first_ttl - 250, "a request within the window left the expiry alone"
    else:  # an hour's boundary fell between the two requests: a new window, a new expiry
        assert ttl > first_ttl - 250
