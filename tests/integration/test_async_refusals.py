"""The async path against real engine processes: what it refuses goes to the dead letters
with its reason, and a poison command holds up nobody but its own table."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any, cast

import pytest

from proto import common_pb2, engine_pb2
from services.engine.consumer import consumer_group
from services.engine.host import TableHost
from services.eventstore import EventStore, shard_of
from tests.integration.test_engine_service_support import (
    FREUNDE,
    HARVEST,
    SHARDS,
    create_request,
    engine_process,
    envelope,
    eventually,
    opened_store,
    private_redis,
    scripted_game,
)

pytestmark = [pytest.mark.anyio, pytest.mark.integration]


@pytest.fixture
def redis_url() -> Iterator[str]:
    """A Redis of the test's own: leases and consumer groups are shard-wide."""
    yield from private_redis()


@pytest.fixture(scope="module")
def both_engines() -> Iterator[str]:
    """A Redis served by a Freunde and a Harvest engine process, with default settings."""
    for url in private_redis():
        with engine_process(url, "freunde"), engine_process(url, "harvest"):
            yield url


@pytest.fixture
async def shared(both_engines: str) -> AsyncIterator[EventStore]:
    """An event store on the Redis both engine processes serve."""
    async with opened_store(both_engines) as store:
        yield store


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[EventStore]:
    async with opened_store(redis_url) as store:
        yield store


async def send(store: EventStore, env: common_pb2.CommandEnvelope, game: str) -> bytes:
    """What a bot does: XADD the envelope to its table's shard inbox; returns the entry id."""
    entry = await store.redis.xadd(
        store.keys(env.table_id).cmd, {"env": env.SerializeToString(), "game": game}
    )
    return cast(bytes, entry)


async def dead_letters(store: EventStore, table_id: str) -> list[dict[bytes, bytes]]:
    """The dead letters of commands for ``table_id`` (its shard's stream holds others')."""
    entries = await store.redis.xrange(store.keys(table_id).dead) or []
    letters = [cast(dict[bytes, bytes], fields) for _, fields in entries]
    return [
        f for f in letters if common_pb2.CommandEnvelope.FromString(f[b"env"]).table_id == table_id
    ]


def stream_id(entry: bytes | str) -> tuple[int, int]:
    text = entry.decode() if isinstance(entry, bytes) else entry
    ms, seq = text.split("-")
    return int(ms), int(seq)


def tables_in_one_shard(count: int) -> list[str]:
    """Fresh table ids that share one shard, so their commands share one inbox."""
    by_shard: dict[int, list[str]] = {}
    while True:
        table_id = f"t-{uuid.uuid4().hex[:12]}"
        ids = by_shard.setdefault(shard_of(table_id, SHARDS), [])
        ids.append(table_id)
        if len(ids) == count:
            return ids


async def create_freunde(store: EventStore, table_id: str) -> TableHost:
    host = TableHost(store, FREUNDE)
    await host.create_table(create_request(table_id))
    return host


async def create_harvest(store: EventStore, table_id: str) -> None:
    await TableHost(store, HARVEST).create_table(
        engine_pb2.CreateTableRequest(table_id=table_id, seats=2, seed=bytes(32))
    )


async def test_a_command_naming_no_known_game_is_one_dead_letter(shared: EventStore) -> None:
    """Wrong case, an unknown name and no name at all: each is moved to the dead letters
    once, with its reason, though both games' groups see it; neither group keeps it."""
    store = shared
    table_id = f"t-{uuid.uuid4().hex[:12]}"
    await create_freunde(store, table_id)
    (seat, command), *_ = scripted_game(table_id)
    for n, game in enumerate(("Freunde", "chess", "")):
        await send(store, envelope(table_id, f"lost-{n}", seat, command), game)
    # Behind them in the same inbox: a command the Freunde engine takes.
    last = await send(store, envelope(table_id, "mine", seat, command), "freunde")

    async def both_groups_past_them() -> bool:
        groups = await store.redis.xinfo_groups(store.keys(table_id).cmd)
        return len(groups) == 2 and all(
            stream_id(g["last-delivered-id"]) >= stream_id(last) and int(g["pending"]) == 0
            for g in groups
        )

    await eventually(both_groups_past_them, "both games' engines read past the entries")
    letters = await dead_letters(store, table_id)
    assert [f[b"code"] for f in letters] == [b"game.not_found"] * 3
    sent = [common_pb2.CommandEnvelope.FromString(f[b"env"]).command_id for f in letters]
    assert sent == ["lost-0", "lost-1", "lost-2"]
    assert b"Did you mean 'freunde'?" in letters[0][b"reason"]
    assert b"'chess'" in letters[1][b"reason"]
    assert b"names no game" in letters[2][b"reason"]
    for n in range(3):
        assert await store.outcome(table_id, seat, f"lost-{n}") is None
    assert await store.outcome(table_id, seat, "mine") is not None


