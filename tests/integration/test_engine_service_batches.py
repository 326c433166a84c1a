"""Commands coalesced into ExecuteBatch calls: the gateway's batcher against a real engine
service over loopback gRPC and real Redis, with the real Freunde engine."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import grpc
import pytest

from engines.core import codes
from gateway.batching import CommandBatcher
from proto import common_pb2, engine_pb2, engine_pb2_grpc
from services.engine.servicer import MAX_EXECUTE_BATCH, EngineServicer
from services.eventstore import NotDurable
from services.redis_server import free_port
from tests.integration.test_engine_service_support import (
    channel,
    create_request,
    envelope,
    scripted_game,
    service,
    stub,
)

pytestmark = [pytest.mark.anyio, pytest.mark.integration]

__all__ = ["channel", "service", "stub"]

TIMEOUT_S = 30.0
RESIGN = common_pb2.TableControl(resign=common_pb2.Resign())


class CountingStub:
    """A real stub that also records which RPC carried how many commands."""

    def __init__(self, stub: engine_pb2_grpc.EngineStub) -> None:
        self.stub = stub
        self.calls: list[tuple[str, int]] = []

    async def Execute(self, request: common_pb2.CommandEnvelope, **kwargs: Any) -> Any:
        self.calls.append(("Execute", 1))
        return await self.stub.Execute(request, **kwargs)

    async def ExecuteBatch(self, request: engine_pb2.ExecuteBatchRequest, **kwargs: Any) -> Any:
        self.calls.append(("ExecuteBatch", len(request.commands)))
        return await self.stub.ExecuteBatch(request, **kwargs)


async def _tables(stub: engine_pb2_grpc.EngineStub, prefix: str, count: int) -> list[str]:
    ids = [f"{prefix}-{n}" for n in range(count)]
    for table_id in ids:
        await stub.CreateTable(create_request(table_id))
    return ids


def _first(table_id: str, command_id: str, expected: int | None = None) -> Any:
    """The first command of the table's scripted game, from the seat that may send it."""
    seat, command = scripted_game(table_id)[0]
    return envelope(table_id, command_id, seat, command, expected)


async def _outcomes(batcher: CommandBatcher, envelopes: list[Any]) -> list[Any]:
    return await asyncio.gather(
        *(batcher.execute(e, TIMEOUT_S) for e in envelopes), return_exceptions=True
    )


async def test_concurrent_commands_share_a_call_and_each_gets_its_own_outcome(
    stub: engine_pb2_grpc.EngineStub, table_id: str
) -> None:
    """The first command goes alone; the ones sent meanwhile go in one ExecuteBatch, each
    with its own reply or rejection, as Execute gives it."""
    tables = await _tables(stub, table_id, 4)
    counting = CountingStub(stub)
    batcher = CommandBatcher(counting)  # type: ignore[arg-type]
    sent = [
        _first(tables[0], "c0"),
        _first(tables[1], "c1"),
        _first(tables[2], "c2", expected=99),
        envelope("no-such-table", "c3", 0, scripted_game(tables[3])[0][1]),
        _first(tables[3], "c4"),
        common_pb2.CommandEnvelope(table_id=tables[3], command_id="c5", payload=b"\xff"),
        common_pb2.CommandEnvelope(table_id=tables[3], command_id="c6", control=RESIGN),
    ]
    replies = await _outcomes(batcher, sent)

    assert counting.calls == [("Execute", 1), ("ExecuteBatch", 6)]
    for n in (0, 1, 4):
        assert replies[n].HasField("accepted") and not replies[n].accepted.duplicate
        seen = replies[n].accepted.seen
        assert {(e.command_id, e.seat) for e in seen} == {(sent[n].command_id, sent[n].seat)}
    assert replies[2].rejected.code == codes.VERSION_CONFLICT.code
    assert replies[3].rejected.code == codes.TABLE_NOT_FOUND.code
    assert replies[5].rejected.code == codes.COMMAND_MALFORMED.code
    assert replies[6].rejected.code == codes.COMMAND_MALFORMED.code


async def test_a_batched_reply_is_the_one_execute_gives_its_seat(
    stub: engine_pb2_grpc.EngineStub, table_id: str
) -> None:
    """Each command of a batch is its own idempotent command: sent again alone, it gets
    the first outcome, with the same events as its own seat sees them."""
    tables = await _tables(stub, table_id, 3)
    sent = [_first(t, f"cmd-{t}") for t in tables]
    batch = await stub.ExecuteBatch(engine_pb2.ExecuteBatchRequest(commands=sent))
    for command, outcome in zip(sent, batch.outcomes, strict=True):
        again = await stub.Execute(command)
        assert again.accepted.duplicate
        assert again.accepted.version == outcome.reply.accepted.version
        assert list(again.accepted.seen) == list(outcome.reply.accepted.seen)
        assert list(again.accepted.events) == list(outcome.reply.accepted.events)


