"""Eight OS processes racing to append to one table: one log, no gap, no duplicate."""

from __future__ import annotations

import asyncio
import multiprocessing
from collections import Counter
from multiprocessing.synchronize import Barrier
from typing import cast

import pytest

from engines.core.hashchain import verify_chain
from proto import common_pb2
from services.eventstore import EventStore, Head, VersionConflict, connect
from tests.integration.store_support import command_key

pytestmark = [pytest.mark.integration, pytest.mark.anyio]

WRITERS = 8
COMMANDS_PER_WRITER = 30
SHARDS = 16


def writer_event(writer: int, n: int) -> common_pb2.StoredEvent:
    return common_pb2.StoredEvent(seat=writer % 4, time_ms=n, payload=f"{writer}:{n}".encode())


async def append_commands(url: str, table_id: str, writer: int) -> tuple[int, int]:
    """Append this writer's commands, reloading the head on each conflict.

    Every fifth command is sent twice, as a client would after losing the reply; the
    second send must come back as a duplicate. Returns (conflicts seen, duplicates).
    """
    client = await connect(url)
    store = EventStore(client, shards=SHARDS)
    conflicts = duplicates = 0
    head = await store.head(table_id)
    try:
        for n in range(COMMANDS_PER_WRITER):
            command_id = f"w{writer}-c{n}"
            # One command may carry several events; keep them together.
            events = [writer_event(writer, n)] * (1 + n % 2)
            while True:
                try:
                    appended = await store.append(table_id, command_key(command_id), head, events)
                    break
                except VersionConflict as conflict:
                    conflicts += 1
                    head = conflict.head
            head = appended.head
            if n % 5 == 0:
                again = await store.append(table_id, command_key(command_id), Head.empty(), events)
                duplicates += again.duplicate and again.events == appended.events
    finally:
        await client.aclose()
    return conflicts, duplicates


def writer_process(
    url: str, table_id: str, writer: int, start: Barrier, results: multiprocessing.Queue
) -> None:
    """One OS process: wait for all writers, then append (runs in a spawned child)."""
    start.wait()
    results.put((writer, asyncio.run(append_commands(url, table_id, writer))))


async def test_eight_processes_append_one_gapless_chain(redis_url: str, table_id: str) -> None:
    """Versions are 1..N with each command's events once and adjacent; the chain holds."""
    client = await connect(redis_url)
    store = EventStore(client, shards=SHARDS)
    meta = common_pb2.TableMeta(table_id=table_id, game="freunde", seats=4)
    await store.create_table(meta, b"seed", [])

    context = multiprocessing.get_context("spawn")
    start = context.Barrier(WRITERS)
    results: multiprocessing.Queue = context.Queue()
    processes = [
        context.Process(target=writer_process, args=(redis_url, table_id, w, start, results))
        for w in range(WRITERS)
    ]
    for process in processes:
        process.start()
    outcomes = dict(results.get(timeout=120) for _ in processes)
    for process in processes:
        process.join(timeout=30)
    assert [process.exitcode for process in processes] == [0] * WRITERS

    try:
        events = await store.read(table_id)
        feed = await client.xrange(store.keys(table_id).feed)
        head = await store.head(table_id)
    finally:
        await client.aclose()

    expected_total = WRITERS * sum(1 + n % 2 for n in range(COMMANDS_PER_WRITER))
    assert [e.version for e in events] == list(range(1, expected_total + 1))
    check = verify_chain(events)
    assert check.ok, check.reason
    assert head == Head(check.head_version, check.head_hash)
    per_command = Counter(e.command_id for e in events)
    assert per_command == {
        f"w{w}-c{n}": 1 + n % 2 for w in range(WRITERS) for n in range(COMMANDS_PER_WRITER)
    }
    for command_id in per_command:
        versions = [e.version for e in events if e.command_id == command_id]
        assert versions == list(range(versions[0], versions[0] + len(versions)))
    # The writers really raced: otherwise this test would show nothing about conflicts.
    assert sum(outcomes[w][0] for w in range(WRITERS)) > 0
    duplicates_per_writer = len(range(0, COMMANDS_PER_WRITER, 5))
    assert [outcomes[w][1] for w in range(WRITERS)] == [duplicates_per_writer] * WRITERS
    ours = [cast(dict[bytes, bytes], fields) for _, fields in feed or []]
    ours = [fields for fields in ours if fields[b"table"] == table_id.encode()]
    assert [int(fields[b"v"]) for fields in ours] == list(range(1, expected_total + 1))
    assert [fields[b"e"] for fields in ours] == [
        e.SerializeToString(deterministic=True) for e in events
    ]
