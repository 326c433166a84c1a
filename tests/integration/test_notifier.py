"""The notifier's parts on a real Redis of the test's own (the due set is global):
replicas that send at once deliver each delivery once; a notification derived twice is
kept once; a removed webhook's deliveries are dead-lettered; a webhook's name is called at
the address that was checked, however it resolves afterwards; a sleeping sender is woken
by a delivery due sooner; the wake-up feed follows the player's stream; turn changes that
come while the notifier lingers are told together."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from engines.core.contract import Outcome
from services.eventstore import WEBHOOKS_DUE_WAKE_KEY, EventStore, connect, player_feed_key
from services.notifications import (
    DEAD,
    DELIVERED,
    YOUR_TURN,
    Notification,
    PlayerInbox,
    Webhooks,
    entry_position,
    notification_id,
    player_shard,
    urls,
)
from services.notifications.turns import TurnChange
from services.notifier import Deriver, Sender, SenderSettings
from services.players import app_player
from services.seating import STARTED, Roster, RosterStore, Seat
from tests.integration.test_engine_service_support import opened_store, private_redis
from tests.webhook_receiver import Receiver

pytestmark = [pytest.mark.anyio, pytest.mark.integration]

APP = "0a1b2c3d4e5f"
SHARDS = 4


@pytest.fixture
async def store() -> AsyncIterator[EventStore]:
    for url in private_redis():
        async with opened_store(url, SHARDS) as opened:
            yield opened


def note(n: int, user: str = "discord:7") -> Notification:
    player = app_player(APP, user)
    return Notification(
        id=notification_id(YOUR_TURN, "t1", f"v{n}", 0, player),
        kind=YOUR_TURN,
        player=player,
        table_id="t1",
        game="freunde",
        seat=0,
        version=n,
        time_ms=1_764_483_600_000 + n,
        text="Your turn in the freunde game (play).",
        data={"phase": "play"},
    )


def sender(
    webhooks: Webhooks,
    concurrency: int = 16,
    allow_loopback: bool = True,
    max_sleep_s: float = 0.02,
) -> Sender:
    """A sender with quick retries (3 tries, 20 to 50 ms apart)."""
    return Sender(
        webhooks,
        SenderSettings(
            max_attempts=3,
            backoff_ms=20,
            backoff_max_ms=50,
            concurrency=concurrency,
            allow_loopback=allow_loopback,
            max_sleep_s=max_sleep_s,
            poll_s=0.02,
        ),
    )


async def settled(webhooks: Webhooks, count: int) -> list[str]:
    for _ in range(500):
        found = await webhooks.deliveries(APP, limit=1000)
        if len(found) == count and all(d.status in (DELIVERED, DEAD) for d in found):
            return [d.status for d in found]
        await asyncio.sleep(0.02)
    raise AssertionError("the deliveries did not settle")


async def test_two_replicas_sending_at_once_deliver_each_delivery_once(store: EventStore) -> None:
    webhooks = Webhooks(store.redis)
    with Receiver.serving(lambda _path, _tries: 200) as receiver:
        _, secret = await webhooks.add(APP, f"{receiver.url}/hook")
        assert secret is not None
        for n in range(1, 41):
            await webhooks.enqueue(APP, "discord:7", note(n))
            await webhooks.enqueue(APP, "discord:7", note(n))  # derived twice: one delivery
        stop = asyncio.Event()
        replicas = [sender(webhooks, concurrency=4), sender(webhooks, concurrency=4)]
        running = [asyncio.create_task(r.run(stop)) for r in replicas]
        try:
            assert await settled(webhooks, 40) == [DELIVERED] * 40
        finally:
            stop.set()
            await asyncio.gather(*running)
        ids = [r.headers["x-boardwright-delivery"] for r in receiver.got]
        assert len(ids) == len(set(ids)) == 40
        assert sorted(json.loads(r.body)["notification"]["version"] for r in receiver.got) == list(
            range(1, 41)
        )
        print(f"deliveries sent by each replica: {[r.sent for r in replicas]}")


async def test_a_removed_webhook_and_a_refused_address_end_dead(store: EventStore) -> None:
    webhooks = Webhooks(store.redis)
    with Receiver.serving(lambda _path, _tries: 200) as receiver:
        kept, _ = await webhooks.add(APP, f"{receiver.url}/kept")
        gone, _ = await webhooks.add(APP, f"{receiver.url}/gone")
        await webhooks.enqueue(APP, "discord:7", note(1))
        assert await webhooks.remove(APP, gone.webhook_id)
        stop = asyncio.Event()
        # Loopback not allowed: even the kept webhook is refused before any call.
        running = asyncio.create_task(sender(webhooks, allow_loopback=False).run(stop))
        try:
            assert await settled(webhooks, 2) == [DEAD, DEAD]
        finally:
            stop.set()
            await running
        assert receiver.got == []
    errors = {d.webhook_id: d.last_error for d in await webhooks.deliveries(APP)}
    assert errors[gone.webhook_id] == "the webhook was removed"
    assert "may not" in errors[kept.webhook_id]
    assert {d.attempts for d in await webhooks.deliveries(APP, DEAD)} == {3}


async def test_the_call_goes_to_the_checked_address_whatever_the_name_resolves_to_later(
    store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DNS rebinding: the name answers this machine at the check and an internal address
    at any later look-up; the call still reaches the checked address, with the name in
    ``Host``. (``rebind.test`` resolves nowhere, so a client that resolved the name on
    its own could not have delivered at all.)"""
    answers = iter([["127.0.0.1"]])

    async def rebinding(_host: str, _port: int) -> list[str]:
        return next(answers, ["10.0.0.1"])

    monkeypatch.setattr(urls, "_addresses", rebinding)
    webhooks = Webhooks(store.redis)
    with Receiver.serving(lambda _path, _tries: 200) as receiver:
        port = receiver.server.server_address[1]
        await webhooks.add(APP, f"http://rebind.test:{port}/hook")
        await webhooks.enqueue(APP, "discord:7", note(1))
        stop = asyncio.Event()
        running = asyncio.create_task(sender(webhooks).run(stop))
        try:
            assert await settled(webhooks, 1) == [DELIVERED]
        finally:
            stop.set()
            await running
        assert [(r.path, r.headers["host"]) for r in receiver.got] == [
            ("/hook", f"rebind.test:{port}")
        ]