async def test_an_oversized_batch_is_refused(stub: engine_pb2_grpc.EngineStub) -> None:
    commands = [common_pb2.CommandEnvelope(table_id="t", command_id=f"c{n}") for n in range(65)]
    assert len(commands) > MAX_EXECUTE_BATCH
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await stub.ExecuteBatch(engine_pb2.ExecuteBatchRequest(commands=commands))
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT


async def test_a_failed_call_fails_each_of_its_commands_with_its_error() -> None:
    """No engine listening: every waiting command gets the call's UNAVAILABLE, as a
    command sent alone would."""
    async with grpc.aio.insecure_channel(f"127.0.0.1:{free_port()}") as channel:
        batcher = CommandBatcher(engine_pb2_grpc.EngineStub(channel))
        sent = [common_pb2.CommandEnvelope(table_id=f"t{n}", command_id="c") for n in range(3)]
        failures = await _outcomes(batcher, sent)
    assert [f.code() for f in failures] == [grpc.StatusCode.UNAVAILABLE] * 3


class UnconfirmedHost:
    """A host whose appends to table ``unconfirmed`` are never confirmed durable, and that
    accepts every other command (no rules: the errors' way back is under test)."""

    async def execute(self, envelope: common_pb2.CommandEnvelope) -> engine_pb2.ExecuteResponse:
        await asyncio.sleep(0)
        if envelope.table_id == "unconfirmed":
            raise NotDurable(envelope.table_id, 5)
        return engine_pb2.ExecuteResponse(accepted=engine_pb2.Accepted(version=1))


class ExecuteOnly(engine_pb2_grpc.EngineServicer):
    """An engine service from before ExecuteBatch: it answers Execute only."""

    async def Execute(
        self, request: common_pb2.CommandEnvelope, context: grpc.aio.ServicerContext
    ) -> engine_pb2.ExecuteResponse:
        return await UnconfirmedHost().execute(request)


@contextlib.asynccontextmanager
async def serving(servicer: engine_pb2_grpc.EngineServicer) -> AsyncIterator[Any]:
    """``servicer`` on a loopback port; yields a stub and a counting stub of it."""
    server = grpc.aio.server()
    engine_pb2_grpc.add_EngineServicer_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = engine_pb2_grpc.EngineStub(channel)
            yield stub, CountingStub(stub)
    finally:
        await server.stop(grace=None)


def _commands(*tables: str) -> list[common_pb2.CommandEnvelope]:
    return [
        common_pb2.CommandEnvelope(table_id=t, command_id=f"c{n}") for n, t in enumerate(tables)
    ]


async def test_a_status_in_a_batch_is_raised_for_its_command_only_as_execute_raises_it() -> None:
    """A command whose append is unconfirmed gets, from a batch, the same error (status,
    message, code) as from Execute; the batch's other commands get their replies."""
    async with serving(EngineServicer(UnconfirmedHost())) as (stub, counting):  # type: ignore[arg-type]
        batcher = CommandBatcher(counting)
        replies = await _outcomes(batcher, _commands("t0", "t1", "unconfirmed", "t3"))
        with pytest.raises(grpc.aio.AioRpcError) as alone:
            await stub.Execute(_commands("unconfirmed")[0])
    assert counting.calls == [("Execute", 1), ("ExecuteBatch", 3)]
    assert [r.accepted.version for n, r in enumerate(replies) if n != 2] == [1, 1, 1]
    batched = replies[2]
    assert isinstance(batched, grpc.aio.AioRpcError)
    assert batched.code() == alone.value.code() == grpc.StatusCode.UNAVAILABLE
    assert batched.details() == alone.value.details()
    assert (codes.CODE_METADATA, "store.not_durable") in list(batched.trailing_metadata())
    assert (codes.CODE_METADATA, "store.not_durable") in list(alone.value.trailing_metadata())


async def test_an_engine_without_batches_gets_each_command_alone() -> None:
    # The generated base class declares every RPC abstract; the others answer UNIMPLEMENTED.
    async with serving(ExecuteOnly()) as (_, counting):  # type: ignore[abstract]
        batcher = CommandBatcher(counting)
        replies = await _outcomes(batcher, _commands("t0", "t1", "t2"))
        again = await _outcomes(batcher, _commands("t3", "t4"))
    assert [r.accepted.version for r in replies + again] == [1] * 5
    assert counting.calls == [
        ("Execute", 1),
        ("ExecuteBatch", 2),
        ("Execute", 1),
        ("Execute", 1),
        ("Execute", 1),
        ("Execute", 1),
    ]
