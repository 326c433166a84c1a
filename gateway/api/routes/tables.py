"""Tables: create one, list the lobby, read a view, ask for the legal commands."""

from __future__ import annotations

import binascii
import json
from typing import Annotated, Any

import orjson
import structlog
from fastapi import APIRouter, Depends, Query, Request, Response

from engines.core.canonical import canonical_json
from engines.core.contract import GameInfo
from engines.core.game import MoveWords, menus
from engines.core.options import OptionError, resolve_options
from gateway import seating
from gateway.api.bodies import JsonRoute, plain_requests
from gateway.api.deps import (
    TABLE_ID,
    GatewayDep,
    SeatedDep,
    TableAtDep,
    TableCaller,
    app_key_scheme,
    table_at_request,
)
from gateway.api.reads import ViewAt, view_for
from gateway.errors import ApiError
from gateway.identity import caller_of
from gateway.lobby import list_tables
from gateway.schemas.requests import ClockIn, TableCreate
from gateway.schemas.responses import (
    ErrorOut,
    LegalCommandsOut,
    LobbyOut,
    MenuOut,
    MoveOut,
    SeatOut,
    TableCreated,
    TableView,
)
from proto import engine_pb2
from services.projector.lobby import CURSOR_PATTERN
from services.seating import OPEN

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


def checked_clock(engine: Any, clock: ClockIn | None) -> dict[str, Any]:
    """The clock as the seating keeps it (empty: none), or 422 ``clock.invalid``."""
    if clock is None:
        return {}
    if not clock.turn_seconds and not clock.total_seconds:
        raise ApiError(
            422, "clock.invalid", "A clock limits each turn (turn_seconds), the game, or both."
        )
    if clock.on_timeout == "bot" and not getattr(engine, "bots", None):
        raise ApiError(422, "clock.invalid", "This game has no bot to play a turn that timed out.")
    return clock.model_dump()


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
    summary="Create a table: every seat's token at once, or open seats players claim",
    description=(
        "Without `open`, the game starts now and one secret token per seat comes back (shown"
        " once). With `open: true` the table waits in the lobby (`GET /v1/tables?status=open`)"
        " for players to claim its seats; the caller takes seat 0 and is the host, who may"
        " start it early with bots. An app (`X-App-Key`) opens tables for one of its users"
        " (`X-App-User`) or for nobody in particular."
    ),
)
async def create_table(
    body: TableCreate,
    gateway: GatewayDep,
    request: Request,
    _app_scheme: Annotated[str | None, Depends(app_key_scheme)],
) -> TableCreated:
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
    clock = checked_clock(backend.engine, body.clock)
    seed = checked_seed(body.seed)
    who = await caller_of(request, gateway.store.apps)
    if body.open:
        if seed:
            raise ApiError(
                422, "seed.invalid", "An open table draws its seed when its game starts."
            )
        roster, claimed, invite = await seating.open_table(
            gateway,
            who,
            body.game,
            body.seats,
            options,
            listed=not body.unlisted,
            take_seat=body.take_seat,
            name=body.name,
            clock=clock,
        )
        return TableCreated(
            table_id=roster.table_id,
            game=body.game,
            seats=body.seats,
            tokens=[],
            seed_commitment="",
            version=0,
            state="open" if roster.state == OPEN else "started",
            seat=claimed.seat if claimed else None,
            token=claimed.token if claimed else None,
            invite_code=invite,
        )
    roster, tokens, version, commitment = await seating.create_full(
        gateway, who, body.game, body.seats, options, seed, not body.unlisted, clock
    )
    log.info(
        "table.created", table_id=roster.table_id, game=body.game, seats=body.seats, version=version
    )
    return TableCreated(
        table_id=roster.table_id,
        game=body.game,
        seats=body.seats,
        tokens=tokens,
        seed_commitment=commitment.hex(),
        version=version,
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
        str | None,
        Query(
            pattern="^(open|active|finished)$",
            description="`open`: waiting for players, with seats open (the open-seats filter);"
            " `active`: playing; `finished`.",
        ),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=1000, description="Tables per page.")] = 100,
    cursor: Annotated[
        str | None,
        Query(
            pattern=CURSOR_PATTERN,
            description="The next_cursor of the previous page (a position: creation time,"
            " then table id).",
        ),
    ] = None,
) -> LobbyOut:
    games = [gateway.backends.get(game).game] if game else gateway.backends.names()
    return await list_tables(gateway.store.redis, games, status, limit, cursor)


# The longest min_version read plainly: any number of up to 18 digits is within its bounds
# (FastAPI judges longer ones).
_PLAIN_VERSION_DIGITS = 18


async def _plain_view(request: Request) -> Response | None:
    """``table_view`` of a started table for a well-formed request (see
    ``plain_requests``): a valid table id and a ``min_version``, if any, of digits only."""
    table_id = request.path_params["table_id"]
    wanted = request.query_params.get("min_version")
    if not TABLE_ID.fullmatch(table_id) or (
        wanted is not None
        and not (wanted.isascii() and wanted.isdigit() and len(wanted) <= _PLAIN_VERSION_DIGITS)
    ):
        return None
    at = await table_at_request(request, table_id)
    if at.meta is None:
        return None
    view = await table_view(at, int(wanted) if wanted is not None else None)
    assert isinstance(view, Response)  # a started table's view is built as JSON
    return view


@router.get(
    "/tables/{table_id}",
    response_model=TableView,
    responses=_ERRORS,
    summary="The caller's view: a seat's (Bearer token) or the spectator's",
)
@plain_requests(_plain_view)
async def table_view(at: TableAtDep, min_version: MinVersion = None) -> TableView | Response:
    seats = [SeatOut(**seat) for seat in at.roster.public()] if at.roster else []
    if at.meta is None:
        roster = at.roster
        assert roster is not None  # a table without meta is an open one
        return TableView(
            table_id=at.table_id,
            game=roster.game,
            seats=len(roster.seats),
            seat=at.seat,
            version=0,
            view={},
            status=roster.lobby_status(),
            state=roster.state,
            seating=seats,
        )
    caller = TableCaller(at.table_id, at.meta, at.backend, at.seat)
    current = await view_for(at.gateway, caller, min_version, at.views)
    return Response(_view_body(caller, current, seats), media_type="application/json")


def _view_body(caller: TableCaller, current: ViewAt, seats: list[SeatOut]) -> bytes:
    """The busiest read (after every command, with min_version) as TableView's JSON: its
    parts are already checked, and the view goes out as the JSON text it was stored as,
    never parsed. (Names are printable, so no lone surrogate reaches orjson.)"""
    return orjson.dumps(
        {
            "table_id": caller.table_id,
            "game": caller.meta.game,
            "seats": caller.meta.seats,
            "seat": caller.seat,
            "version": current.version,
            "view": orjson.Fragment(current.view_text),
            "status": current.status,
            "state": "started",
            "seating": [seat.model_dump() for seat in seats],
        }
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
    commands = [json.loads(c) for c in reply.commands_json]
    words = [MoveWords(w.group, w.text) for w in reply.words]
    if len(words) != len(commands):
        # An engine service from before readable moves (a rolling upgrade): plain words.
        words = [MoveWords("Moves", canonical_json(c)) for c in commands]
    return LegalCommandsOut(
        table_id=caller.table_id,
        seat=caller.seat,
        version=reply.version,
        commands=commands,
        moves=[
            MoveOut(command=c, group=w.group, text=w.text)
            for c, w in zip(commands, words, strict=True)
        ],
        menus=[MenuOut(title=title, moves=members) for title, members in menus(words)],
    )
