"""Several replicas on one table, and snapshots that are only ever a cache."""

from __future__ import annotations

import asyncio
import json
import pickle
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import grpc
import pytest

from engines.core.canonical import canonical_bytes, digest, message_bytes
from engines.core.contract import TableConfig
from engines.core.control import Control, TableRules, fold_table
from engines.core.play import Table, fold_stored
from proto import common_pb2, engine_pb2, engine_pb2_grpc
from services.config import Settings
from services.engine.host import TableHost
from services.engine.server import start
from services.eventstore import Appended, CommandKey, Head
from tests.integration.test_engine_service_support import (
    FREUNDE,
    ROUND_LIMIT,
    SEED,
    SHARDS,
    command_from_json,
    create_request,
    envelope,
    open_host,
    play_with_bots,
    scripted_game,
)

pytestmark = [pytest.mark.anyio, pytest.mark.integration]


def two_orderable_commands(table_id: str, seats: int) -> tuple[int, Any, Any]:
    """A seat and two commands of its first turn, the second legal before and after the first."""
    mirror = Table.create(FREUNDE, TableConfig(table_id, seats, {"round_limit": ROUND_LIMIT}), SEED)
    seat = FREUNDE.outcome(mirror.state).to_act[0]
    options = FREUNDE.legal_commands(mirror.state, seat)
    for first in options:
        after = Table.create(mirror.engine, mirror.config, SEED)
        after.execute(seat, first)
        if FREUNDE.outcome(after.state).to_act[:1] != (seat,):
            continue
        still = {message_bytes(c) for c in FREUNDE.legal_commands(after.state, seat)}
        for second in options:
            if second is not first and message_bytes(second) in still:
                return seat, first, second
    raise AssertionError("no two commands of the first turn commute")


