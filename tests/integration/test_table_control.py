"""Every game gets turn clocks, resignation and bots in seats from the engine host, with no
code of its own: Tend (simultaneous phases) and Bardwood Grove included. Real Redis, the
real engine host; the scheduler's plan is read the way the projector makes it."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

import engines
from engines.core.canonical import message_bytes
from engines.core.control import Due, due, table_to_act
from proto import common_pb2, engine_pb2
from services.engine.commands import ClockEarly
from services.engine.host import TableHost
from services.eventstore import EventStore, ShardKeys, connect, shard_of
from services.scheduler.due import DuePlans, envelope_of
from services.scheduler.scheduler import Scheduler
from tests.integration.test_engine_service_support import SEED, SHARDS, private_redis_url

pytestmark = [pytest.mark.anyio, pytest.mark.integration]

__all__ = ["private_redis_url"]

# Enough commands to get through a few turns of every seat in every game.
COMMANDS = 40


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[EventStore]:
    store = EventStore(await connect(redis_url), shards=SHARDS)
    try:
        yield store
    finally:
        await store.redis.aclose()


async def plan(host: TableHost, table_id: str) -> list[Due]:
    loaded = await host.load(table_id)
    to_act = table_to_act(host.engine, loaded.state, loaded.control)
    now = time.time_ns() // 1_000_000
    return due(loaded.identity.rules, loaded.control, to_act, loaded.version, now)


async def first_timeout(host: TableHost, table_id: str) -> Due:
    """The first timeout planned; the bot's turns before it are played."""
    for _ in range(COMMANDS):
        planned = await plan(host, table_id)
        timeouts = [step for step in planned if step.kind == "time_out"]
        if timeouts:
            return timeouts[0]
        reply = await host.execute(envelope_of(table_id, planned[0]))
        assert reply.WhichOneof("result") == "accepted", reply
    raise AssertionError("no person's turn came")


def control_kinds(reply: engine_pb2.ExecuteResponse) -> list[str]:
    events = reply.accepted.events
    return [str(e.control.WhichOneof("kind")) for e in events if e.HasField("control")]


@pytest.mark.parametrize("game", engines.available())
async def test_every_game_gets_clocks_resignation_and_bots(
    store: EventStore, table_id: str, game: str
) -> None:
    engine = engines.get(game)
    host = TableHost(store, engine)
    await host.create_table(
        engine_pb2.CreateTableRequest(
            table_id=table_id,
            seats=3,
            seed=SEED,
            seat_bots=["", "", "random"],
            clock=common_pb2.TurnClock(turn_seconds=2, on_timeout="bot"),
        )
    )
    # A person's turn times out (after the bot's turns before it, if the bot starts): the
    # scheduler's TimeOut, once its deadline has passed.
    timeout = await first_timeout(host, table_id)
    head = (await store.head(table_id)).version
    # Tried early only with time to spare: on a busy machine loading and deciding the
    # table took more than a few hundred milliseconds, and the deadline had passed.
    if time.time() * 1000 < timeout.at_ms - 1200:
        # A scheduler whose clock runs ahead: raised (the consumer tries it again), not applied.
        with pytest.raises(ClockEarly):
            await host.execute(envelope_of(table_id, timeout))
        assert (await store.head(table_id)).version == head
    await asyncio.sleep(max(0.0, timeout.at_ms / 1000 - time.time()) + 0.05)
    timed = await host.execute(envelope_of(table_id, timeout))
    assert control_kinds(timed) == ["turn_timed_out"], timed
    assert timed.accepted.events[0].control.turn_timed_out.then == "bot"
    # The same TimeOut again (a second scheduler replica): its first outcome, nothing new.
    again = await host.execute(envelope_of(table_id, timeout))
    assert again.accepted.duplicate and again.accepted.version == timed.accepted.version
    # The other person resigns: a bot plays that seat from now on.
    resigning = 1 - timeout.seat
    resigned = await host.execute(
        common_pb2.CommandEnvelope(
            table_id=table_id,
            command_id="bw:resign",
            seat=resigning,
            control=common_pb2.TableControl(resign=common_pb2.Resign()),
        )
    )
    assert control_kinds(resigned) == ["seat_resigned"]
    bots_played: set[int] = set()
    for _ in range(COMMANDS):
        loaded = await host.load(table_id)
        if engine.outcome(loaded.state).finished:
            break
        for step in await plan(host, table_id):
            if step.kind == "play_bot":
                reply = await host.execute(envelope_of(table_id, step))
                assert reply.WhichOneof("result") == "accepted", reply
                bots_played.add(step.seat)
                break
        else:
            # Only the person who timed out is to act: it plays for itself.
            seat = timeout.seat
            command = engine.legal_commands(loaded.state, seat)[0]
            reply = await host.execute(
                common_pb2.CommandEnvelope(
                    table_id=table_id,
                    command_id=f"own-{loaded.version}",
                    seat=seat,
                    payload=message_bytes(command),
                )
            )
            assert reply.WhichOneof("result") == "accepted", reply
    assert {resigning, 2} <= bots_played
    audit = await host.audit(engine_pb2.AuditRequest(table_id=table_id))
    assert audit.ok, audit.detail
    assert any(check.name == "timeouts" and check.ok for check in audit.checks)


