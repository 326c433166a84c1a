"""The projector: read models from the shard feeds, crash-safe, and rebuildable byte for byte."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from typing import Any

import pytest
from redis.asyncio.client import Pipeline

from engines.core.play import fold_stored
from proto import engine_pb2
from services.engine.host import TableHost
from services.eventstore import EventStore
from services.notifications import GAME_OVER, YOUR_TURN, PlayerInbox, Webhooks
from services.notifications.turns import command_runs
from services.notifier import NOTIFIER_GROUP, Deriver
from services.projector.lobby import entries_key
from services.projector.projector import LAG_KEY, Projector
from services.seating import STARTED, Roster, RosterStore, Seat
from tests.integration.test_engine_service_support import (
    FREUNDE,
    SHARDS,
    create_request,
    envelope,
    open_host,
    play_with_bots,
    private_redis_url,
    scripted_game,
)

pytestmark = [pytest.mark.anyio, pytest.mark.integration]

__all__ = ["private_redis_url"]


@pytest.fixture
async def host(private_redis_url: str) -> AsyncIterator[TableHost]:
    replica = await open_host(private_redis_url)
    try:
        yield replica
    finally:
        await replica.store.redis.aclose()


async def caught_up(projector: Projector, rounds: int = 200) -> None:
    """Run the projector until no feed entry is left to project."""
    await projector.ensure_groups()
    for _ in range(rounds):
        await projector.step()
        lag = await projector.lag()
        if lag["entries_behind"] == 0 and lag["pending"] == 0:
            return
    raise AssertionError("the projector did not catch up")


async def run_one_batch(reader: Projector | Deriver) -> None:
    """Run ``reader``'s loop and stop it once a step has handled something, so that its
    last batch has no next read to carry the acknowledgement."""
    stop = asyncio.Event()
    stepped = reader.step

    async def step_then_stop() -> int:
        handled = await stepped()
        if handled:
            stop.set()
        return handled

    reader.step = step_then_stop  # type: ignore[method-assign]
    await asyncio.wait_for(reader.run(stop), timeout=30)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _bytes(stored: bytes | str | None) -> bytes:
    """A reply of the bytes client, narrowed from redis-py's ``bytes | str | None``."""
    assert isinstance(stored, bytes), stored
    return stored


async def view_json(store: EventStore, table_id: str, name: str) -> bytes:
    """The JSON a read model holds, as stored."""
    return _bytes(await store.redis.hget(store.keys(table_id).view(name), "json"))


async def read_models(store: EventStore, table_ids: list[str]) -> dict[str, Any]:
    """Every read model of the tables, as the raw bytes stored."""
    dump: dict[str, Any] = {}
    for table_id in table_ids:
        keys = store.keys(table_id)
        meta = await store.meta(table_id)
        names = ["status", "public", *(f"seat:{n}" for n in range(meta.seats))]
        for name in names:
            dump[keys.view(name)] = await store.redis.hgetall(keys.view(name))
        dump[f"lobby/{table_id}"] = await store.redis.hget(entries_key("freunde"), table_id)
    return dump


async def test_read_models_show_each_viewer_its_view_and_rebuild_byte_identical(
    private_redis_url: str, host: TableHost
) -> None:
    """Finished and running tables: views per seat, status, lobby; --rebuild changes no byte."""
    tables = [f"proj-{os.urandom(6).hex()}" for _ in range(4)]
    for table_id, seats in zip(tables, (2, 3, 4, 2), strict=True):
        await host.create_table(create_request(table_id, seats=seats))
    for table_id in tables[:3]:
        await play_with_bots(host, table_id)
    for n, (seat, command) in enumerate(scripted_game(tables[3])[:5]):
        await host.execute(envelope(tables[3], f"c{n}", seat, command))
    projector = Projector(host.store, name="incremental")
    await caught_up(projector)

    incremental = await read_models(host.store, tables)
    for table_id in tables:
        keys = host.store.keys(table_id)
        head = await host.store.head(table_id)
        meta = await host.store.meta(table_id)
        for seat in (None, *range(meta.seats)):
            name = "public" if seat is None else f"seat:{seat}"
            stored = incremental[keys.view(name)]
            viewer = engine_pb2.Viewer() if seat is None else engine_pb2.Viewer(seat=seat)
            expected = await host.view(engine_pb2.ViewRequest(table_id=table_id, viewer=viewer))
            assert stored == {
                b"version": str(head.version).encode(),
                b"json": expected.view_json.encode(),
            }
        status = json.loads(incremental[keys.view("status")][b"json"])
        assert status["version"] == head.version
        assert status["seats"] == meta.seats
        assert status["finished"] == (table_id != tables[3])
        assert json.loads(incremental[f"lobby/{table_id}"]) == status
    assert json.loads(incremental[host.store.keys(tables[0]).view("status")][b"json"])["winners"]

    env = dict(os.environ, REDIS_URL=private_redis_url, BW_SHARDS=str(SHARDS))
    rebuilt = subprocess.run(
        [sys.executable, "-m", "services.projector", "--rebuild"],
        env=env,
        capture_output=True,
        timeout=300,
    )
    assert rebuilt.returncode == 0, rebuilt.stderr.decode()
    assert b"projector.rebuilt" in rebuilt.stderr
    assert await read_models(host.store, tables) == incremental


