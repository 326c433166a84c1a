"""Tables: create one, list the lobby, read a view, ask for the legal commands."""

from __future__ import annotations

import binascii
import json
import secrets
from typing import Annotated, Any

import structlog
from fastapi import APIRouter, Query

from engines.core.contract import GameInfo
from engines.core.options import OptionError, resolve_options
from gateway.api.bodies import JsonRoute
from gateway.api.deps import GatewayDep, SeatedDep, TableCallerDep
from gateway.api.reads import view_for
from gateway.errors import ApiError
from gateway.lobby import list_tables
from gateway.schemas.requests import TableCreate
from gateway.schemas.responses import (
    ErrorOut,
    LegalCommandsOut,
    LobbyOut,
    TableCreated,
    TableView,
)
from gateway.seats import new_tokens, token_hash
from proto import engine_pb2

__all__ = ["router"]

router = APIRouter(prefix="/v1", tags=["tables"], route_class=JsonRoute)
log = structlog.get_logger("gateway")

_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (401, 403, 404, 409, 413, 422, 429, 503)
}
MinVersion = Annotated[
    int | None,
    Query(ge=0, le=2**63 - 1, description="Wait (briefly) until the view reflects this version."),
]


def checked_options(info: GameInfo, options: dict[str, Any]) -> dict[str, str]:
    """The options as the engine takes them (JSON-encoded), or 422 ``option.unknown`` /
    ``option.invalid`` naming the option."""
    try:
        resolve_options(info.options, options)
    except OptionError as wrong:
        details = {"option": wrong.option, "options": ",".join(s.name for s in info.options)}
        raise ApiError(422, wrong.code, f"{info.title}: {wrong.message}.", details) from None
    return {name: json.dumps(value) for name, value in options.items()}


def checked_seed(seed: str | None) -> bytes:
    if seed is None:
        return b""
    try:
        raw = bytes.fromhex(seed)
    except (ValueError, binascii.Error):
        raise ApiError(422, "seed.invalid", "The seed must be hex.") from None
    if not 16 <= len(raw) <= 64:
        raise ApiError(422, "seed.invalid", "The seed must be 16 to 64 bytes.")
    return raw


@router.post(
    "/tables",
    status_code=201,
    response_model=TableCreated,
    responses=_ERRORS,
    summary="Open a table; returns one secret token per seat (shown only once)",
)
async def create_table(body: TableCreate, gateway: GatewayDep) -> TableCreated:
    backend = gateway.backends.get(body.game)
    info = backend.engine.info
    if not info.min_seats <= body.seats <= info.max_seats:
        raise ApiError(
            422,
            "seats.invalid",
            f"{info.title} takes {info.min_seats} to {info.max_seats} seats.",
            {"min_seats": str(info.min_seats), "max_seats": str(info.max_seats)},
        )
    options = checked_options(info, body.options)
    seed = checked_seed(body.seed)
    table_id = secrets.token_hex(8)
    tokens = new_tokens(body.seats)
    reply = await backend.stub.CreateTable(
        engine_pb2.CreateTableRequest(
            table_id=table_id,
            seats=body.seats,
            options=options,
            seed=seed,
            token_hashes=[token_hash(t) for t in tokens],
        ),
        timeout=gateway.backends.timeout,
    )
    log.info(
        "table.created", table_id=table_id, game=body.game, seats=body.seats, version=reply.version
    )
    return TableCreated(
        table_id=table_id,
        game=body.game,
        seats=body.seats,
        tokens=tokens,
        seed_commitment=reply.meta.seed_commitment.hex(),
        version=reply.version,
    )


@router.get(
    "/tables",
    response_model=LobbyOut,
    responses=_ERRORS,
    summary="The lobby: tables newest first, a page at a time",
)
async def lobby(
    gateway: GatewayDep,
    game: Annotated[str | None, Query(max_length=32, description="Only this game.")] = None,
    status: Annotated[
        str | None, Query(pattern="^(active|finished)$", description="Only active or finished.")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=1000, description="Tables per page.")] = 100,
    cursor: Annotated[
        str | None,
        Query(max_length=200, description="The next_cursor of the previous page."),
    ] = None,
) -> LobbyOut:
    games = [gateway.backends.get(game).game] if game else gateway.backends.names()
    return await list_tables(gateway.store.redis, games, status, limit, cursor)


@router.get(
    "/tables/{table_id}",
    response_model=TableView,
    responses=_ERRORS,
    summary="The caller's view: a seat's (Bearer token) or the spectator's",
)
async def table_view(
    caller: TableCallerDep, gateway: GatewayDep, min_version: MinVersion = None
) -> TableView:
    current = await view_for(gateway, caller, min_version)
    return TableView(
        table_id=caller.table_id,
        game=caller.meta.game,
        seats=caller.meta.seats,
        seat=caller.seat,
        version=current.version,
        view=current.view,
        status=current.status,
    )


@router.get(
    "/tables/{table_id}/legal-commands",
    response_model=LegalCommandsOut,
    responses=_ERRORS,
    summary="Every command the caller's seat may send now",
)
async def legal_commands(caller: SeatedDep, gateway: GatewayDep) -> LegalCommandsOut:
    reply = await caller.backend.stub.LegalCommands(
        engine_pb2.LegalCommandsRequest(table_id=caller.table_id, seat=caller.seat),
        timeout=gateway.backends.timeout,
    )
    return LegalCommandsOut(
        table_id=caller.table_id,
        seat=caller.seat,
        version=reply.version,
        commands=[json.loads(c) for c in reply.commands_json],
    )