async def test_a_sleeping_sender_is_woken_by_a_delivery_and_by_a_retry_due_sooner(
    store: EventStore,
) -> None:
    """A sender that would sleep an hour with nothing due sends a new delivery at once, and
    a failed attempt's retry (due in 20 to 50 ms, its claim's lease 25 s away) in time."""
    webhooks = Webhooks(store.redis)
    with Receiver.serving(lambda _path, tries: 500 if tries == 1 else 200) as receiver:
        await webhooks.add(APP, f"{receiver.url}/hook")
        stop = asyncio.Event()
        asleep = sender(webhooks, max_sleep_s=3600)
        running = asyncio.create_task(asleep.run(stop))
        try:
            await asyncio.sleep(0.2)  # claimed nothing: asleep until woken
            await webhooks.enqueue(APP, "discord:7", note(1))
            assert await settled(webhooks, 1) == [DELIVERED]
        finally:
            stop.set()
            await running
        assert len(receiver.got) == 2
    [delivery] = await webhooks.deliveries(APP)
    assert delivery.attempts == 2
    assert await store.redis.xlen(WEBHOOKS_DUE_WAKE_KEY) == 2  # the enqueue's, the retry's


async def test_on_a_cluster_the_wake_ups_share_the_due_sets_slot(redis_cluster_url: str) -> None:
    """So a sender blocks on them there too: one that would sleep an hour sends a new
    delivery at once."""
    cluster = await connect(redis_cluster_url)
    try:
        webhooks = Webhooks(cluster)
        with Receiver.serving(lambda _path, _tries: 200) as receiver:
            await webhooks.add(APP, f"{receiver.url}/hook")
            stop = asyncio.Event()
            running = asyncio.create_task(sender(webhooks, max_sleep_s=3600).run(stop))
            try:
                await asyncio.sleep(0.2)
                await webhooks.enqueue(APP, "discord:7", note(1))
                assert await settled(webhooks, 1) == [DELIVERED]
            finally:
                stop.set()
                await running
        # Written by the same script as the due set: the stream is in its slot.
        assert await cluster.xlen(WEBHOOKS_DUE_WAKE_KEY) == 1
    finally:
        await cluster.aclose()


