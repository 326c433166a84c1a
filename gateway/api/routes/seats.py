"""Seats: take one, leave it, rename it, re-issue its token; start a table; a rematch.

Who may do what (see :mod:`gateway.seating`):

- take a seat: anyone (a new guest, who gets the seat's token), or an app for one of its
  users (``X-App-Key`` + ``X-App-User``; no token: the app acts for it); an unlisted table
  asks for its invite code;
- leave a seat before the start: its player, or the app that seated it; the host may
  remove anyone;
- rename a seat: its player, or the app that seated it;
- re-issue a seat's token: its player (with the old token, or through its app), or the
  app that seated it; the old token is refused from then on;
- start early with bots: the host (the player who opened the table, or its app);
- ask for a rematch of a finished table: any of its players.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path

from gateway import seating
from gateway.api.bodies import JsonRoute
from gateway.api.deps import GatewayDep, TableAtDep, TableCaller, not_started
from gateway.api.reads import finished
from gateway.errors import ApiError
from gateway.schemas.requests import ClaimIn, RenameIn, StartIn
from gateway.schemas.responses import ErrorOut, SeatClaimed, SeatingOut, SeatOut, TokenOut
from services.seating import Roster

__all__ = ["router"]

router = APIRouter(prefix="/v1", tags=["seats"], route_class=JsonRoute)

_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorOut, "description": "`auth.missing`: this needs a seat or an app's user"},
    403: {
        "model": ErrorOut,
        "description": "`auth.invalid`, `app.invalid`, `auth.ambiguous`, `invite.invalid`,"
        " `seat.not_yours`, `host.only`",
    },
    404: {"model": ErrorOut, "description": "`table.not_found`, `seat.not_found`"},
    409: {
        "model": ErrorOut,
        "description": "`seat.taken`, `table.full`, `table.started`, `player.seated`,"
        " `table.not_started`, `table.not_finished`",
    },
    413: {"model": ErrorOut, "description": "`request.too_large`"},
    422: {"model": ErrorOut, "description": "`request.invalid`, `user.invalid`, `bots.unknown`"},
    429: {"model": ErrorOut, "description": "`rate.limited`"},
    503: {"model": ErrorOut, "description": "`engine.unavailable`, `store.unavailable`"},
}
SeatPath = Annotated[int, Path(ge=0, le=15, description="The seat, counted from 0.")]


def _seating(roster: Roster) -> SeatingOut:
    return SeatingOut(
        table_id=roster.table_id,
        game=roster.game,
        state=roster.state,
        open_seats=len(roster.open_seats),
        seating=[SeatOut(**seat) for seat in roster.public()],
    )


@router.post(
    "/tables/{table_id}/seats",
    status_code=201,
    response_model=SeatClaimed,
    responses=_ERRORS,
    summary="Take a seat at an open table (the given one, or any open one)",
    description=(
        "A person gets the seat's token (shown once). An app takes it for its user"
        " (`X-App-Key` + `X-App-User`) and gets no token: it acts for the user with its key."
        " When this was the last open seat the game starts (`state: started`)."
    ),
)
async def claim_seat(body: ClaimIn, at: TableAtDep, gateway: GatewayDep) -> SeatClaimed:
    claimed = await seating.claim(gateway, at, body.seat, body.name, body.invite_code)
    return SeatClaimed(
        table_id=at.table_id, seat=claimed.seat, token=claimed.token, state=claimed.roster.state
    )


@router.delete(
    "/tables/{table_id}/seats/{seat}",
    response_model=SeatingOut,
    responses=_ERRORS,
    summary="Leave a seat before the game starts (the host may remove a player)",
)
async def leave_seat(seat: SeatPath, at: TableAtDep, gateway: GatewayDep) -> SeatingOut:
    return _seating(await seating.leave(gateway, at, seat))


@router.patch(
    "/tables/{table_id}/seats/{seat}",
    response_model=SeatingOut,
    responses=_ERRORS,
    summary="Change a seat's display name",
)
async def rename_seat(
    body: RenameIn, seat: SeatPath, at: TableAtDep, gateway: GatewayDep
) -> SeatingOut:
    return _seating(await seating.rename(gateway, at, seat, body.name))


@router.post(
    "/tables/{table_id}/seats/{seat}/token",
    response_model=TokenOut,
    responses=_ERRORS,
    summary="Re-issue a seat's token; the old one is refused from now on",
)
async def reissue_token(seat: SeatPath, at: TableAtDep, gateway: GatewayDep) -> TokenOut:
    token = await seating.reissue(gateway, at, seat)
    return TokenOut(table_id=at.table_id, seat=seat, token=token)


@router.post(
    "/tables/{table_id}/start",
    response_model=SeatingOut,
    responses=_ERRORS,
    summary="Start an open table now, the game's bots in its open seats (the host only)",
)
async def start_table(body: StartIn, at: TableAtDep, gateway: GatewayDep) -> SeatingOut:
    return _seating(await seating.start(gateway, at, body.bots))


@router.post(
    "/tables/{table_id}/rematch",
    status_code=201,
    response_model=SeatClaimed,
    responses=_ERRORS,
    summary="Play a finished table again: a new table for the same players",
    description=(
        "The first player to ask opens the rematch: the same game, options and seats, bots"
        " where there were bots, and every other seat kept for its player, who takes it by"
        " asking the same. It starts when every player has. The reply names the new table"
        " and your seat there (with its token, unless an app acts for you)."
    ),
)
async def rematch(at: TableAtDep, gateway: GatewayDep) -> SeatClaimed:
    if at.meta is None:
        raise not_started(at)
    done, _ = await finished(gateway, TableCaller(at.table_id, at.meta, at.backend, at.seat))
    if not done:
        raise ApiError(409, "table.not_finished", "A rematch is offered once the game has ended.")
    claimed = await seating.rematch(gateway, at)
    return SeatClaimed(
        table_id=claimed.roster.table_id,
        seat=claimed.seat,
        token=claimed.token,
        state=claimed.roster.state,
    )
