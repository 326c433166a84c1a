"""The gRPC face of :class:`~services.engine.host.TableHost`: translation only.

Domain errors become status codes here and nowhere else: an unknown table is
``NOT_FOUND``, a request the service refuses is ``INVALID_ARGUMENT``, a table of another
game ``FAILED_PRECONDITION``, a table id taken is ``ALREADY_EXISTS``, a write whose fsync
was not confirmed ``UNAVAILABLE`` (retrying its command id is safe), and so is a store
that cannot be reached or is failing over (``store.unavailable``). A refusal's shared code
(``engines.core.codes``) travels in the trailing metadata ``bw-code``. Rule violations are
not errors: ``Execute`` returns them as ``ExecuteResponse.rejected``.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TypeVar

import grpc

from engines.core import codes
from proto import common_pb2, engine_pb2, engine_pb2_grpc
from services.engine.host import TableHost
from services.engine.refusals import BadRequest, Refused, WrongGame
from services.eventstore import STORE_UNAVAILABLE, NotDurable, TableExists, TableNotFound
from services.logs import get_logger

__all__ = ["EngineServicer"]

T = TypeVar("T")

log = get_logger("engine.grpc")


class EngineServicer(engine_pb2_grpc.EngineServicer):
    """Each RPC hands its request to the host and maps the host's errors to status codes."""

    def __init__(self, host: TableHost) -> None:
        self.host = host

    async def CreateTable(
        self, request: engine_pb2.CreateTableRequest, context: grpc.aio.ServicerContext
    ) -> engine_pb2.CreateTableResponse:
        return await _guarded(context, self.host.create_table(request))

    async def Execute(
        self, request: common_pb2.CommandEnvelope, context: grpc.aio.ServicerContext
    ) -> engine_pb2.ExecuteResponse:
        return await _guarded(context, self.host.execute(request))

    async def LegalCommands(
        self, request: engine_pb2.LegalCommandsRequest, context: grpc.aio.ServicerContext
    ) -> engine_pb2.LegalCommandsResponse:
        return await _guarded(context, self.host.legal_commands(request))

    async def GetView(
        self, request: engine_pb2.ViewRequest, context: grpc.aio.ServicerContext
    ) -> engine_pb2.ViewResponse:
        return await _guarded(context, self.host.view(request))

    async def EventsAfter(
        self, request: engine_pb2.EventsAfterRequest, context: grpc.aio.ServicerContext
    ) -> engine_pb2.EventsResponse:
        return await _guarded(context, self.host.events_after(request))

    async def Replay(
        self, request: engine_pb2.ReplayRequest, context: grpc.aio.ServicerContext
    ) -> engine_pb2.ViewResponse:
        return await _guarded(context, self.host.replay(request))

    async def Audit(
        self, request: engine_pb2.AuditRequest, context: grpc.aio.ServicerContext
    ) -> engine_pb2.AuditResponse:
        return await _guarded(context, self.host.audit(request))


async def _guarded(context: grpc.aio.ServicerContext, call: Awaitable[T]) -> T:
    try:
        return await call
    except TableNotFound as missing:
        await _abort(context, grpc.StatusCode.NOT_FOUND, str(missing), codes.TABLE_NOT_FOUND.code)
    except TableExists as taken:
        await _abort(context, grpc.StatusCode.ALREADY_EXISTS, str(taken), "table.exists")
    except Refused as refused:
        await _abort(context, _STATUS[type(refused)], refused.message, refused.code)
    except NotDurable as unconfirmed:
        # Applied but its fsync is unconfirmed: the same command id may be sent again.
        await _abort(context, grpc.StatusCode.UNAVAILABLE, str(unconfirmed), "store.not_durable")
    except STORE_UNAVAILABLE as down:
        # The append is one Lua script, so a command either landed whole or not at all, and
        # its seat-scoped command id makes the client's retry safe either way.
        log.warning("store.unavailable", error_type=type(down).__name__, error=str(down))
        await _abort(context, grpc.StatusCode.UNAVAILABLE, str(down), "store.unavailable")
    raise AssertionError("unreachable: abort raises")


_STATUS: dict[type[Refused], grpc.StatusCode] = {
    Refused: grpc.StatusCode.INVALID_ARGUMENT,
    BadRequest: grpc.StatusCode.INVALID_ARGUMENT,
    WrongGame: grpc.StatusCode.FAILED_PRECONDITION,
}


async def _abort(
    context: grpc.aio.ServicerContext, status: grpc.StatusCode, message: str, code: str
) -> None:
    log.info("rpc.refused", status=status.name, code=code, reason=message)
    await context.abort(status, message, trailing_metadata=((codes.CODE_METADATA, code),))
