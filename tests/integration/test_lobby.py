"""The lobby index the projector keeps: pages with a cursor, filters by game and status."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from proto import engine_pb2
from services.engine.host import TableHost
from services.eventstore import EventStore
from services.projector.lobby import Lobby, LobbyEntry
from services.projector.projector import Projector
from tests.integration.test_engine_service_support import (
    FREUNDE,
    HARVEST,
    create_request,
    opened_store,
    play_with_bots,
    private_redis,
)

pytestmark = [pytest.mark.anyio, pytest.mark.integration]


@pytest.fixture
async def store() -> AsyncIterator[EventStore]:
    """A Redis of the test's own: the lobby is global."""
    for url in private_redis():
        async with opened_store(url) as opened:
            yield opened


async def all_pages(
    lobby: Lobby, games: list[str], status: str | None, limit: int
) -> tuple[list[LobbyEntry], int]:
    """Every entry, page by page following next_cursor; and how many pages it took."""
    entries: list[LobbyEntry] = []
    cursor = None
    pages = 0
    while True:
        page = await lobby.page(games, status, limit, cursor)
        pages += 1
        entries += page.entries
        assert len(page.entries) <= limit
        if page.next_cursor is None:
            return entries, pages
        cursor = page.next_cursor


async def test_pages_list_every_table_once_newest_first_and_filter(store: EventStore) -> None:
    """Freunde and Harvest tables, some finished: each filter pages through exactly its
    tables, newest first, each once; a table that finishes moves from active to finished."""
    freunde = TableHost(store, FREUNDE)
    harvest = TableHost(store, HARVEST)
    created: list[tuple[str, str]] = []
    for n in range(17):
        table_id = f"lob-{n:02d}-{uuid.uuid4().hex[:6]}"
        if n % 4 == 3:
            await harvest.create_table(
                engine_pb2.CreateTableRequest(table_id=table_id, seats=2, seed=bytes(32))
            )
            created.append(("harvest", table_id))
        else:
            await freunde.create_table(create_request(table_id))
            created.append(("freunde", table_id))
    projector = Projector(store, name="lobby")
    await projector.ensure_groups()
    while await projector.step():
        pass
    lobby = Lobby(store.redis)
    done = [table_id for game, table_id in created[:6] if game == "freunde"]
    active_before, _ = await all_pages(lobby, ["freunde"], "active", 100)
    assert set(done) <= {e.table_id for e in active_before}

    for table_id in done:
        await play_with_bots(freunde, table_id)
    while await projector.step():
        pass
    created_ms = {table_id: (await store.meta(table_id)).created_ms for _, table_id in created}
    newest_first = sorted(created, key=lambda gt: (created_ms[gt[1]], gt[1]), reverse=True)

    listed, pages = await all_pages(lobby, ["freunde", "harvest"], None, 5)
    assert [(e.game, e.table_id) for e in listed] == newest_first
    assert pages == 4

    finished, _ = await all_pages(lobby, ["freunde", "harvest"], "finished", 2)
    assert [e.table_id for e in finished] == [t for _, t in newest_first if t in done]
    assert all(e.status["finished"] for e in finished)
    active, _ = await all_pages(lobby, ["freunde"], "active", 4)
    assert [e.table_id for e in active] == [
        t for g, t in newest_first if g == "freunde" and t not in done
    ]
    only_harvest, _ = await all_pages(lobby, ["harvest"], None, 100)
    assert [e.table_id for e in only_harvest] == [t for g, t in newest_first if g == "harvest"]
    assert all(e.status["version"] >= 1 for e in listed)


async def test_a_cursor_that_did_not_come_from_the_lobby_is_refused(store: EventStore) -> None:
    """Garbage, a cursor naming no member shape, or a status nobody indexes: ValueError."""
    lobby = Lobby(store.redis)
    for cursor in ("%%%", "bm90LWEtbWVtYmVy", "12:x", "1" * 16, "1" * 16 + ":a b"):
        with pytest.raises(ValueError):
            await lobby.page(["freunde"], None, 10, cursor)
    with pytest.raises(ValueError):
        await lobby.page(["freunde"], "waiting", 10)
