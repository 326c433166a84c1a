"""Commands to one engine service coalesced into fewer gRPC calls (group commit).

Each gRPC call costs both processes a fixed share of CPU (the call's own machinery, the
wake-ups of gRPC's threads), about as much as deciding and appending the command itself.
So a command goes at once when no call to its engine is on its way, alone, by
``Execute``; the commands that arrive while one is on its way wait for it and then go
together, by ``ExecuteBatch``. Under load the batches grow by themselves; an idle
gateway adds no wait.

Each command keeps what it had when sent alone: the engine decides and appends it on
its own (its own atomic append and idempotency record) and renders its reply for its
own seat; a refusal is its own; a status ``Execute`` would have ended with is raised as
the same :class:`grpc.aio.AioRpcError`, and a failed batch call fails each of its
commands with that call's error, so the gateway answers every one as before. No
command is held past its deadline: a batch's deadline is its earliest command's.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import grpc

from engines.core import codes
from proto import common_pb2, engine_pb2, engine_pb2_grpc

__all__ = ["MAX_BATCH", "CommandBatcher"]

# Commands one call carries at most (the engine service refuses more); more wait.
MAX_BATCH = 64

_STATUS_BY_NUMBER = {status.value[0]: status for status in grpc.StatusCode}


@dataclass(frozen=True, slots=True)
class _Waiting:
    envelope: common_pb2.CommandEnvelope
    deadline: float
    reply: asyncio.Future[engine_pb2.ExecuteResponse]


class CommandBatcher:
    """``await batcher.execute(envelope, timeout)`` answers as ``stub.Execute`` would;
    at most one call to the engine is on its way at a time."""

    def __init__(self, stub: engine_pb2_grpc.EngineStub, max_batch: int = MAX_BATCH) -> None:
        self.stub = stub
        self.max_batch = max_batch
        self._waiting: list[_Waiting] = []
        self._sending: asyncio.Task[None] | None = None
        # An engine service without ExecuteBatch (an older one mid-deploy) gets each
        # command by Execute.
        self._batches_served = True

    async def execute(
        self, envelope: common_pb2.CommandEnvelope, timeout: float
    ) -> engine_pb2.ExecuteResponse:
        loop = asyncio.get_running_loop()
        waiting = _Waiting(envelope, loop.time() + timeout, loop.create_future())
        self._waiting.append(waiting)
        if self._sending is None:
            self._send_next()
        return await waiting.reply

    def _send_next(self) -> None:
        batch = [w for w in self._waiting[: self.max_batch] if not w.reply.done()]
        del self._waiting[: self.max_batch]
        if not batch:
            self._sending = None
            return
        self._sending = asyncio.create_task(self._send(batch))
        self._sending.add_done_callback(lambda _: self._send_next())

    async def _send(self, batch: list[_Waiting]) -> None:
        try:
            await self._call(batch)
        finally:
            # Cancelled (the gateway stopping): its callers are cancelled with it.
            for waiting in batch:
                waiting.reply.cancel()

    async def _call(self, batch: list[_Waiting]) -> None:
        timeout = max(min(w.deadline for w in batch) - asyncio.get_running_loop().time(), 0.0)
        try:
            if len(batch) == 1 or not self._batches_served:
                await asyncio.gather(*(self._send_alone(w, timeout) for w in batch))
                return
            request = engine_pb2.ExecuteBatchRequest(commands=[w.envelope for w in batch])
            reply = await self.stub.ExecuteBatch(request, timeout=timeout)
        except grpc.aio.AioRpcError as failed:
            if failed.code() == grpc.StatusCode.UNIMPLEMENTED and self._batches_served:
                self._batches_served = False
                await asyncio.gather(*(self._send_alone(w, timeout) for w in batch))
                return
            _fail(batch, failed)
            return
        except Exception as failed:
            _fail(batch, failed)
            return
        for waiting, outcome in zip(batch, reply.outcomes, strict=True):
            if waiting.reply.done():
                continue  # its caller was cancelled
            if outcome.WhichOneof("outcome") == "reply":
                waiting.reply.set_result(outcome.reply)
            else:
                waiting.reply.set_exception(_status_error(outcome.failed))

    async def _send_alone(self, waiting: _Waiting, timeout: float) -> None:
        try:
            reply = await self.stub.Execute(waiting.envelope, timeout=timeout)
        except Exception as failed:
            _fail([waiting], failed)
            return
        if not waiting.reply.done():
            waiting.reply.set_result(reply)


def _fail(batch: list[_Waiting], failed: Exception) -> None:
    """The call failed: each of its commands may or may not have been applied, exactly as
    a command sent alone whose reply was lost."""
    for waiting in batch:
        if not waiting.reply.done():
            waiting.reply.set_exception(failed)


def _status_error(failure: engine_pb2.ExecuteFailure) -> grpc.aio.AioRpcError:
    """The error ``Execute`` would have raised for this command."""
    trailing = ((codes.CODE_METADATA, failure.code),) if failure.code else ()
    return grpc.aio.AioRpcError(
        _STATUS_BY_NUMBER.get(failure.status, grpc.StatusCode.UNKNOWN),
        grpc.aio.Metadata(),
        grpc.aio.Metadata(*trailing),
        details=failure.message,
    )
