"""The engine service over real gRPC and real Redis, with the real Freunde engine."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from engines.core.canonical import canonical_json
from engines.core.contract import TableConfig
from engines.core.hashchain import opens_own_commitment, verify_chain
from engines.core.messages import to_json
from engines.core.play import Table, fold
from proto import engine_pb2, engine_pb2_grpc
from services.config import Settings
from services.engine.host import TableHost
from services.engine.server import SERVICE_NAME, EngineService, start
from services.redis_server import RedisServer
from tests.integration.test_engine_service_support import (
    FREUNDE,
    ROUND_LIMIT,
    SEED,
    SHARDS,
    channel,
    command_from_json,
    create_request,
    envelope,
    open_host,
    scripted_game,
    service,
    stub,
)

pytestmark = [pytest.mark.anyio, pytest.mark.integration]

__all__ = ["channel", "service", "stub"]


async def first_move(stub: engine_pb2_grpc.EngineStub, table_id: str) -> tuple[int, Any]:
    """The seat to act and the first of its legal commands."""
    view = await stub.GetView(engine_pb2.ViewRequest(table_id=table_id, viewer=spectator()))
    seat = json.loads(view.outcome_json)["to_act"][0]
    legal = await stub.LegalCommands(engine_pb2.LegalCommandsRequest(table_id=table_id, seat=seat))
    return seat, command_from_json(legal.commands_json[0])


def spectator() -> engine_pb2.Viewer:
    return engine_pb2.Viewer()


def seat_viewer(seat: int) -> engine_pb2.Viewer:
    return engine_pb2.Viewer(seat=seat)


async def test_health_and_reflection_answer(channel: grpc.aio.Channel) -> None:
    """grpcurl-style tools can find the Engine service and see that it is serving."""
    health = await health_pb2_grpc.HealthStub(channel).Check(
        health_pb2.HealthCheckRequest(service=SERVICE_NAME)
    )
    assert health.status == health_pb2.HealthCheckResponse.SERVING
    reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
    replies = reflection.ServerReflectionInfo(
        iter([reflection_pb2.ServerReflectionRequest(list_services="")])
    )
    names = [s.name async for r in replies for s in r.list_services_response.service]
    assert SERVICE_NAME in names


async def test_a_game_played_to_the_end_replays_and_audits(
    stub: engine_pb2_grpc.EngineStub, table_id: str
) -> None:
    """Bots play a 3-seat game over gRPC; views, events, replay and audit agree with the rules."""
    created = await stub.CreateTable(create_request(table_id, seats=3))
    assert created.meta.seed_commitment == hashlib.sha256(SEED).digest()
    mirror = Table.create(FREUNDE, TableConfig(table_id, 3, {"round_limit": ROUND_LIMIT}), SEED)
    assert created.version == len(mirror.events)
    chooser = random.Random(3)
    version = created.version
    last_events = []
    for n in range(10_000):
        view = await stub.GetView(engine_pb2.ViewRequest(table_id=table_id, viewer=spectator()))
        outcome = json.loads(view.outcome_json)
        if outcome["finished"]:
            break
        seat = outcome["to_act"][0]
        legal = await stub.LegalCommands(
            engine_pb2.LegalCommandsRequest(table_id=table_id, seat=seat)
        )
        command = command_from_json(chooser.choice(list(legal.commands_json)))
        reply = await stub.Execute(envelope(table_id, f"c{n}", seat, command))
        assert reply.WhichOneof("result") == "accepted", reply
        last_events = list(reply.accepted.events)
        assert [e.version for e in last_events] == list(
            range(version + 1, reply.accepted.version + 1)
        )
        version = reply.accepted.version
        mirror.execute(seat, command)
    assert FREUNDE.outcome(mirror.state).finished
    # The command that ended the game revealed the seed in its own batch.
    assert last_events[-1].WhichOneof("body") == "seed_revealed"
    assert last_events[-1].seed_revealed.seed == SEED
    assert version == len(mirror.events) + 1

    for seat in (None, 0, 1, 2):
        viewer = spectator() if seat is None else seat_viewer(seat)
        view = await stub.GetView(engine_pb2.ViewRequest(table_id=table_id, viewer=viewer))
        assert view.version == version
        assert view.view_json == canonical_json(FREUNDE.view(mirror.state, seat))

    events = await stub.EventsAfter(
        engine_pb2.EventsAfterRequest(table_id=table_id, viewer=seat_viewer(1), after=0)
    )
    assert events.head == version
    assert [e.version for e in events.events] == list(range(1, version + 1))
    for shown, original in zip(events.events, mirror.events, strict=False):
        redacted = FREUNDE.redact(original, 1)
        assert shown.event_json == ("" if redacted is None else canonical_json(to_json(redacted)))
    assert events.events[-1].seed_revealed.seed == SEED and events.events[-1].event_json == ""
    # What a seat reads is a chain it can check, and its salts open its own commitments.
    assert verify_chain(events.events).ok
    assert all(opens_own_commitment(e, 1) for e in events.events[:-1])
    page = await stub.EventsAfter(
        engine_pb2.EventsAfterRequest(table_id=table_id, viewer=spectator(), after=5, limit=3)
    )
    assert [e.version for e in page.events] == [6, 7, 8]

    at = len(mirror.events) // 2
    replay = await stub.Replay(
        engine_pb2.ReplayRequest(table_id=table_id, viewer=seat_viewer(0), at=at)
    )
    assert replay.version == at
    assert replay.view_json == canonical_json(FREUNDE.view(fold(FREUNDE, mirror.events[:at]), 0))

    audit = await stub.Audit(engine_pb2.AuditRequest(table_id=table_id))
    assert audit.ok and audit.chain_ok and audit.first_bad_version == 0
    assert audit.reexecution_checked and audit.reexecution_ok, audit.detail
    assert [(c.name, c.ok) for c in audit.checks] == [
        ("hash chain", True),
        ("events", True),
        ("public forms", True),
        ("seed", True),
        ("commitments", True),
        ("re-execution", True),
    ]
    assert audit.seed == SEED
    assert audit.head_version == version


async def test_audit_before_the_end_checks_the_chain_only(
    stub: engine_pb2_grpc.EngineStub, table_id: str
) -> None:
    """The seed stays secret while the game runs, so there is nothing to re-execute yet."""
    await stub.CreateTable(create_request(table_id))
    audit = await stub.Audit(engine_pb2.AuditRequest(table_id=table_id))
    assert audit.chain_ok
    assert not audit.reexecution_checked
    assert audit.seed == b""


async def test_a_repeated_command_id_returns_the_first_outcome(
    stub: engine_pb2_grpc.EngineStub, table_id: str
) -> None:
    """Sending the same command id twice appends once and answers the same events twice."""
    created = await stub.CreateTable(create_request(table_id))
    seat, command = await first_move(stub, table_id)
    first = await stub.Execute(envelope(table_id, "once", seat, command))
    again = await stub.Execute(envelope(table_id, "once", seat, command))
    assert not first.accepted.duplicate
    assert again.accepted.duplicate
    assert list(again.accepted.events) == list(first.accepted.events)
    events = await stub.EventsAfter(
        engine_pb2.EventsAfterRequest(table_id=table_id, viewer=spectator(), after=created.version)
    )
    assert [e.command_id for e in events.events] == ["once"] * len(first.accepted.events)


async def _next_to_act(stub: engine_pb2_grpc.EngineStub, table_id: str) -> int:
    view = await stub.GetView(engine_pb2.ViewRequest(table_id=table_id, viewer=spectator()))
    return int(json.loads(view.outcome_json)["to_act"][0])


async def test_another_seat_cannot_pre_empt_my_next_command_id(
    stub: engine_pb2_grpc.EngineStub, table_id: str
) -> None:
    """The other seat sends my predictable next id first (out of turn, refused); my own
    move under that id is still decided, not answered with the other seat's rejection."""
    await stub.CreateTable(create_request(table_id))
    seat, command = await first_move(stub, table_id)
    spoiler = await stub.Execute(envelope(table_id, "seat-next-0001", 1 - seat, command))
    assert spoiler.rejected.code.startswith("turn."), spoiler
    mine = await stub.Execute(envelope(table_id, "seat-next-0001", seat, command))
    assert mine.WhichOneof("result") == "accepted" and not mine.accepted.duplicate
    assert {event.seat for event in mine.accepted.events} == {seat}


