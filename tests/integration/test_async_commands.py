"""The async command path: shard command streams, leases, reclaiming, dead letters."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import AsyncIterator
from typing import Any, TypeVar, cast

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from proto import common_pb2
from services.engine.consumer import CommandConsumer, ConsumerSettings, consumer_group
from services.engine.host import TableHost
from services.eventstore import EventStore, ShardKeys, connect
from services.redis_server import free_port
from tests.integration.test_engine_service_support import (
    FREUNDE,
    SHARDS,
    create_request,
    envelope,
    open_host,
    private_redis_url,
    scripted_game,
)

pytestmark = [pytest.mark.anyio, pytest.mark.integration]

__all__ = ["private_redis_url"]

GROUP = consumer_group("freunde")
FAST = ConsumerSettings(lease_ms=1000, max_deliveries=3, retry_delay_ms=0, block_ms=50, poll_ms=10)

# A consumer that dies (as if killed) right before acknowledging its ``crash_after``-th
# command: that command is applied, the rest of its batch is read but not handled.
CRASHING_CONSUMER = textwrap.dedent(
    """
    import asyncio, os, sys
    import engines
    from services.engine.consumer import CommandConsumer, ConsumerSettings
    from services.engine.host import TableHost
    from services.eventstore import EventStore, connect

    async def main(url, shards, crash_after):
        redis = await connect(url)
        host = TableHost(EventStore(redis, shards=shards), engines.get("freunde"))
        consumer = CommandConsumer(
            redis, host, shards, ConsumerSettings(lease_ms=1000, batch=10_000, block_ms=50)
        )
        real_ack = consumer._ack
        acked = 0

        async def ack_or_die(shard, entry_id):
            nonlocal acked
            if acked == crash_after:
                os._exit(9)
            acked += 1
            await real_ack(shard, entry_id)

        consumer._ack = ack_or_die
        await consumer.run(asyncio.Event())

    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
    """
)


@pytest.fixture
async def host(private_redis_url: str) -> AsyncIterator[TableHost]:
    replica = await open_host(private_redis_url)
    try:
        yield replica
    finally:
        await replica.store.redis.aclose()


async def send(store: EventStore, env: common_pb2.CommandEnvelope, game: str = "freunde") -> None:
    """What a bot does: XADD the envelope to its table's shard command stream."""
    stream = store.keys(env.table_id).cmd
    await store.redis.xadd(stream, {"env": env.SerializeToString(), "game": game})


async def run_until(consumer: CommandConsumer, done: Any, rounds: int = 500) -> None:
    """Step the consumer until ``done()`` holds (a bounded number of rounds)."""
    await consumer.ensure_groups()
    try:
        for _ in range(rounds):
            if await done():
                return
            await consumer.step()
    finally:
        await consumer.release_all()
    raise AssertionError("the consumer did not get there")


async def pending(store: EventStore, table_id: str) -> int:
    summary = await store.redis.xpending(store.keys(table_id).cmd, GROUP)
    return int(summary["pending"])


def command_ids_in_log(log: list[common_pb2.StoredEvent]) -> list[str]:
    return [e.command_id for e in log if e.command]


async def dead_letters(store: EventStore, table_id: str) -> list[dict[bytes, bytes]]:
    """The fields of the shard's dead letters, as the bytes client returns them."""
    entries = await store.redis.xrange(store.keys(table_id).dead) or []
    return [cast(dict[bytes, bytes], fields) for _, fields in entries]


Host = TypeVar("Host", bound=TableHost)


@contextlib.asynccontextmanager
async def table_on(
    url: str, host_type: type[Host], table_id: str
) -> AsyncIterator[tuple[EventStore, Host]]:
    """A host of ``host_type`` on a connection of its own, with ``table_id`` created."""
    redis = await connect(url)
    try:
        store = EventStore(redis, shards=SHARDS)
        host = host_type(store, FREUNDE)
        await host.create_table(create_request(table_id))
        yield store, host
    finally:
        await redis.aclose()


