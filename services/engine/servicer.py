"""The gRPC face of :class:`~services.engine.host.TableHost`: translation only.

Domain errors become status codes here and nowhere else: an unknown table is
``NOT_FOUND``, a request the service refuses is ``INVALID_ARGUMENT``, a table of another
game ``FAILED_PRECONDITION``, a table id taken is ``ALREADY_EXISTS``, a write whose fsync
was not confirmed ``UNAVAILABLE`` (retrying its command id is safe), and so is a store
that cannot be reached or is failing over (``store.unavailable``). A refusal's shared code
(``engines.core.codes``) travels in the trailing metadata ``bw-code``. Rule violations are
not errors: ``Execute`` returns them as ``ExecuteResponse.rejected``. ``ExecuteBatch``
runs each of its commands as ``Execute`` would and returns each one's status in its
``ExecuteOutcome.failed`` instead of ending the call with it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

import grpc

from engines.core import codes
from proto import common_pb2, engine_pb2, engine_pb2_grpc
from services.engine.host import TableHost
from services.engine.refusals import BadRequest, Refused, WrongGame
from services.eventstore import (
    STORE_UNAVAILABLE,
    NotDurable,
    TableExists,
    TableNotFound,
    is_store_unavailable,
)
from services.logs import get_logger

__all__ = ["MAX_EXECUTE_BATCH", "EngineServicer"]

# Commands one ExecuteBatch call may carry (proto/engine.proto says so too).
MAX_EXECUTE_BATCH = 64

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

    async def ExecuteBatch(
        self, request: engine_pb2.ExecuteBatchRequest, context: grpc.aio.ServicerContext
    ) -> engine_pb2.ExecuteBatchResponse:
        return await _guarded(context, _execute_all(self.host, request))

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


async def _execute_all(
    host: TableHost, request: engine_pb2.ExecuteBatchRequest
) -> engine_pb2.ExecuteBatchResponse:
    if len(request.commands) > MAX_EXECUTE_BATCH:
        raise BadRequest(f"at most {MAX_EXECUTE_BATCH} commands a batch")
    # Concurrently, as the same commands sent in separate calls would run: the store
    # gathers their appends into shared round trips.
    outcomes = await asyncio.gather(*(_outcome(host.execute(c)) for c in request.commands))
    return engine_pb2.ExecuteBatchResponse(outcomes=outcomes)


async def _guarded(context: grpc.aio.ServicerContext, call: Awaitable[T]) -> T:
    try:
        return await call
    except Exception as failed:
        if not _known(failed):
            raise
        status, message, code = _status_of(failed)
        await _abort(context, status, message, code)
    raise AssertionError("unreachable: abort raises")


async def _outcome(call: Awaitable[engine_pb2.ExecuteResponse]) -> engine_pb2.ExecuteOutcome:
    """One command of a batch: its reply, or the status ``Execute`` would have ended with
    (an unexpected error too, as gRPC reports one: ``UNKNOWN``), so that the batch's
    other commands still get theirs."""
    try:
        return engine_pb2.ExecuteOutcome(reply=await call)
    except Exception as failed:
        if _known(failed):
            status, message, code = _status_of(failed)
            log.info("rpc.refused", status=status.name, code=code, reason=message)
        else:
            log.exception("execute.failed", error_type=type(failed).__name__)
            status, message = grpc.StatusCode.UNKNOWN, f"Unexpected {type(failed)}: {failed}"
            code = ""
    failure = engine_pb2.ExecuteFailure(status=status.value[0], message=message, code=code)
    return engine_pb2.ExecuteOutcome(failed=failure)


_KNOWN: tuple[type[Exception], ...] = (
    TableNotFound,
    TableExists,
    Refused,
    NotDurable,
    *STORE_UNAVAILABLE,
)


def _known(failed: Exception) -> bool:
    """Whether ``failed`` is one of the host's ``_KNOWN`` errors, or the store unavailable
    in a form redis-py did not wrap (a client broken mid-failover)."""
    return isinstance(failed, _KNOWN) or is_store_unavailable(failed)


def _status_of(failed: Exception) -> tuple[grpc.StatusCode, str, str]:
    """The status, message and shared code of a :func:`_known` error."""
    if isinstance(failed, TableNotFound):
        return grpc.StatusCode.NOT_FOUND, str(failed), codes.TABLE_NOT_FOUND.code
    if isinstance(failed, TableExists):
        return grpc.StatusCode.ALREADY_EXISTS, str(failed), "table.exists"
    if isinstance(failed, Refused):
        return _STATUS[type(failed)], failed.message, failed.code
    if isinstance(failed, NotDurable):
        # Applied but its fsync is unconfirmed: the same command id may be sent again.
        return grpc.StatusCode.UNAVAILABLE, str(failed), "store.not_durable"
    # The append is one Lua script, so a command either landed whole or not at all, and
    # its seat-scoped command id makes the client's retry safe either way.
    log.warning("store.unavailable", error_type=type(failed).__name__, error=str(failed))
    return grpc.StatusCode.UNAVAILABLE, str(failed), "store.unavailable"


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