async def test_a_crash_between_writing_and_acking_reprojects_harmlessly(
    private_redis_url: str, host: TableHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Entries written but not acknowledged are reclaimed by the next projector: same bytes."""
    table_id = f"crash-{os.urandom(6).hex()}"
    await host.create_table(create_request(table_id))
    await play_with_bots(host, table_id)
    await caught_up(Projector(host.store, name="before"))  # older tables out of the way
    await host.store.redis.delete(host.store.keys(table_id).view("status"))
    for name in ("public", "seat:0", "seat:1"):
        await host.store.redis.delete(host.store.keys(table_id).view(name))
    await host.store.redis.hdel(entries_key("freunde"), table_id)
    # A fresh projector group of its own sees the table's whole feed again.
    dying = Projector(host.store, group="crash-test", name="dying")
    await dying.ensure_groups()

    feed = host.store.keys(table_id).feed
    real_xack = Pipeline.xack

    def no_ack(pipe: Pipeline, stream: str, group: str, *ids: Any) -> Any:
        if stream == feed:
            raise ConnectionError("the projector died before acknowledging")
        return real_xack(pipe, stream, group, *ids)

    # Only the dying projector loses its XACKs (queued in the pipeline that acknowledges a
    # batch): the heir below runs after the patch is undone.
    with monkeypatch.context() as dying_client:
        dying_client.setattr(Pipeline, "xack", no_ack)
        with pytest.raises(ConnectionError):
            for _ in range(100):
                await dying.step()
    written = await read_models(host.store, [table_id])
    assert written[host.store.keys(table_id).view("status")]
    assert (await dying.lag())["pending"] > 0

    heir = Projector(host.store, group="crash-test", name="heir", reclaim_idle_ms=0)
    assert await heir.reclaim() > 0
    await caught_up(heir)
    assert await read_models(host.store, [table_id]) == written
    assert (await heir.lag())["pending"] == 0


async def test_reclaiming_takes_every_feed_page_by_page_and_forgets_the_dead_name(
    host: TableHost,
) -> None:
    """Entries a dead projector left pending on several feeds, more than a page of them,
    are all taken over and projected; the dead consumer's name leaves every feed's group."""
    tables = [f"reclaim-{n}-{os.urandom(4).hex()}" for n in range(6)]
    for table_id in tables:
        await host.create_table(create_request(table_id))
        await play_with_bots(host, table_id)
    feeds = {host.store.keys(table_id).feed for table_id in tables}
    assert len(feeds) > 1  # six random ids over four shards
    group = f"reclaim-{os.urandom(3).hex()}"
    dying = Projector(host.store, group=group, name="dying")
    await dying.ensure_groups()
    # It projects a batch and stops before the read that would acknowledge it.
    assert await dying.step() > 2
    left = (await dying.lag())["pending"]
    assert left > 2

    heir = Projector(host.store, group=group, name="heir", batch=2, reclaim_idle_ms=0)
    assert await heir.reclaim() == left
    assert (await heir.lag())["pending"] == 0
    for feed in feeds:
        names = {_text(c["name"]) for c in await host.store.redis.xinfo_consumers(feed, group)}
        assert "dying" not in names
    await caught_up(heir)
    for table_id in tables:
        status = json.loads(await view_json(host.store, table_id, "status"))
        assert status["finished"], table_id


async def test_a_batch_is_acknowledged_by_the_read_after_it_never_before_its_writes(
    host: TableHost,
) -> None:
    """One server: a projected batch stays pending until the projector's next read, which
    acknowledges it; its views are written before that."""
    table_id = f"acks-{os.urandom(6).hex()}"
    await host.create_table(create_request(table_id))
    await play_with_bots(host, table_id)
    group = f"acks-{os.urandom(3).hex()}"
    projector = Projector(host.store, group=group, name="acks", block_ms=50)
    await projector.ensure_groups()
    projected = await projector.step()
    assert projected > 0
    status = json.loads(await view_json(host.store, table_id, "status"))
    assert status["finished"]
    assert (await projector.lag())["pending"] == projected
    assert await projector.step() == 0
    assert (await projector.lag())["pending"] == 0


async def test_a_stopping_projector_acknowledges_its_last_batch(host: TableHost) -> None:
    """Stopped after its last batch, with no read to carry the acknowledgement, the
    projector sends it on its own: nothing is left for another to project again."""
    table_id = f"stop-{os.urandom(6).hex()}"
    await host.create_table(create_request(table_id))
    await play_with_bots(host, table_id)
    group = f"stop-{os.urandom(3).hex()}"
    projector = Projector(host.store, group=group, name="stopping", block_ms=50)
    await run_one_batch(projector)
    assert projector.processed > 0
    assert (await projector.lag())["pending"] == 0


async def test_a_gap_is_filled_from_the_table_stream_and_old_events_change_nothing(
    host: TableHost,
) -> None:
    """Given only the newest event, the projector reads the rest; an older one is a no-op."""
    table_id = f"gap-{os.urandom(6).hex()}"
    await host.create_table(create_request(table_id))
    for n, (seat, command) in enumerate(scripted_game(table_id)[:6]):
        await host.execute(envelope(table_id, f"c{n}", seat, command))
    log = await host.store.read(table_id)
    projector = Projector(host.store, name="gap")
    assert await projector.project(table_id, "freunde", len(log), known=log[-1:])
    status = json.loads(await view_json(host.store, table_id, "status"))
    assert status["version"] == len(log)
    view = await host.view(engine_pb2.ViewRequest(table_id=table_id, viewer=engine_pb2.Viewer()))
    assert (await view_json(host.store, table_id, "public")).decode() == view.view_json
    assert not await projector.project(table_id, "freunde", len(log) - 2, known=log[-3:-2])
    assert json.loads(await view_json(host.store, table_id, "status")) == status
    assert FREUNDE.game == status["game"]


async def test_the_lag_is_published_for_the_gateway(host: TableHost) -> None:
    """``bw:projector:lag`` holds the entries still to project, as JSON."""
    projector = Projector(host.store, name="lag")
    await caught_up(projector)
    published = await projector.report_lag()
    stored = json.loads(_bytes(await host.store.redis.get(LAG_KEY)))
    assert stored == published
    assert stored["entries_behind"] == 0 and stored["pending"] == 0


async def test_each_turn_change_is_published_once_and_told_to_its_player_once(
    host: TableHost,
) -> None:
    """The projector publishes the turn changes of the commands it folds, and only once
    per advance of the views; the notifier tells each player of them without folding."""
    table_id = f"turns-{os.urandom(6).hex()}"
    await host.create_table(create_request(table_id))
    ann, bob = Seat(player="guest:ann", name="Ann"), Seat(player="guest:bob", name="Bob")
    seating = RosterStore(host.store.redis, host.store.shards)
    await seating.create(Roster(table_id, "freunde", (ann, bob), state=STARTED))
    await play_with_bots(host, table_id)

    # The oracle: the game's outcome before and after each command of the log.
    expected: list[tuple[str, int, int]] = []
    state, before = FREUNDE.initial_state(), None
    for run in command_runs(await host.store.read(table_id)):
        state = fold_stored(FREUNDE, state, run)
        after = FREUNDE.outcome(state)
        earlier = () if before is None else before.to_act
        if after.finished:
            expected += [(GAME_OVER, run[-1].version, seat) for seat in (0, 1)]
            break
        expected += [
            (YOUR_TURN, run[-1].version, seat) for seat in after.to_act if seat not in earlier
        ]
        before = after
    assert len(expected) > 5

    turns = host.store.keys(table_id).turns
    await caught_up(Projector(host.store, name="first"))
    published = await host.store.redis.xlen(turns)
    # A projector of another group folds the whole log again: the views are there, so
    # nothing is published again; neither is anything by a rebuild of one table.
    await caught_up(Projector(host.store, group="again", name="again"))
    head = await host.store.head(table_id)
    assert not await Projector(host.store, name="rebuild").project(
        table_id, "freunde", head.version
    )
    assert await host.store.redis.xlen(turns) == published

    inbox = PlayerInbox(host.store.redis, host.store.shards, kept=10_000)
    deriver = Deriver(host.store, inbox, Webhooks(host.store.redis), block_ms=10)
    await deriver.ensure_groups()
    while await deriver.step():
        pass
    told = [
        (note.kind, note.version, note.seat)
        for player in (ann.player, bob.player)
        for _, note in await inbox.after(player, "0", 10_000)
        if note.table_id == table_id
    ]
    assert sorted(told) == sorted(expected)
    # The entries handled again (a replica took them over) tell nobody anything new.
    await host.store.redis.xgroup_setid(turns, NOTIFIER_GROUP, "0")
    while await deriver.step():
        pass
    again = [
        note.id
        for player in (ann.player, bob.player)
        for _, note in await inbox.after(player, "0", 10_000)
        if note.table_id == table_id
    ]
    assert len(again) == len(told)


async def _pending(redis: Any, streams: list[str], group: str) -> int:
    total = 0
    for stream in streams:
        for info in await redis.xinfo_groups(stream):
            if _text(info["name"]) == group:
                total += int(info["pending"])
    return total


async def test_the_notifier_acknowledges_a_batch_with_its_next_read_and_when_it_stops(
    host: TableHost,
) -> None:
    """As the projector does: a told batch stays pending until the next read, and a
    stopping notifier leaves nothing pending for a replica to tell again."""
    table_id = f"told-{os.urandom(6).hex()}"
    await host.create_table(create_request(table_id))
    await play_with_bots(host, table_id)
    await caught_up(Projector(host.store, name="told"))
    inbox = PlayerInbox(host.store.redis, host.store.shards, kept=10_000)
    webhooks = Webhooks(host.store.redis)

    reading = Deriver(host.store, inbox, webhooks, group=f"told-{os.urandom(3).hex()}", block_ms=10)
    await reading.ensure_groups()
    handled = await reading.step()
    assert handled > 0
    assert await _pending(host.store.redis, reading.streams, reading.group) == handled
    while await reading.step():
        pass
    assert await _pending(host.store.redis, reading.streams, reading.group) == 0

    stopping = Deriver(
        host.store, inbox, webhooks, group=f"stop-{os.urandom(3).hex()}", block_ms=10
    )
    await run_one_batch(stopping)
    assert await _pending(host.store.redis, stopping.streams, stopping.group) == 0


async def test_a_replica_behind_another_publishes_only_the_turns_after_the_stored_views(
    host: TableHost,
) -> None:
    """Two projector replicas of one group take turns on a table: each publishes the turn
    changes of versions above the stored views only, so none is published twice."""
    table_id = f"replicas-{os.urandom(6).hex()}"
    await host.create_table(create_request(table_id))
    script = scripted_game(table_id)
    # A step that finds nothing waits ``block_ms`` for more: short, since each command
    # here ends with such a step.
    first = Projector(host.store, name="first", block_ms=5)
    second = Projector(host.store, name="second", block_ms=5)
    await first.ensure_groups()
    for n, (seat, command) in enumerate(script[:30]):
        await host.execute(envelope(table_id, f"c{n}", seat, command))
        # The first replica now and then, the second after every command: the first is
        # behind whenever it projects, from its cache or from the log.
        for replica in (first, second) if n % 7 == 6 else (second,):
            while await replica.step():
                pass
    entries: Any = await host.store.redis.xrange(host.store.keys(table_id).turns)
    versions = [int(f[b"v"]) for _, f in entries if f[b"table"] == table_id.encode()]
    assert len(versions) > 5
    assert versions == sorted(set(versions))
