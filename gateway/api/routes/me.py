"""``GET /v1/me/tables``: the caller's tables as a player, the ones where it is to act first.

The player is an app's user (``X-App-Key`` + ``X-App-User``), or the holder of a seat
token: any of its tokens names the player (a token names its table, whose seating says
whose seat it is). The list reads the player's newest :data:`SCANNED` seats and each
table's status read model (its seating while it waits for players).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.security import HTTPAuthorizationCredentials

from gateway.api.deps import Gateway, GatewayDep, app_key_scheme, bearer_scheme, player_of
from gateway.identity import caller_of
from gateway.schemas.responses import ErrorOut, MyTable, MyTablesOut
from services.seating import OPEN

__all__ = ["router"]

router = APIRouter(prefix="/v1", tags=["players"])

SCANNED = 200

_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (401, 403, 422, 429, 503)
}


async def _entry(gateway: Gateway, player: str, table_id: str) -> MyTable | None:
    roster, status = await asyncio.gather(
        gateway.store.seating.get(table_id), gateway.store.read_model(table_id, "status")
    )
    if roster is None:
        return None
    seat = roster.seat_of_player(player)
    if seat is None:
        return None
    doc = roster.lobby_status() if status is None or roster.state == OPEN else status.data
    done = bool(doc.get("finished"))
    state = "finished" if done else ("open" if roster.state == OPEN else "started")
    return MyTable(
        table_id=table_id,
        game=roster.game,
        seat=seat,
        name=roster.seats[seat].name,
        state=state,
        your_turn=not done and seat in (doc.get("to_act") or []),
        status=doc,
    )


@router.get(
    "/me/tables",
    response_model=MyTablesOut,
    responses=_ERRORS,
    summary="Your tables as a player, the ones where it is your turn first",
    description=(
        "As an app's user (`X-App-Key` + `X-App-User`) or with any of your seat tokens."
        f" Reads your {SCANNED} newest seats; `your_turn` comes from each table's status"
        " (projected a moment after each move)."
    ),
)
async def my_tables(
    request: Request,
    gateway: GatewayDep,
    _bearer_scheme: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer_scheme)],
    _app_scheme: Annotated[str | None, Depends(app_key_scheme)],
    limit: Annotated[int, Query(ge=1, le=SCANNED, description="Tables to list.")] = 50,
) -> MyTablesOut:
    who = await caller_of(request, gateway.store.apps)
    player = await player_of(gateway, who)
    seats = await gateway.store.players.recent(player, SCANNED)
    found = await asyncio.gather(*(_entry(gateway, player, table_id) for table_id, _ in seats))
    joined = {table_id: at for table_id, at in seats}
    tables = [entry for entry in found if entry is not None]
    tables.sort(key=lambda t: (not t.your_turn, -joined[t.table_id]))
    return MyTablesOut(player=player, tables=tables[:limit])