async def test_a_replica_that_loses_the_race_reloads_and_appends_after_the_winner(
    redis_url: str, table_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """B decides on a stale state, A appends first; B reloads, decides again and follows A."""
    a = await open_host(redis_url)
    b = await open_host(redis_url)
    try:
        created = await a.create_table(create_request(table_id))
        seat, first, second = two_orderable_commands(table_id, 2)
        await b.load(table_id)
        real_append = b.store.append
        attempts: list[int] = []

        async def append_after_a(
            table: str,
            command: CommandKey,
            expected: Head,
            events: Sequence[common_pb2.StoredEvent],
        ) -> Appended:
            attempts.append(expected.version)
            if len(attempts) == 1:
                won = await a.execute(envelope(table_id, "from-a", seat, first))
                assert won.HasField("accepted")
            return await real_append(table, command, expected, events)

        monkeypatch.setattr(b.store, "append", append_after_a)
        lost = await b.execute(envelope(table_id, "from-b", seat, second))
        assert lost.HasField("accepted"), lost
        log = await a.store.read(table_id)
        a_versions = [e.version for e in log if e.command_id == "from-a"]
        b_versions = [e.version for e in log if e.command_id == "from-b"]
        assert attempts == [created.version, a_versions[-1]]
        assert b_versions[0] == a_versions[-1] + 1
        assert [e.version for e in log] == list(range(1, len(log) + 1))
    finally:
        await a.store.redis.aclose()
        await b.store.redis.aclose()


async def test_two_services_racing_on_one_table_both_finish_the_game(
    redis_url: str, table_id: str
) -> None:
    """Bots on two gRPC replicas play one table at once: every append lands, the log holds."""
    settings = Settings(redis_url=redis_url, shards=SHARDS)
    services = [await start("freunde", port=0, settings=settings, consume=False) for _ in "ab"]
    channels = [grpc.aio.insecure_channel(f"127.0.0.1:{s.port}") for s in services]
    stubs = [engine_pb2_grpc.EngineStub(c) for c in channels]
    try:
        await stubs[0].CreateTable(create_request(table_id, seats=3))

        async def bot(name: str, stub: engine_pb2_grpc.EngineStub) -> int:
            chooser = random.Random(name)
            accepted = 0
            for n in range(10_000):
                view = await stub.GetView(engine_pb2.ViewRequest(table_id=table_id))
                status = json.loads(view.outcome_json)
                if status["finished"]:
                    return accepted
                seat = status["to_act"][0]
                legal = await stub.LegalCommands(
                    engine_pb2.LegalCommandsRequest(table_id=table_id, seat=seat)
                )
                if not legal.commands_json:
                    continue
                command = command_from_json(chooser.choice(list(legal.commands_json)))
                reply = await stub.Execute(envelope(table_id, f"{name}-{n}", seat, command))
                accepted += reply.HasField("accepted")
            raise AssertionError("the game did not end")

        counts = await asyncio.gather(bot("a", stubs[0]), bot("b", stubs[1]))
        assert all(count > 0 for count in counts)
        audit = await stubs[1].Audit(engine_pb2.AuditRequest(table_id=table_id))
        assert audit.chain_ok and audit.reexecution_checked and audit.reexecution_ok, audit.detail
        log = await services[0].host.store.read(table_id)
        commands = {e.command_id for e in log if e.command}
        assert len(commands) == sum(counts)
    finally:
        for channel in channels:
            await channel.close()
        for service in services:
            await service.stop(grace=1)


async def full_fold_digest(host: TableHost, table_id: str) -> str:
    return digest(fold_stored(FREUNDE, FREUNDE.initial_state(), await host.store.read(table_id)))


async def test_a_fresh_replica_starts_from_the_snapshot(
    redis_url: str, table_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Snapshots are written every K events and give the same state as the whole log."""
    writer = await open_host(redis_url, snapshot_every=5)
    reader = await open_host(redis_url)
    try:
        await writer.create_table(create_request(table_id))
        await play_with_bots(writer, table_id)
        snapshot = await writer.store.load_snapshot(table_id)
        assert snapshot is not None and snapshot[0] > 0
        reads: list[int] = []
        real_read = reader.store.read

        async def spied_read(
            table: str, after: int = 0, count: int | None = None
        ) -> list[common_pb2.StoredEvent]:
            reads.append(after)
            return await real_read(table, after=after, count=count)

        monkeypatch.setattr(reader.store, "read", spied_read)
        loaded = await reader.load(table_id)
        assert reads == [snapshot[0]]
        assert digest(loaded.state) == await full_fold_digest(reader, table_id)
    finally:
        await writer.store.redis.aclose()
        await reader.store.redis.aclose()


class _Hostile:
    """Unpickling this opens (creates) a file: what a pickled snapshot would let a writer of
    one Redis key do inside the engine."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        return open, (str(self.marker), "w")


def _damaged(
    kind: str, rules: bytes, version: int, state: bytes, marker: Path
) -> tuple[int, bytes]:
    """A snapshot (version, blob) damaged in one way."""
    if kind == "pickle":
        return version, rules + pickle.dumps(_Hostile(marker))
    if kind == "not-json":
        return version, rules + b"not json"
    if kind == "other-shape":
        return version, rules + b'{"seats":2,"secret":"x"}'
    if kind == "wrong-types":
        return version, rules + state.replace(b'"seats":2', b'"seats":"2"')
    if kind == "not-canonical":
        return version, rules + state.replace(b",", b", ", 1)
    if kind == "ahead-of-head":
        return version + 50, rules + state
    assert kind == "other-rules"
    return version, bytes(32) + state


@pytest.mark.parametrize(
    "kind",
    [
        "pickle",
        "not-json",
        "other-shape",
        "wrong-types",
        "not-canonical",
        "ahead-of-head",
        "other-rules",
    ],
)
async def test_a_damaged_or_hostile_snapshot_is_ignored_never_executed(
    redis_url: str, table_id: str, kind: str, tmp_path: Path
) -> None:
    """A snapshot (even with a valid checksum) that does not read back as this game's state
    exactly, is ahead of the log or was written by other rules code is ignored; the state
    is folded from the events, and a pickled object in it is never unpickled."""
    writer = await open_host(redis_url)
    marker = tmp_path / "pwned"
    try:
        await writer.create_table(create_request(table_id))
        loaded = await writer.load(table_id)
        state = canonical_bytes(loaded.state)
        assert b'"seats":2' in state
        damaged = _damaged(kind, writer.tables.rules, loaded.version, state, marker)
        await writer.store.save_snapshot(table_id, *damaged)
        assert await writer.store.load_snapshot(table_id) == damaged, "the checksum is right"
        fresh = await open_host(redis_url)
        try:
            again = await fresh.load(table_id)
            assert again.version == loaded.version
            assert digest(again.state) == await full_fold_digest(fresh, table_id)
            assert not marker.exists(), "the snapshot's pickle was executed"
            assert await play_with_bots(fresh, table_id) > 0
        finally:
            await fresh.store.redis.aclose()
    finally:
        await writer.store.redis.aclose()


async def test_snapshots_are_canonical_json_of_the_state(redis_url: str, table_id: str) -> None:
    """What the engine writes is the rules fingerprint, the state's canonical JSON and,
    after a newline, the table control's."""
    writer = await open_host(redis_url, snapshot_every=5)
    try:
        await writer.create_table(create_request(table_id))
        await play_with_bots(writer, table_id)
        snapshot = await writer.store.load_snapshot(table_id)
        assert snapshot is not None
        version, blob = snapshot
        rules = writer.tables.rules
        assert blob.startswith(rules)
        state_json, control_json = blob[len(rules) :].split(b"\n")
        data = json.loads(state_json)
        log = await writer.store.read(table_id, count=version)
        folded = fold_stored(FREUNDE, FREUNDE.initial_state(), log)
        assert state_json == canonical_bytes(folded) and data["seats"] == folded.seats
        _, control = fold_table(
            FREUNDE, TableRules(2), FREUNDE.initial_state(), Control.start(2), log
        )
        assert control_json == canonical_bytes(control)
    finally:
        await writer.store.redis.aclose()


async def test_views_agree_between_replicas_after_each_command(
    redis_url: str, table_id: str
) -> None:
    """A replica that did not execute a command sees it at once (its cache follows the head)."""
    a = await open_host(redis_url)
    b = await open_host(redis_url)
    try:
        await a.create_table(create_request(table_id))
        chooser = random.Random(5)
        for n in range(20):
            state = (await a.load(table_id)).state
            seat = FREUNDE.outcome(state).to_act[0]
            command = chooser.choice(FREUNDE.legal_commands(state, seat))
            writer = (a, b)[n % 2]
            assert (await writer.execute(envelope(table_id, f"c{n}", seat, command))).HasField(
                "accepted"
            )
            views = [await host.view(engine_pb2.ViewRequest(table_id=table_id)) for host in (a, b)]
            assert views[0] == views[1]
    finally:
        await a.store.redis.aclose()
        await b.store.redis.aclose()


async def test_a_replica_behind_the_log_takes_the_current_version_and_no_lookup_when_current(
    redis_url: str, table_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A holds the table as it created it; B appends. A's next command, sent against the
    version B made, is decided on the current state (no stale conflict); a command on a
    state A holds current costs no lookup, and a repeated id still gets its first outcome."""
    a = await open_host(redis_url)
    b = await open_host(redis_url)
    try:
        created = await a.create_table(create_request(table_id))
        (seat0, first), (seat1, second) = scripted_game(table_id)[:2]
        by_b = await b.execute(envelope(table_id, "b-1", seat0, first, created.version))
        assert by_b.HasField("accepted")
        by_a = await a.execute(envelope(table_id, "a-1", seat1, second, by_b.accepted.version))
        assert by_a.HasField("accepted"), by_a.rejected
        assert by_a.accepted.version > by_b.accepted.version
        lookups: list[str] = []
        real_lookup = a.store.lookup

        async def counted(table: str, command: CommandKey) -> Any:
            lookups.append(table)
            return await real_lookup(table, command)

        monkeypatch.setattr(a.store, "lookup", counted)
        (seat2, third) = scripted_game(table_id)[2]
        by_a_again = await a.execute(envelope(table_id, "a-2", seat2, third))
        assert by_a_again.HasField("accepted") and lookups == []
        repeated = await a.execute(envelope(table_id, "a-2", seat2, third))
        assert repeated.accepted.duplicate
        assert repeated.accepted.version == by_a_again.accepted.version
    finally:
        await a.store.redis.aclose()
        await b.store.redis.aclose()
