"""Views kept in memory only: a Redis restart loses the spectator's and the seats' views
but not the status; the projector writes them again byte for byte when a gateway reports
them, a table's next command brings all of them along, and no turn is announced twice."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from gateway.store import ReadStore
from proto import engine_pb2
from services.engine.host import TableHost
from services.eventstore import VIEWS_LOST_KEY
from services.projector.projector import Projector
from services.redis_server import RedisServer
from tests.integration.test_engine_service_support import (
    SHARDS,
    create_request,
    envelope,
    open_host,
    play_with_bots,
    scripted_game,
)
from tests.integration.test_projector import caught_up, read_models
from tests.redis_servers import running

pytestmark = [pytest.mark.anyio, pytest.mark.integration]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RedisServer]:
    """A private Redis whose AOF survives a restart on the same port."""
    with running(RedisServer(data_dir=tmp_path / "redis")) as started:
        yield started


@dataclass
class Played:
    """Tables projected before the restart: one finished, one in the middle of its game."""

    finished: str
    running: str
    running_commands: list[tuple[int, Any]]
    models: dict[str, Any]
    turns: dict[str, list[Any]]


@pytest.fixture
async def played(server: RedisServer) -> AsyncIterator[Played]:
    host = await open_host(server.url)
    finished, running = (f"mem-{os.urandom(6).hex()}" for _ in range(2))
    try:
        await host.create_table(create_request(finished, seats=3))
        await play_with_bots(host, finished)
        await host.create_table(create_request(running))
        commands = scripted_game(running)
        for n, (seat, command) in enumerate(commands[:6]):
            await host.execute(envelope(running, f"c{n}", seat, command))
        await caught_up(Projector(host.store, name="before"))
        models = await read_models(host.store, [finished, running])
        turns = {t: await _turns(host, t) for t in (finished, running)}
    finally:
        await host.store.redis.aclose()
    yield Played(finished, running, commands, models, turns)


async def _turns(host: TableHost, table_id: str) -> list[Any]:
    """The turn changes announced for the table: (version, after) of each entry."""
    entries: Any = await host.store.redis.xrange(host.store.keys(table_id).turns)
    return [
        (int(fields[b"v"]), fields[b"after"])
        for _, fields in entries
        if fields[b"table"] == table_id.encode()
    ]


@pytest.fixture
async def restarted(server: RedisServer, played: Played) -> AsyncIterator[TableHost]:
    """The host on the Redis restarted after ``played`` (from its AOF)."""
    host = await open_host(server.restart().url)
    try:
        yield host
    finally:
        await host.store.redis.aclose()


def _view_keys(host: TableHost, table_id: str, seats: int) -> list[str]:
    return host.store.keys(table_id).views(seats)[1:]


async def test_a_restart_keeps_the_status_and_a_reported_loss_restores_every_view(
    played: Played, restarted: TableHost
) -> None:
    host = restarted
    for table_id, seats in ((played.finished, 3), (played.running, 2)):
        keys = host.store.keys(table_id)
        status = await host.store.redis.hgetall(keys.view("status"))
        assert status == played.models[keys.view("status")]
        assert await host.store.redis.exists(*_view_keys(host, table_id, seats)) == 0

    gateway = ReadStore(host.store.redis, SHARDS)
    for table_id in (played.finished, played.running):
        await gateway.report_lost_view(table_id)
        # Once per table while the projector is on it, however many reads find it lost.
        await gateway.report_lost_view(table_id)
    assert await host.store.redis.xlen(VIEWS_LOST_KEY) == 2

    projector = Projector(host.store, name="after")
    await projector.ensure_groups()
    assert await projector.restore_lost_views() == 2
    assert await read_models(host.store, [played.finished, played.running]) == played.models
    for table_id in (played.finished, played.running):
        assert await _turns(host, table_id) == played.turns[table_id]
    # Read in the group: another projector replica does not restore them again.
    assert await Projector(host.store, name="other").restore_lost_views() == 0


async def test_after_a_restart_the_next_command_brings_every_view_and_only_its_turn(
    played: Played, restarted: TableHost
) -> None:
    host, table_id = restarted, played.running
    seat, command = played.running_commands[6]
    await host.execute(envelope(table_id, "c6", seat, command))
    head = await host.store.head(table_id)
    await caught_up(Projector(host.store, name="after"))

    keys = host.store.keys(table_id)
    for viewer_seat in (None, 0, 1):
        name = "public" if viewer_seat is None else f"seat:{viewer_seat}"
        viewer = engine_pb2.Viewer() if viewer_seat is None else engine_pb2.Viewer(seat=viewer_seat)
        expected = await host.view(engine_pb2.ViewRequest(table_id=table_id, viewer=viewer))
        stored = await host.store.redis.hgetall(keys.view(name))
        assert stored == {
            b"version": str(head.version).encode(),
            b"json": expected.view_json.encode(),
        }
    announced = await _turns(host, table_id)
    assert announced[: len(played.turns[table_id])] == played.turns[table_id]
    assert all(version == head.version for version, _ in announced[len(played.turns[table_id]) :])


async def test_a_view_that_is_current_is_left_as_it_is(
    played: Played, restarted: TableHost
) -> None:
    """A report about a table whose views are all there (the gateway raced the projector's
    own write) writes nothing."""
    host = restarted
    projector = Projector(host.store, name="after")
    assert await projector.restore_views(played.running)
    assert not await projector.restore_views(played.running)
    assert not await projector.restore_views("mem-no-such-table")


async def test_a_redis_that_lost_the_reports_stream_has_it_made_again(
    played: Played, restarted: TableHost
) -> None:
    """A Redis that lost its data lost the group on ``bw:views:lost`` too: the projector
    makes it again instead of failing every sweep, and the next report is heard."""
    host = restarted
    projector = Projector(host.store, name="after")
    await host.store.redis.delete(VIEWS_LOST_KEY)
    assert await projector.restore_lost_views() == 0
    await ReadStore(host.store.redis, SHARDS).report_lost_view(played.running)
    assert await projector.restore_lost_views() == 1
