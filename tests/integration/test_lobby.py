"""The lobby index the projector keeps: pages with a cursor, filters by game and status."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from engines.core.canonical import canonical_json
from proto import engine_pb2
from services.engine.host import TableHost
from services.eventstore import EventStore, LobbyKeys
from services.projector.lobby import FILTERS, Lobby, LobbyEntry
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


def _status(table_id: str, version: int, *, rev: int = 0, **fields: object) -> str:
    """A lobby status document: open with seats to fill at version 0, else by ``fields``."""
    status: dict[str, object] = {
        "table_id": table_id,
        "game": "freunde",
        "seats": 2,
        "created_ms": 1_700_000_000_000,
        "version": version,
        "rev": rev,
        "finished": False,
    }
    if version == 0:
        status.update(state="open", open_seats=1)
    status.update(fields)
    return canonical_json(status)


async def _listed_in(lobby: Lobby, table_id: str) -> dict[str | None, bool]:
    """Whether each filter's pages hold ``table_id``."""
    found = {}
    for status in FILTERS:
        page = await lobby.page(["freunde"], status, 100)
        found[status] = table_id in {e.table_id for e in page.entries}
    return found


async def test_an_entry_moves_between_filters_as_its_table_does(store: EventStore) -> None:
    """Open with seats to fill, full, in play for several moves, finished with an expiry:
    each time in exactly the filters its status belongs to, with the newest entry shown."""
    lobby = Lobby(store.redis)
    table_id = f"move-{uuid.uuid4().hex[:8]}"
    expiry = LobbyKeys("freunde").expiry
    assert await lobby.record("freunde", _status(table_id, 0, rev=1), expire_at_ms=5_000)
    assert await _listed_in(lobby, table_id) == {
        None: True,
        "open": True,
        "active": False,
        "finished": False,
    }
    assert await store.redis.zscore(expiry, f"{1_700_000_000_000:016d}:{table_id}") == 5_000
    assert await lobby.record("freunde", _status(table_id, 0, rev=2, open_seats=0))
    assert await _listed_in(lobby, table_id) == {
        None: True,
        "open": False,
        "active": False,
        "finished": False,
    }
    assert await store.redis.zscore(expiry, f"{1_700_000_000_000:016d}:{table_id}") is None
    for version in (1, 2, 3):
        assert await lobby.record("freunde", _status(table_id, version, to_act=[version % 2]))
        assert await _listed_in(lobby, table_id) == {
            None: True,
            "open": False,
            "active": True,
            "finished": False,
        }
    page = await lobby.page(["freunde"], "active", 100)
    assert [e.status["to_act"] for e in page.entries if e.table_id == table_id] == [[1]]
    assert await lobby.record("freunde", _status(table_id, 4, finished=True), expire_at_ms=9_000)
    assert await _listed_in(lobby, table_id) == {
        None: True,
        "open": False,
        "active": False,
        "finished": True,
    }
    assert await lobby.sweep(["freunde"], now_ms=9_000) == [table_id]
    assert not any((await _listed_in(lobby, table_id)).values())
    assert await store.redis.hget(LobbyKeys("freunde").placed, table_id) is None


async def test_only_a_newer_entry_replaces_one_even_one_listed_before_placements(
    store: EventStore,
) -> None:
    """Older versions, and the same version at a rev not above, change nothing: not the
    entry, not its filters. An entry listed before placements were kept (its placement
    deleted here) is ordered by its own version and rev."""
    lobby = Lobby(store.redis)
    table_id = f"order-{uuid.uuid4().hex[:8]}"
    assert await lobby.record("freunde", _status(table_id, 0, rev=3))
    assert not await lobby.record("freunde", _status(table_id, 0, rev=3, open_seats=0))
    assert not await lobby.record("freunde", _status(table_id, 0, rev=2, open_seats=0))
    assert (await _listed_in(lobby, table_id))["open"]
    assert await lobby.record("freunde", _status(table_id, 5))
    for placements_kept in (True, False):
        if not placements_kept:
            await store.redis.hdel(LobbyKeys("freunde").placed, table_id)
        assert not await lobby.record("freunde", _status(table_id, 4, finished=True))
        assert not await lobby.record("freunde", _status(table_id, 0, rev=9))
        assert await _listed_in(lobby, table_id) == {
            None: True,
            "open": False,
            "active": True,
            "finished": False,
        }
    assert await lobby.record("freunde", _status(table_id, 6, finished=True))
    assert await _listed_in(lobby, table_id) == {
        None: True,
        "open": False,
        "active": False,
        "finished": True,
    }
