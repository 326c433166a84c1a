"""Commands to one engine service coalesced into fewer gRPC calls (group commit).

Each gRPC call costs both processes a fixed share of CPU (the call's own machinery, the
wake-ups of gRPC's threads), about as much as deciding and appending the command itself.
So the commands of one turn of the event loop go together at the turn's end (the
requests the gateway read from its sockets in one wake-up reach it in one turn), and the
commands that arrive while a call is on its way wait for it and then go together, by
``ExecuteBatch``; a command on its own goes by ``Execute``. Under load the batches grow
by themselves; an idle gateway adds one pass of its loop. Sending the first command of a
turn at once would make the rest of that turn wait a whole call for it.

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
        self._turn_ending = False
        # An engine service without ExecuteBatch (an older one mid-deploy) gets each
        # command by Execute.
        self._batches_served = True

    async def execute(
        self, envelope: common_pb2.CommandEnvelope, timeout: float
    ) -> engine_pb2.ExecuteResponse:
        loop = asyncio.get_running_loop()
        waiting = _Waiting(envelope, loop.time() + timeout, loop.create_future())
        self._waiting.append(waiting)
        if self._sending is None and not self._turn_ending:
            self._turn_ending = True
            loop.call_soon(self._end_turn)
        return await waiting.reply

    def _end_turn(self) -> None:
        self._turn_ending = False
        if self._sending is None:
            self._send_next()

    def _send_next(self) -> None:
        batch = [w for w in self._waiting[: self.max_batch] if not w.reply.done()]
        del self._waiting[: self.max_batch]
        if not batch:
            self._sending = None
            return
        sending = asyncio.create_task(self._send(batch))
        self._sending = sending
        sending.add_done_callback(self._sent)

    def _sent(self, task: asyncio.Task[None]) -> None:
        # Unless the call handed over already (see _send).
        if self._sending is task:
            self._send_next()

    async def _send(self, batch: list[_Waiting]) -> None:
        try:
            outcomes = await self._call(batch)
            # The commands that waited for this call go before its own callers resume:
            # each caller's rendering of its response would hold the next call back.
            if self._sending is asyncio.current_task():
                self._send_next()
            for waiting, outcome in zip(batch, outcomes, strict=True):
                if waiting.reply.done():
                    continue  # its caller was cancelled
                if isinstance(outcome, BaseException):
                    waiting.reply.set_exception(outcome)
                else:
                    waiting.reply.set_result(outcome)
        finally:
            # Cancelled (the gateway stopping): its callers are cancelled with it.
            for waiting in batch:
                waiting.reply.cancel()

    async def _call(
        self, batch: list[_Waiting]
    ) -> list[engine_pb2.ExecuteResponse | BaseException]:
        """Each command's reply or the error ``Execute`` would have raised for it."""
        timeout = max(min(w.deadline for w in batch) - asyncio.get_running_loop().time(), 0.0)
        if len(batch) == 1 or not self._batches_served:
            return await self._each_alone(batch, timeout)
        request = engine_pb2.ExecuteBatchRequest(commands=[w.envelope for w in batch])
        try:
            reply = await self.stub.ExecuteBatch(request, timeout=timeout)
        except grpc.aio.AioRpcError as failed:
            if failed.code() == grpc.StatusCode.UNIMPLEMENTED and self._batches_served:
                self._batches_served = False
                return await self._each_alone(batch, timeout)
            return [failed] * len(batch)
        except Exception as failed:
            # Each command may or may not have been applied, exactly as a command sent
            # alone whose reply was lost.
            return [failed] * len(batch)
        return [
            outcome.reply
            if outcome.WhichOneof("outcome") == "reply"
            else _status_error(outcome.failed)
            for outcome in reply.outcomes
        ]

    async def _each_alone(
        self, batch: list[_Waiting], timeout: float
    ) -> list[engine_pb2.ExecuteResponse | BaseException]:
        return list(
            await asyncio.gather(
                *(self.stub.Execute(w.envelope, timeout=timeout) for w in batch),
                return_exceptions=True,
            )
        )


def _status_error(failure: engine_pb2.ExecuteFailure) -> grpc.aio.AioRpcError:
    """The error ``Execute`` would have raised for this command."""
    trailing = ((codes.CODE_METADATA, failure.code),) if failure.code else ()
    return grpc.aio.AioRpcError(
        _STATUS_BY_NUMBER.get(failure.status, grpc.StatusCode.UNKNOWN),
        grpc.aio.Metadata(),
        grpc.aio.Metadata(*trailing),
        details=failure.message,
    )