async def test_another_seat_reusing_my_command_id_gets_its_own_outcome(
    stub: engine_pb2_grpc.EngineStub, table_id: str
) -> None:
    """My id, sent later by the other seat for its own move, is its own command: its move is
    decided and applied, not answered with my events."""
    await stub.CreateTable(create_request(table_id))
    seat, command = await first_move(stub, table_id)
    mine = await stub.Execute(envelope(table_id, "shared", seat, command))
    assert mine.WhichOneof("result") == "accepted"
    moves = 0
    while await _next_to_act(stub, table_id) == seat:
        _, more = await first_move(stub, table_id)
        assert (await stub.Execute(envelope(table_id, f"mine-{moves}", seat, more))).HasField(
            "accepted"
        )
        moves += 1
    other, theirs = await first_move(stub, table_id)
    assert other == 1 - seat
    reply = await stub.Execute(envelope(table_id, "shared", other, theirs))
    assert reply.WhichOneof("result") == "accepted" and not reply.accepted.duplicate
    assert reply.accepted.events != mine.accepted.events
    assert {event.seat for event in reply.accepted.events} == {other}


async def test_a_command_id_sent_again_for_another_command_is_refused(
    stub: engine_pb2_grpc.EngineStub, table_id: str
) -> None:
    """The same id with the same command (payload and expected version) answers the first
    outcome; with another command it is `command.id_reused` and changes nothing."""
    created = await stub.CreateTable(create_request(table_id))
    seat, command = await first_move(stub, table_id)
    legal = await stub.LegalCommands(engine_pb2.LegalCommandsRequest(table_id=table_id, seat=seat))
    other = command_from_json(legal.commands_json[-1])
    assert other != command
    first = await stub.Execute(envelope(table_id, "once", seat, command, expected=created.version))
    assert first.WhichOneof("result") == "accepted"
    same = await stub.Execute(envelope(table_id, "once", seat, command, expected=created.version))
    assert same.accepted.duplicate and list(same.accepted.events) == list(first.accepted.events)
    for changed in (
        envelope(table_id, "once", seat, other, expected=created.version),
        envelope(table_id, "once", seat, command),
        envelope(table_id, "once", seat, command, expected=created.version + 1),
    ):
        refused = await stub.Execute(changed)
        assert refused.rejected.code == "command.id_reused", changed
    view = await stub.GetView(engine_pb2.ViewRequest(table_id=table_id, viewer=spectator()))
    assert view.version == first.accepted.version
    # A refusal is remembered the same way.
    early = await stub.Execute(envelope(table_id, "early", 1 - seat, command))
    assert early.rejected.code.startswith("turn."), early
    assert (await stub.Execute(envelope(table_id, "early", 1 - seat, command))).rejected == (
        early.rejected
    )
    reused = await stub.Execute(envelope(table_id, "early", 1 - seat, other))
    assert reused.rejected.code == "command.id_reused"