async def test_a_command_for_a_table_of_another_game_is_a_dead_letter_and_writes_nothing(
    shared: EventStore,
) -> None:
    """A Freunde command aimed at a Harvest table never reaches that table: not its log,
    not its command ids (the id stays free for the table's own game)."""
    store = shared
    harvest_table = f"t-{uuid.uuid4().hex[:12]}"
    await create_harvest(store, harvest_table)
    head = await store.head(harvest_table)
    state = await folded(store, harvest_table)
    seat = HARVEST.outcome(state).to_act[0]
    (_, command), *_ = scripted_game(harvest_table)
    await send(store, envelope(harvest_table, "c1", seat, command), "freunde")

    async def refused() -> bool:
        return bool(await dead_letters(store, harvest_table))

    await eventually(refused, "the Freunde engine refused the command")
    (letter,) = await dead_letters(store, harvest_table)
    assert letter[b"code"] == b"table.wrong_game"
    assert letter[b"reason"] == b"table.wrong_game: That table plays harvest, not freunde."
    assert letter[b"group"] == consumer_group("freunde").encode()
    assert await store.head(harvest_table) == head
    assert await store.outcome(harvest_table, seat, "c1") is None

    legal = HARVEST.legal_commands(state, seat)
    await send(store, envelope(harvest_table, "c1", seat, legal[0]), "harvest")

    async def applied() -> bool:
        return await store.outcome(harvest_table, seat, "c1") is not None

    await eventually(applied, "the Harvest engine took the same command id")
    assert (await store.head(harvest_table)).version > head.version


async def folded(store: EventStore, table_id: str) -> Any:
    return (await TableHost(store, HARVEST).load(table_id)).state


async def corrupt_meta(store: EventStore, table_id: str) -> bytes:
    """Make the table unloadable (its meta does not decode); returns the good bytes."""
    key = store.keys(table_id).meta
    good = cast(bytes, await store.redis.hget(key, "meta"))
    await store.redis.hset(key, "meta", b"\xff\xff\xff")
    return good


async def test_a_poison_command_holds_up_only_its_own_table(
    redis_url: str, store: EventStore
) -> None:
    """With a ten-minute retry delay, the commands of other tables behind a failing one are
    handled at once, while its own table's next command waits behind it, in order."""
    poisoned, first, second = tables_in_one_shard(3)
    for table_id in (poisoned, first, second):
        await create_freunde(store, table_id)
    await corrupt_meta(store, poisoned)
    games = {t: scripted_game(t) for t in (poisoned, first, second)}
    with engine_process(redis_url, "freunde", BW_RETRY_DELAY_MS="600000"):
        for table_id, n in ((poisoned, 0), (first, 0), (poisoned, 1), (second, 0), (first, 1)):
            seat, command = games[table_id][n]
            await send(store, envelope(table_id, f"c{n}", seat, command), "freunde")

        async def others_done() -> bool:
            done = [
                await store.outcome(first, games[first][1][0], "c1"),
                await store.outcome(second, games[second][0][0], "c0"),
            ]
            return all(outcome is not None for outcome in done)

        await eventually(others_done, "the other tables' commands were handled")
        pending: list[Any] = []

        async def only_poisoned_pending() -> bool:
            # An outcome is recorded a moment before its entry is acknowledged.
            pending[:] = await store.redis.xpending_range(
                store.keys(poisoned).cmd, consumer_group("freunde"), min="-", max="+", count=10
            )
            return len(pending) == 2

        await eventually(only_poisoned_pending, "the other tables' entries were acknowledged")
    assert len(pending) == 2
    assert [int(p["times_delivered"]) for p in pending] == [1, 1]
    assert await store.outcome(poisoned, games[poisoned][0][0], "c0") is None
    assert await store.outcome(poisoned, games[poisoned][1][0], "c1") is None
    assert not await dead_letters(store, poisoned)


async def test_a_poison_command_becomes_a_dead_letter_and_its_table_goes_on(
    redis_url: str, store: EventStore
) -> None:
    """After its deliveries the poison is moved aside with the error that stopped it; once
    the table can be loaded again its next command is applied."""
    poisoned, other = tables_in_one_shard(2)
    for table_id in (poisoned, other):
        await create_freunde(store, table_id)
    good_meta = await corrupt_meta(store, poisoned)
    game = scripted_game(poisoned)
    with engine_process(redis_url, "freunde", BW_RETRY_DELAY_MS="50", BW_MAX_DELIVERIES="3"):
        seat, command = game[0]
        await send(store, envelope(poisoned, "c0", seat, command), "freunde")
        seat, command = scripted_game(other)[0]
        await send(store, envelope(other, "c0", seat, command), "freunde")

        async def dead() -> bool:
            return bool(await dead_letters(store, poisoned))

        await eventually(dead, "the poison reached the dead letters")
        await store.redis.hset(store.keys(poisoned).meta, "meta", good_meta)
        seat, command = game[0]
        await send(store, envelope(poisoned, "c0-again", seat, command), "freunde")

        async def recovered() -> bool:
            return await store.outcome(poisoned, game[0][0], "c0-again") is not None

        await eventually(recovered, "the table's next command was applied")
    (letter,) = await dead_letters(store, poisoned)
    assert letter[b"code"] == b"command.failed"
    assert letter[b"reason"].startswith(b"DecodeError")
    assert common_pb2.CommandEnvelope.FromString(letter[b"env"]).command_id == "c0"
    assert await store.outcome(poisoned, game[0][0], "c0") is None
    assert await store.outcome(other, scripted_game(other)[0][0], "c0") is not None
    log = await store.read(poisoned)
    assert [e.command_id for e in log if e.command] == ["c0-again"]
