"""Shared dependencies: the gateway's state, the table a request names, and its caller.

The caller is a seat (``Authorization: Bearer <seat token>``), an app acting for one of
its users (``X-App-Key`` and ``X-App-User``, see :mod:`gateway.identity`), or a spectator.
A token that names no seat of the table is refused with 403, never downgraded to a
spectator, so a client with a wrong token learns it at once. An app's user without a seat
at the table reads it as a spectator and may not send commands there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated

import structlog
from fastapi import Depends, Path, Request
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from gateway.engines import GameBackend, GameBackends
from gateway.errors import ApiError
from gateway.identity import APP_KEY_HEADER, APP_USER_HEADER, Caller, caller_of
from gateway.live import LiveFeeds, Projections, SharedCalls, StreamSlots
from gateway.metrics import GatewayMetrics
from gateway.middleware import ROSTER_SCOPE_KEY, VIEWS_SCOPE_KEY, ViewsRead
from gateway.ratelimits import RateLimits
from gateway.seating import ensure_started
from gateway.seats import seat_of, token_digest, token_table
from gateway.settings import Settings
from gateway.store import ReadStore
from proto import common_pb2
from services.seating import OPEN, STARTING, Roster

__all__ = [
    "TABLE_ID",
    "Gateway",
    "GatewayDep",
    "Seated",
    "SeatedDep",
    "TableAt",
    "TableAtDep",
    "TableCaller",
    "TableCallerDep",
    "TableIdPath",
    "app_key_scheme",
    "bearer_scheme",
    "not_started",
    "player_of",
    "seat_of_request",
    "table_at_request",
]

TABLE_ID_PATTERN = r"^[A-Za-z0-9_\-]{1,64}$"
# The same, for the routes that check a table id themselves (plain requests).
TABLE_ID = re.compile(TABLE_ID_PATTERN)

# Declared for the OpenAPI "Authorize" button; the raw header is read below so that a
# header in another scheme is refused instead of ignored.
bearer_scheme = HTTPBearer(
    auto_error=False, description="A seat token (returned when the seat was taken or created)."
)
app_key_scheme = APIKeyHeader(
    name="X-App-Key",
    scheme_name="AppKey",
    auto_error=False,
    description="An app's API key; with `X-App-User` the app acts for that user.",
)


@dataclass
class Gateway:
    """What every request needs, built once when the app starts."""

    settings: Settings
    store: ReadStore
    backends: GameBackends
    metrics: GatewayMetrics
    live: LiveFeeds
    shared: SharedCalls
    limits: RateLimits
    streams: StreamSlots
    players_live: LiveFeeds
    projections: Projections


async def get_gateway(request: Request) -> Gateway:
    gateway: Gateway = request.app.state.gateway
    return gateway


GatewayDep = Annotated[Gateway, Depends(get_gateway)]
TableIdPath = Annotated[
    str, Path(pattern=TABLE_ID_PATTERN, description="The table id returned at creation.")
]


@dataclass(frozen=True, slots=True)
class TableAt:
    """A request about one table, started or still open: its seating, its meta once the
    game exists, its game's backend and who is asking (``seat``: the caller's seat here)."""

    table_id: str
    roster: Roster | None
    meta: common_pb2.TableMeta | None
    backend: GameBackend
    seat: int | None
    who: Caller
    gateway: Gateway
    # A view of this table read with the rate limits, if any (for whichever viewer the
    # gate guessed: check its name before serving it).
    views: ViewsRead | None = None

    @property
    def player(self) -> str | None:
        """The caller as a player: its seat's player, or the player an app acts for."""
        if self.seat is not None and self.roster is not None:
            return self.roster.seats[self.seat].player
        return self.who.player


async def table_at_request(request: Request, table_id: str) -> TableAt:
    """The table a request names (``table_id``: a valid id) and who asks: what the
    ``TableAtDep`` dependency solves to."""
    gateway: Gateway = request.app.state.gateway
    who = await caller_of(request, gateway.store.apps)
    # Read by the request gate with the rate limits, in the same round trip, when it could.
    prefetched = request.scope.get(ROSTER_SCOPE_KEY)
    if prefetched is not None and prefetched[0] == table_id:
        roster: Roster | None = prefetched[1]
    else:
        roster = await gateway.store.seating.get(table_id)
    meta: common_pb2.TableMeta | None = None
    if roster is None or roster.state != OPEN:
        if roster is not None and roster.state == STARTING:
            roster = await ensure_started(gateway, roster)
        meta = await gateway.store.meta(table_id)
    game = roster.game if roster is not None else meta.game if meta is not None else ""
    backend = gateway.backends.get(game)
    seat = _seat(who, roster, meta)
    structlog.contextvars.bind_contextvars(table_id=table_id, seat=seat)
    views: ViewsRead | None = request.scope.get(VIEWS_SCOPE_KEY)
    if views is not None and views.table_id != table_id:
        views = None
    return TableAt(table_id, roster, meta, backend, seat, who, gateway, views)


# Each dependency below is one call of FastAPI's solver (plus the two credential schemes,
# declared for the OpenAPI document), not a chain of nested ones: solving is a good part
# of the gateway's CPU per request.
BearerScheme = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer_scheme)]
AppKeyScheme = Annotated[str | None, Depends(app_key_scheme)]