async def test_a_stale_expected_version_is_a_conflict_and_may_be_sent_again(
    stub: engine_pb2_grpc.EngineStub, table_id: str
) -> None:
    """``version.conflict`` changes nothing; the same command id with the right version applies."""
    created = await stub.CreateTable(create_request(table_id))
    seat, command = await first_move(stub, table_id)
    stale = await stub.Execute(
        envelope(table_id, "c1", seat, command, expected=created.version - 1)
    )
    assert stale.rejected.code == "version.conflict"
    assert stale.rejected.details["version"] == str(created.version)
    fresh = await stub.Execute(envelope(table_id, "c1", seat, command, expected=created.version))
    assert fresh.WhichOneof("result") == "accepted"
    assert fresh.accepted.events[0].version == created.version + 1


async def test_a_rule_violation_is_recorded_under_its_command_id(
    stub: engine_pb2_grpc.EngineStub, table_id: str
) -> None:
    """A seat acting in another seat's turn is refused with a stable code, and stays refused."""
    created = await stub.CreateTable(create_request(table_id))
    seat, command = await first_move(stub, table_id)
    refused = await stub.Execute(envelope(table_id, "early", 1 - seat, command))
    assert refused.WhichOneof("result") == "rejected"
    assert refused.rejected.code and refused.rejected.message
    again = await stub.Execute(envelope(table_id, "early", 1 - seat, command))
    assert again.rejected == refused.rejected
    view = await stub.GetView(engine_pb2.ViewRequest(table_id=table_id, viewer=spectator()))
    assert view.version == created.version