async def letters_of(store: EventStore, table_id: str) -> list[dict[bytes, bytes]]:
    """The dead letters of ``table_id``'s commands (its shard's stream holds others' too,
    from the other tests on the same server)."""
    return [
        fields
        for fields in await dead_letters(store, table_id)
        if common_pb2.CommandEnvelope.FromString(fields[b"env"]).table_id == table_id
    ]


async def test_commands_apply_once_in_order_when_a_consumer_dies_before_acking(
    private_redis_url: str, host: TableHost, table_id: str
) -> None:
    """A killed consumer's read-but-unacknowledged commands are reclaimed by the next one."""
    store = host.store
    await host.create_table(create_request(table_id))
    game = scripted_game(table_id)
    ids = [f"bot-{n}" for n in range(len(game))]
    for command_id, (seat, command) in zip(ids, game, strict=True):
        await send(store, envelope(table_id, command_id, seat, command))
    crash_after = len(game) // 3
    crashed = subprocess.run(
        [sys.executable, "-c", CRASHING_CONSUMER, private_redis_url, str(SHARDS), str(crash_after)],
        capture_output=True,
        timeout=120,
    )
    assert crashed.returncode == 9, crashed.stderr.decode()
    log = await store.read(table_id)
    # The (crash_after + 1)-th command was applied but never acknowledged.
    assert command_ids_in_log(log) == ids[: crash_after + 1]
    assert await pending(store, table_id) == len(game) - crash_after

    port = free_port()
    env = dict(os.environ, REDIS_URL=private_redis_url, BW_SHARDS=str(SHARDS), BW_LEASE_MS="1000")
    service = subprocess.Popen(
        [sys.executable, "-m", "services.engine", "--game", "freunde", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 120
        while not FREUNDE.outcome((await host.load(table_id)).state).finished:
            assert service.poll() is None, service.stderr.read().decode() if service.stderr else ""
            assert time.monotonic() < deadline, "the second consumer did not finish the game"
            await asyncio.sleep(0.05)
        while await pending(store, table_id):
            assert time.monotonic() < deadline, "entries stay pending"
            await asyncio.sleep(0.05)
    finally:
        service.send_signal(signal.SIGTERM)
        stderr = service.communicate(timeout=30)[1].decode()
    assert service.returncode == 0, stderr
    log = await store.read(table_id)
    assert command_ids_in_log(log) == ids
    assert log[-1].WhichOneof("body") == "seed_revealed"
    assert [e.version for e in log] == list(range(1, len(log) + 1))
    assert await store.redis.xlen(store.keys(table_id).dead) == 0
    for command_id, (seat, _) in zip(ids, game, strict=True):
        outcome = await store.outcome(table_id, seat, command_id)
        assert outcome is not None and not isinstance(outcome, common_pb2.Rejection)


class Failing(TableHost):
    """A host that cannot handle one command id: the stand-in for a poison command."""

    poison = "poison"
    attempts = 0

    async def execute(self, envelope: common_pb2.CommandEnvelope) -> Any:
        if envelope.command_id == self.poison:
            self.attempts += 1
            raise RuntimeError("this command breaks the host")
        return await super().execute(envelope)


async def test_a_command_that_keeps_failing_goes_to_the_dead_letters(
    private_redis_url: str, table_id: str
) -> None:
    """After max_deliveries attempts the poison is moved aside with its reason; the rest go on."""
    async with table_on(private_redis_url, Failing, table_id) as (store, host):
        (seat0, first), (seat1, second) = scripted_game(table_id)[:2]
        await send(store, envelope(table_id, "good-1", seat0, first))
        await send(store, envelope(table_id, "poison", seat1, second))
        await send(store, envelope(table_id, "good-2", seat1, second))
        consumer = CommandConsumer(store.redis, host, SHARDS, FAST)

        async def settled() -> bool:
            return await store.outcome(table_id, seat1, "good-2") is not None

        await run_until(consumer, settled)
        dead = await letters_of(store, table_id)
        assert len(dead) == 1
        letter = dead[0]
        assert common_pb2.CommandEnvelope.FromString(letter[b"env"]).command_id == "poison"
        assert b"this command breaks the host" in letter[b"reason"]
        assert await pending(store, table_id) == 0
        assert command_ids_in_log(await store.read(table_id)) == ["good-1", "good-2"]
        assert await store.outcome(table_id, seat1, "poison") is None
        assert host.attempts == FAST.max_deliveries


class StoreGoneFor(TableHost):
    """A host whose store fails its first ``outage`` attempts, as redis-py does when the
    server is restarting or failing over (the table's command, not the host, is fine)."""

    outage = FAST.max_deliveries + 3
    attempts = 0

    async def execute(self, envelope: common_pb2.CommandEnvelope) -> Any:
        self.attempts += 1
        if self.attempts <= self.outage:
            raise RedisConnectionError("Connection closed by server.")
        return await super().execute(envelope)


async def test_a_store_outage_longer_than_the_deliveries_loses_no_command(
    private_redis_url: str, table_id: str
) -> None:
    """Redis failing under a command spends none of its deliveries: once the store is back
    the command is applied, however long the outage lasted, and nothing is dead-lettered."""
    async with table_on(private_redis_url, StoreGoneFor, table_id) as (store, host):
        (seat, first), (other, second) = scripted_game(table_id)[:2]
        await send(store, envelope(table_id, "during-outage", seat, first))
        await send(store, envelope(table_id, "behind-it", other, second))
        consumer = CommandConsumer(store.redis, host, SHARDS, FAST)

        async def applied() -> bool:
            return await store.outcome(table_id, other, "behind-it") is not None

        await run_until(consumer, applied)
        assert host.attempts > host.outage > FAST.max_deliveries
        assert command_ids_in_log(await store.read(table_id)) == ["during-outage", "behind-it"]
        assert await letters_of(store, table_id) == []
        assert await pending(store, table_id) == 0


async def test_a_table_is_tried_again_after_redis_failed_its_dead_letter(
    private_redis_url: str, table_id: str
) -> None:
    """Redis going away just as a poison command is moved aside stops that round; the next
    round moves it aside and goes on with the table (before, the table waited for ever)."""
    async with table_on(private_redis_url, Failing, table_id) as (store, host):
        (seat0, first), (seat1, second) = scripted_game(table_id)[:2]
        await send(store, envelope(table_id, "good-1", seat0, first))
        await send(store, envelope(table_id, "poison", seat1, second))
        await send(store, envelope(table_id, "good-2", seat1, second))
        consumer = CommandConsumer(store.redis, host, SHARDS, FAST)
        move_to_dead = consumer._move_to_dead
        failed_once: list[bool] = []

        async def gone_once(**call: Any) -> Any:
            if not failed_once:
                failed_once.append(True)
                raise RedisConnectionError("Connection closed by server.")
            return await move_to_dead(**call)

        consumer._move_to_dead = gone_once
        await consumer.ensure_groups()
        try:
            for _ in range(500):
                if await store.outcome(table_id, seat1, "good-2") is not None:
                    break
                # What the service's loop does on Redis trouble: log, wait, step again.
                with contextlib.suppress(RedisConnectionError):
                    await consumer.step()
            else:
                raise AssertionError("the table's next command was never applied")
        finally:
            await consumer.release_all()
        assert failed_once == [True]
        assert command_ids_in_log(await store.read(table_id)) == ["good-1", "good-2"]
        (letter,) = await letters_of(store, table_id)
        assert common_pb2.CommandEnvelope.FromString(letter[b"env"]).command_id == "poison"


async def test_what_cannot_be_handled_is_a_dead_letter_at_once(
    private_redis_url: str, host: TableHost, table_id: str
) -> None:
    """An unreadable envelope or an unknown table is moved aside on its first delivery."""
    store = host.store
    await host.create_table(create_request(table_id))
    stream = store.keys(table_id).cmd
    # Other tests' letters may share the shard's stream: count from what is there.
    before = int(await store.redis.xlen(store.keys(table_id).dead))
    await store.redis.xadd(stream, {"env": b"\xff\xff", "game": "freunde"})
    missing = envelope("no-such-table", "lost", 0, scripted_game(table_id)[0][1])
    await store.redis.xadd(stream, {"env": missing.SerializeToString(), "game": "freunde"})
    consumer = CommandConsumer(store.redis, host, SHARDS, FAST)

    async def both_dead() -> bool:
        return int(await store.redis.xlen(store.keys(table_id).dead)) >= before + 2

    await run_until(consumer, both_dead)
    letters = await dead_letters(store, table_id)
    assert [f[b"code"] for f in letters[-2:]] == [b"envelope.malformed", b"table.not_found"]
    assert common_pb2.CommandEnvelope.FromString(letters[-1][b"env"]).table_id == "no-such-table"
    assert await pending(store, table_id) == 0


async def test_other_games_commands_are_left_to_their_engines(
    private_redis_url: str, host: TableHost, table_id: str
) -> None:
    """An entry for another game is acknowledged by this group and neither run nor dead."""
    store = host.store
    await host.create_table(create_request(table_id))
    seat, command = scripted_game(table_id)[0]
    await send(store, envelope(table_id, "not-mine", seat, command), game="harvest")
    await send(store, envelope(table_id, "mine", seat, command))
    consumer = CommandConsumer(store.redis, host, SHARDS, FAST)

    async def mine_done() -> bool:
        return await store.outcome(table_id, seat, "mine") is not None

    await run_until(consumer, mine_done)
    assert await store.outcome(table_id, seat, "not-mine") is None
    assert await pending(store, table_id) == 0
    assert all(b"not-mine" not in f[b"env"] for f in await dead_letters(store, table_id))


async def test_a_stale_expected_version_is_recorded_as_the_outcome(
    private_redis_url: str, host: TableHost, table_id: str
) -> None:
    """Nobody waits on this path, so the version conflict is what the command id answers."""
    store = host.store
    created = await host.create_table(create_request(table_id))
    seat, command = scripted_game(table_id)[0]
    await send(store, envelope(table_id, "late", seat, command, expected=created.version + 9))
    consumer = CommandConsumer(store.redis, host, SHARDS, FAST)

    async def decided() -> bool:
        return await store.outcome(table_id, seat, "late") is not None

    await run_until(consumer, decided)
    outcome = await store.outcome(table_id, seat, "late")
    assert isinstance(outcome, common_pb2.Rejection)
    assert outcome.code == "version.conflict"


async def test_replicas_share_the_shards_without_overlap(private_redis_url: str) -> None:
    """Two live consumers end up holding disjoint halves of the shards' leases."""
    redis = await connect(private_redis_url)
    try:
        hosts = [TableHost(EventStore(redis, shards=SHARDS), FREUNDE) for _ in "ab"]
        consumers = [
            CommandConsumer(redis, h, SHARDS, FAST, name=f"share-{n}") for n, h in enumerate(hosts)
        ]
        for _ in range(3):
            for consumer in consumers:
                await consumer.renew_leases()
                for shard in consumer.owned.values():
                    shard.recovering = False
        owned = [set(c.owned) for c in consumers]
        assert not owned[0] & owned[1]
        assert owned[0] | owned[1] == set(range(SHARDS))
        assert all(len(o) == SHARDS // 2 for o in owned)
        for consumer in consumers:
            await consumer.release_all()
        assert not any(
            [await redis.exists(ShardKeys(s).cmd + ":lease:freunde") for s in range(SHARDS)]
        )
    finally:
        await redis.aclose()