async def test_a_notification_is_kept_once_and_wakes_its_player_shard(store: EventStore) -> None:
    inbox = PlayerInbox(store.redis, SHARDS, kept=10)
    first = note(1)
    assert await inbox.add(first)
    assert not await inbox.add(first)
    assert await inbox.add(note(2))
    found = await inbox.after(first.player, "0", 100)
    assert [n.version for _, n in found] == [1, 2]
    newest = await inbox.newest(first.player)
    assert newest == found[-1][0]
    assert await inbox.after(first.player, newest, 100) == []
    wakes: Any = await store.redis.xrange(player_feed_key(player_shard(first.player, SHARDS)))
    positions = [int(fields[b"v"]) for _, fields in wakes]
    # The repeat woke at the newest entry then, never past the stream's head.
    assert positions == [
        entry_position(found[0][0]),
        entry_position(found[0][0]),
        entry_position(found[1][0]),
    ]
    for n in range(3, 60):
        await inbox.add(note(n))
    kept = await inbox.after(first.player, "0", 1000)
    assert 10 <= len(kept) < 59  # capped (approximately, as XADD MAXLEN ~ trims)
    assert kept[-1][1].version == 59


class CountingDeriver(Deriver):
    """A deriver that keeps how many entries each of its reads that found any brought."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.reads: list[int] = []

    async def step(self) -> int:
        handled = await super().step()
        if handled:
            self.reads.append(handled)
        return handled


async def test_turn_changes_arriving_while_the_notifier_lingers_are_told_together(
    store: EventStore,
) -> None:
    """A lone turn change is told at once; those that come during the linger after it wait
    and are read together, and a notifier stopped while it lingers leaves them for the
    next read, losing none."""
    table = "t-linger"
    ann, bob = Seat(player="guest:ann", name="Ann"), Seat(player="guest:bob", name="Bob")
    await RosterStore(store.redis, SHARDS).create(
        Roster(table, "freunde", (ann, bob), state=STARTED)
    )
    inbox = PlayerInbox(store.redis, SHARDS, kept=100)
    # A linger far longer than the test, so the changes below surely come during it.
    deriver = CountingDeriver(store, inbox, Webhooks(store.redis), block_ms=20, linger_ms=60_000)
    await deriver.ensure_groups()
    turns = store.keys(table).turns

    async def turn(version: int, before: int, after: int) -> None:
        change = TurnChange(
            table,
            "freunde",
            version,
            1_764_483_600_000 + version,
            Outcome("play", (before,), False, (0, 0), ()),
            Outcome("play", (after,), False, (0, 0), ()),
        )
        fields = change.fields()
        await store.redis.xadd(turns, dict(zip(fields[::2], fields[1::2], strict=True)))

    async def told() -> list[tuple[str, int]]:
        notes = []
        for player in (ann.player, bob.player):
            notes += [(player, note.version) for _, note in await inbox.after(player, "0", 100)]
        return sorted(notes)

    stop = asyncio.Event()
    running = asyncio.create_task(deriver.run(stop))
    await turn(1, 0, 1)
    for _ in range(500):
        if await told():
            break
        await asyncio.sleep(0.01)
    assert await told() == [(bob.player, 1)]

    await turn(2, 1, 0)
    await turn(3, 0, 1)
    await asyncio.sleep(0.2)
    assert await told() == [(bob.player, 1)]  # held while the notifier lingers
    stop.set()
    await asyncio.wait_for(running, 10)  # the linger ends with the notifier
    assert deriver.reads == [1]

    assert await deriver.step() == 2  # both in one read
    assert await told() == [(ann.player, 2), (bob.player, 1), (bob.player, 3)]