async def test_what_a_client_gets_wrong_is_a_rejection_not_an_error(
    stub: engine_pb2_grpc.EngineStub, table_id: str
) -> None:
    """Garbage payloads, empty commands, unknown tables and seats come back as rejections."""
    await stub.CreateTable(create_request(table_id))
    seat, command = await first_move(stub, table_id)
    garbage = envelope(table_id, "g", seat, command)
    garbage.payload = b"\xff\xff\xff"
    assert (await stub.Execute(garbage)).rejected.code == "command.malformed"
    empty = envelope(table_id, "e", seat, command)
    empty.payload = b""
    assert (await stub.Execute(empty)).rejected.code == "command.malformed"
    nowhere = envelope("no-such-table", "n", 0, command)
    assert (await stub.Execute(nowhere)).rejected.code == "table.not_found"
    bad_id = envelope("../etc", "n", 0, command)
    assert (await stub.Execute(bad_id)).rejected.code == "table.not_found"
    wrong_seat = envelope(table_id, "s", 7, command)
    assert (await stub.Execute(wrong_seat)).rejected.code == "seat.invalid"


@pytest.mark.parametrize(
    ("seats", "options", "fragment"),
    [
        (1, {}, "seats 2 to 4"),
        (5, {}, "seats 2 to 4"),
        (2, {"colour": '"red"'}, "no option 'colour'"),
        (2, {"round_limit": '"many"'}, "must be a whole number"),
        (2, {"round_limit": "-5"}, "'round_limit' must be from 1 to 1000"),
        (2, {"round_limit": str(10**30)}, "'round_limit' must be from 1 to 1000"),
        (2, {"round_limit": "{"}, "not JSON"),
    ],
)
async def test_create_refuses_what_the_game_does_not_offer(
    stub: engine_pb2_grpc.EngineStub,
    table_id: str,
    seats: int,
    options: dict[str, str],
    fragment: str,
) -> None:
    """Seat counts and options are checked against the game's info: INVALID_ARGUMENT."""
    request = engine_pb2.CreateTableRequest(table_id=table_id, seats=seats, options=options)
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await stub.CreateTable(request)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert fragment in (refused.value.details() or "")


async def test_create_draws_a_seed_and_refuses_a_taken_id(
    stub: engine_pb2_grpc.EngineStub, service: EngineService, table_id: str
) -> None:
    """Without a seed the OS draws 32 bytes; the commitment is their hash; ids are unique."""
    created = await stub.CreateTable(engine_pb2.CreateTableRequest(table_id=table_id, seats=2))
    seed = await service.host.store.seed(table_id)
    assert len(seed) == 32 and seed != SEED
    assert created.meta.seed_commitment == hashlib.sha256(seed).digest()
    assert json.loads(created.meta.options["round_limit"]) == 100
    with pytest.raises(grpc.aio.AioRpcError) as taken:
        await stub.CreateTable(engine_pb2.CreateTableRequest(table_id=table_id, seats=2))
    assert taken.value.code() == grpc.StatusCode.ALREADY_EXISTS


async def test_reads_of_an_unknown_table_are_not_found(stub: engine_pb2_grpc.EngineStub) -> None:
    """Every read RPC answers NOT_FOUND for a table that does not exist."""
    calls = [
        stub.GetView(engine_pb2.ViewRequest(table_id="missing", viewer=spectator())),
        stub.LegalCommands(engine_pb2.LegalCommandsRequest(table_id="missing", seat=0)),
        stub.EventsAfter(engine_pb2.EventsAfterRequest(table_id="missing", viewer=spectator())),
        stub.Replay(engine_pb2.ReplayRequest(table_id="missing", viewer=spectator(), at=1)),
        stub.Audit(engine_pb2.AuditRequest(table_id="missing")),
    ]
    for call in calls:
        with pytest.raises(grpc.aio.AioRpcError) as missing:
            await call
        assert missing.value.code() == grpc.StatusCode.NOT_FOUND


async def test_a_seat_outside_the_table_cannot_read(
    stub: engine_pb2_grpc.EngineStub, table_id: str
) -> None:
    """Views and replays for a seat the table does not have are INVALID_ARGUMENT."""
    created = await stub.CreateTable(create_request(table_id))
    for call in (
        stub.GetView(engine_pb2.ViewRequest(table_id=table_id, viewer=seat_viewer(2))),
        stub.Replay(engine_pb2.ReplayRequest(table_id=table_id, viewer=seat_viewer(-1), at=1)),
        stub.Replay(engine_pb2.ReplayRequest(table_id=table_id, at=created.version + 1)),
    ):
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await call
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT


class _BrokenRules:
    """Freunde, except that ``decided`` (what the service runs) has a bug."""

    def __getattr__(self, name: str) -> Any:
        return getattr(FREUNDE, name)

    def decided(self, *_: Any) -> Any:
        raise ZeroDivisionError("a bug in the rules")


