"""The lobby listing of ``GET /v1/tables``: query parameters in, one page of the index out.

The index itself, and how a page is read without touching the tables that are not on
it, is :mod:`services.projector.lobby`.
"""

from __future__ import annotations

from typing import Any

from gateway.errors import ApiError
from gateway.schemas.responses import LobbyOut, LobbyTable
from services.projector.lobby import Lobby, LobbyPage

__all__ = ["list_tables"]


async def list_tables(
    redis: Any, games: list[str], status: str | None, limit: int, cursor: str | None
) -> LobbyOut:
    """One page of the lobby, newest table first; 422 ``cursor.invalid`` for a cursor that
    did not come from a previous page."""
    try:
        page: LobbyPage = await Lobby(redis).page(games, status, limit, cursor)
    except ValueError:
        raise ApiError(
            422,
            "cursor.invalid",
            "That cursor did not come from this lobby: pass the next_cursor of a previous "
            "page, or none for the first page.",
        ) from None
    return LobbyOut(
        tables=[
            LobbyTable(table_id=e.table_id, game=e.game, status=e.status) for e in page.entries
        ],
        next_cursor=page.next_cursor,
    )
