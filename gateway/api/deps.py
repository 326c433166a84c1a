"""Shared dependencies: the gateway's state, the table a request names, and its caller.

The caller is a seat (``Authorization: Bearer <seat token>``) or a spectator (no header).
A header that names no seat of the table is refused with 403, never downgraded to a
spectator, so a client with a wrong token learns it at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import structlog
from fastapi import Depends, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from gateway.engines import GameBackend, GameBackends
from gateway.errors import ApiError
from gateway.live import LiveTables, SharedCalls, StreamSlots
from gateway.metrics import GatewayMetrics
from gateway.ratelimits import RateLimits
from gateway.seats import bearer_token, seat_of
from gateway.settings import Settings
from gateway.store import ReadStore
from proto import common_pb2

__all__ = [
    "Gateway",
    "GatewayDep",
    "Seated",
    "SeatedDep",
    "TableCaller",
    "TableCallerDep",
    "TableIdPath",
]

TABLE_ID_PATTERN = r"^[A-Za-z0-9_\-]{1,64}$"

# Declared for the OpenAPI "Authorize" button; the raw header is read below so that a
# header in another scheme is refused instead of ignored.
_bearer = HTTPBearer(auto_error=False, description="The seat token returned at table creation.")


@dataclass
class Gateway:
    """What every request needs, built once when the app starts."""

    settings: Settings
    store: ReadStore
    backends: GameBackends
    metrics: GatewayMetrics
    live: LiveTables
    shared: SharedCalls
    limits: RateLimits
    streams: StreamSlots


async def get_gateway(request: Request) -> Gateway:
    gateway: Gateway = request.app.state.gateway
    return gateway


GatewayDep = Annotated[Gateway, Depends(get_gateway)]
TableIdPath = Annotated[
    str, Path(pattern=TABLE_ID_PATTERN, description="The table id returned at creation.")
]


@dataclass(frozen=True, slots=True)
class TableCaller:
    """A request about one table: its meta, its game's backend and who is asking."""

    table_id: str
    meta: common_pb2.TableMeta
    backend: GameBackend
    seat: int | None


async def table_caller(
    request: Request,
    table_id: TableIdPath,
    gateway: GatewayDep,
    _: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> TableCaller:
    meta = await gateway.store.meta(table_id)
    backend = gateway.backends.get(meta.game)
    token = bearer_token(request.headers.get("authorization"))
    seat: int | None = None
    if token is not None:
        seat = seat_of(token, meta.token_hashes) if token else None
        if seat is None:
            raise ApiError(403, "auth.invalid", "That token is not a seat of this table.")
    structlog.contextvars.bind_contextvars(table_id=table_id, seat=seat)
    return TableCaller(table_id, meta, backend, seat)


TableCallerDep = Annotated[TableCaller, Depends(table_caller)]


@dataclass(frozen=True, slots=True)
class Seated:
    """A request that must come from a seat."""

    table_id: str
    meta: common_pb2.TableMeta
    backend: GameBackend
    seat: int


async def seated(caller: TableCallerDep) -> Seated:
    if caller.seat is None:
        raise ApiError(
            401, "auth.missing", "Send your seat token as 'Authorization: Bearer <token>'."
        )
    return Seated(caller.table_id, caller.meta, caller.backend, caller.seat)


SeatedDep = Annotated[Seated, Depends(seated)]