async def test_a_bug_in_the_rules_is_a_rejection_that_is_not_recorded(
    redis_url: str, table_id: str
) -> None:
    """The client gets ``command.invalid``, and the same id may be retried after a fix."""
    host = await open_host(redis_url)
    try:
        await host.create_table(create_request(table_id))
        seat, command = scripted_game(table_id)[0]
        broken = TableHost(host.store, _BrokenRules())
        reply = await broken.execute(envelope(table_id, "c1", seat, command))
        assert reply.rejected.code == "command.invalid"
        assert await host.store.outcome(table_id, seat, "c1") is None
        assert (await host.execute(envelope(table_id, "c1", seat, command))).HasField("accepted")
    finally:
        await host.store.redis.aclose()


async def test_the_engine_is_not_serving_while_redis_is_down() -> None:
    """Readiness follows Redis: the Engine service flips to NOT_SERVING; liveness ("") stays."""
    redis = RedisServer(appendfsync="no").start()
    settings = Settings(redis_url=redis.url, shards=SHARDS, health_every_s=0.1)
    service = await start("freunde", port=0, settings=settings, consume=False)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{service.port}") as channel:
            health = health_pb2_grpc.HealthStub(channel)

            async def status(name: str) -> int:
                reply = await health.Check(health_pb2.HealthCheckRequest(service=name))
                return int(reply.status)

            assert await status(SERVICE_NAME) == health_pb2.HealthCheckResponse.SERVING
            redis.stop()
            for _ in range(300):
                if await status(SERVICE_NAME) == health_pb2.HealthCheckResponse.NOT_SERVING:
                    break
                await asyncio.sleep(0.05)
            assert await status(SERVICE_NAME) == health_pb2.HealthCheckResponse.NOT_SERVING
            assert await status("") == health_pb2.HealthCheckResponse.SERVING
    finally:
        redis.stop()
        await service.stop(grace=1)


async def test_fields_a_command_does_not_have_never_reach_the_log(
    stub: engine_pb2_grpc.EngineStub, table_id: str
) -> None:
    """A payload with a field the game's Command lacks is applied as the command it names;
    the log records exactly that command, so the audit still holds."""
    await stub.CreateTable(create_request(table_id))
    seat, command = await first_move(stub, table_id)
    sent = envelope(table_id, "extra", seat, command)
    sent.payload += b"\xf8\x07\x01"  # field 127, a varint: no Freunde command has it
    reply = await stub.Execute(sent)
    assert reply.WhichOneof("result") == "accepted"
    assert reply.accepted.events[0].command == command.SerializeToString(deterministic=True)
    audit = await stub.Audit(engine_pb2.AuditRequest(table_id=table_id))
    assert audit.ok, audit.detail


async def test_an_engine_holding_fewer_tables_than_it_serves_plays_each_from_its_log(
    redis_url: str,
) -> None:
    """``BW_TABLES_HELD`` bounds the tables whose state an engine keeps; a table it dropped
    is loaded again from its log, and its next command is decided on the current state."""
    settings = Settings(redis_url=redis_url, shards=SHARDS, tables_held=2)
    service = await start("freunde", port=0, settings=settings, consume=False)
    tables = [f"held-{n}-{random.randrange(10**9)}" for n in range(3)]
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{service.port}") as opened:
            stub = engine_pb2_grpc.EngineStub(opened)
            versions = {}
            for table_id in tables:
                versions[table_id] = (await stub.CreateTable(create_request(table_id))).version
            loader = service.host.tables
            # Twice round the three tables. Each round reads every table's next move (a
            # load each) before sending any: with two held, each command then finds its
            # table dropped and the engine loads it again to decide.
            for turn in range(2):
                moves = {table_id: await first_move(stub, table_id) for table_id in tables}
                for table_id, (seat, command) in moves.items():
                    assert loader.cached(table_id) is None
                    reply = await stub.Execute(envelope(table_id, f"c{turn}", seat, command))
                    assert reply.WhichOneof("result") == "accepted"
                    assert not reply.accepted.duplicate
                    assert reply.accepted.version == versions[table_id] + len(reply.accepted.events)
                    versions[table_id] = reply.accepted.version
                    assert loader.held <= 2
            for table_id in tables:
                audit = await stub.Audit(engine_pb2.AuditRequest(table_id=table_id))
                assert audit.ok, audit
    finally:
        await service.stop(grace=1)