async def table_at(
    request: Request,
    table_id: TableIdPath,
    _bearer_scheme: BearerScheme,
    _app_scheme: AppKeyScheme,
) -> TableAt:
    return await table_at_request(request, table_id)


def _seat(who: Caller, roster: Roster | None, meta: common_pb2.TableMeta | None) -> int | None:
    """The caller's seat: a seat token must be one of this table's (403 otherwise); an app's
    user has the seat it took, if any."""
    if who.token is not None:
        seat: int | None = None
        if who.token:
            if roster is not None:
                seat = roster.seat_of_token(token_digest(who.token))
            elif meta is not None:
                seat = seat_of(who.token, meta.token_hashes)
        if seat is None:
            raise ApiError(403, "auth.invalid", "That token is not a seat of this table.")
        return seat
    if who.user is not None and roster is not None and who.player is not None:
        return roster.seat_of_player(who.player)
    return None


TableAtDep = Annotated[TableAt, Depends(table_at)]


async def player_of(gateway: Gateway, who: Caller) -> str:
    """The player a request speaks for, across tables: an app's user (``X-App-Key`` +
    ``X-App-User``), or the player of the seat any one of its tokens names."""
    if who.app is not None:
        if who.user is None:
            raise ApiError(401, "auth.missing", "Name the app's user with X-App-User.")
        player = who.player
        assert player is not None
        return player
    if not who.token:
        raise ApiError(
            401,
            "auth.missing",
            "Send one of your seat tokens as 'Authorization: Bearer <token>', or act through"
            " an app (X-App-Key and X-App-User).",
        )
    table_id = token_table(who.token)
    roster = await gateway.store.seating.get(table_id) if table_id else None
    seat = roster.seat_of_token(token_digest(who.token)) if roster else None
    if roster is None or seat is None:
        raise ApiError(403, "auth.invalid", "That token is not a seat of any table.")
    return roster.seats[seat].player


@dataclass(frozen=True, slots=True)
class TableCaller:
    """A request about one started table: its meta, its game's backend and who is asking."""

    table_id: str
    meta: common_pb2.TableMeta
    backend: GameBackend
    seat: int | None
    who: Caller | None = None


def _started(at: TableAt) -> TableCaller:
    if at.meta is None:
        raise not_started(at)
    return TableCaller(at.table_id, at.meta, at.backend, at.seat, at.who)


async def table_caller(
    request: Request,
    table_id: TableIdPath,
    _bearer_scheme: BearerScheme,
    _app_scheme: AppKeyScheme,
) -> TableCaller:
    return _started(await table_at_request(request, table_id))


async def still_seated(gateway: Gateway, caller: TableCaller) -> bool:
    """Whether the credential that opened a long request still names its seat: a token
    re-issued since (the old one revoked), or a seat its app user left, no longer does."""
    if caller.seat is None or caller.who is None:
        return True
    roster = await gateway.store.seating.get(caller.table_id)
    try:
        return _seat(caller.who, roster, caller.meta) == caller.seat
    except ApiError:
        return False


async def still_player(gateway: Gateway, who: Caller, player: str) -> bool:
    """Whether the credentials that opened a long request still speak for ``player``: an
    app revoked since, or a seat token re-issued (or its seat left), no longer do."""
    if who.app is not None:
        app = await gateway.store.apps.get(who.app.app_id)
        return app is not None and app.active
    try:
        return await player_of(gateway, who) == player
    except ApiError:
        return False


def not_started(at: TableAt) -> ApiError:
    """409 ``table.not_started``: the game has no log before its seats are filled."""
    waiting = len(at.roster.open_seats) if at.roster is not None else 0
    return ApiError(
        409,
        "table.not_started",
        f"The game has not started: {waiting} seat{'s are' if waiting != 1 else ' is'} still"
        " open (see /v1/tables/{id} for its seats).",
        {"open_seats": str(waiting)},
    )


TableCallerDep = Annotated[TableCaller, Depends(table_caller)]


@dataclass(frozen=True, slots=True)
class Seated:
    """A request that must come from a seat."""

    table_id: str
    meta: common_pb2.TableMeta
    backend: GameBackend
    seat: int
    gateway: Gateway


async def seated(
    request: Request,
    table_id: TableIdPath,
    _bearer_scheme: BearerScheme,
    _app_scheme: AppKeyScheme,
) -> Seated:
    return await seat_of_request(request, table_id)


async def seat_of_request(request: Request, table_id: str) -> Seated:
    """The seat a request about ``table_id`` (a valid id) comes from: 401, 403, 404 or 409
    when there is none (what the ``SeatedDep`` dependency solves to)."""
    at = await table_at_request(request, table_id)
    caller = _started(at)
    if caller.seat is None:
        if request.headers.get(APP_USER_HEADER) is not None:
            raise ApiError(403, "auth.not_seated", "That user has no seat at this table.")
        raise ApiError(
            401,
            "auth.missing",
            "Send your seat token as 'Authorization: Bearer <token>', or act through an app"
            f" ({APP_KEY_HEADER} and {APP_USER_HEADER}).",
        )
    return Seated(caller.table_id, caller.meta, caller.backend, caller.seat, at.gateway)


SeatedDep = Annotated[Seated, Depends(seated)]