async def test_a_plan_is_fired_once_and_a_newer_plan_replaces_it(
    store: EventStore, table_id: str
) -> None:
    """The due set: a plan for an older version never replaces a newer one; firing moves
    each due member into the shard's inbox once, however many schedulers ask."""
    plans = DuePlans(store.redis, store.shards)
    first = [Due(at_ms=1_000, seat=0, version=5, kind="time_out")]
    assert await plans.replace("freunde", table_id, 5, first)
    assert not await plans.replace("freunde", table_id, 4, [Due(1, 1, 4, "time_out")])
    shard = store.keys(table_id).shard
    later = [Due(at_ms=2_000, seat=1, version=6, kind="play_bot")]
    assert await plans.replace("freunde", table_id, 6, later)
    inbox = store.keys(table_id).cmd
    before = await store.redis.xlen(inbox)
    fired = await asyncio.gather(*(plans.fire(shard, now_ms=5_000) for _ in range(4)))
    mine = [f for batch in fired for f in batch if f.envelope.table_id == table_id]
    assert [(f.game, f.kind, f.envelope.seat) for f in mine] == [("freunde", "play_bot", 1)]
    assert mine[0].envelope.command_id == "bw:play_bot:6"
    assert await store.redis.xlen(inbox) >= before + 1


async def test_a_sleeping_scheduler_fires_earlier_plans_in_time_and_in_order(
    private_redis_url: str,
) -> None:
    """A scheduler asleep until a member an hour away is woken by a plan due sooner; a
    plan due after that one (no wake-up of its own) is fired after it, not an hour later."""
    redis = await connect(private_redis_url)
    plans = DuePlans(redis, SHARDS)
    far, soon, later = (_table_on_shard(0, name) for name in ("far", "soon", "later"))
    keys = ShardKeys(0)
    now = time.time_ns() // 1_000_000
    await plans.replace("freunde", far, 1, [Due(now + 3_600_000, 0, 1, "time_out")])
    scheduler = Scheduler(plans, max_sleep_ms=3_600_000)
    stop = asyncio.Event()
    running = asyncio.create_task(scheduler.run(stop))
    try:
        for _ in range(600):
            if scheduler.next_ms == now + 3_600_000:
                break
            await asyncio.sleep(0.05)
        assert scheduler.next_ms == now + 3_600_000  # asleep until the far member
        now = time.time_ns() // 1_000_000
        await plans.replace("freunde", soon, 1, [Due(now + 300, 0, 1, "play_bot")])
        await plans.replace("freunde", later, 1, [Due(now + 600, 1, 1, "play_bot")])
        assert await redis.xlen(keys.due_wake) == 2  # the far member's, the soon one's
        fired: list[str] = []
        for _ in range(600):
            entries: Any = await redis.xrange(keys.cmd)
            fired = [common_pb2.CommandEnvelope.FromString(f[b"env"]).table_id for _, f in entries]
            if len(fired) >= 2:
                break
            await asyncio.sleep(0.05)
        assert fired == [soon, later]
        assert await plans.pending(0) == 1  # the far member waits
    finally:
        stop.set()
        await running
        await redis.aclose()
    assert scheduler.fired == 2


def _table_on_shard(shard: int, name: str) -> str:
    """A new table id of the shard (so that plans share one due set)."""
    while True:
        table_id = f"{name}-{os.urandom(4).hex()}"
        if shard_of(table_id, SHARDS) == shard:
            return table_id
