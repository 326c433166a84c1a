"""Helpers shared by the engine-service, async-path and projector tests (no tests here).

Games are real Freunde games with a short ``round_limit`` so that a whole game takes a
few dozen commands; bots pick uniformly among the legal commands with a fixed seed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import grpc
import pytest

import engines
from engines.core.contract import TableConfig
from engines.core.messages import from_json
from engines.core.play import Table
from proto import common_pb2, engine_pb2, engine_pb2_grpc
from services.config import Settings
from services.engine.host import TableHost
from services.engine.server import EngineService, start
from services.eventstore import EventStore, connect
from services.redis_server import RedisServer, free_port
from tests.redis_servers import running

SEED = bytes(range(32))
ROUND_LIMIT = 3
SHARDS = 4

FREUNDE = engines.get("freunde")
HARVEST = engines.get("harvest")


def private_redis() -> Iterator[str]:
    """Start a private server (no fsync: tests need no durability), yield its URL, stop it;
    skip where none can be started."""
    with running(RedisServer(appendfsync="no")) as server:
        yield server.url


@pytest.fixture(scope="module")
def private_redis_url() -> Iterator[str]:
    """A Redis of this module's own: the async path and the projector use shard-wide keys."""
    yield from private_redis()


@contextlib.asynccontextmanager
async def opened_store(url: str, shards: int = SHARDS) -> AsyncIterator[EventStore]:
    """An event store on its own connection to ``url``, closed afterwards."""
    client = await connect(url)
    try:
        yield EventStore(client, shards=shards)
    finally:
        await client.aclose()


@pytest.fixture
async def service(redis_url: str) -> AsyncIterator[EngineService]:
    running = await start(
        "freunde", port=0, settings=Settings(redis_url=redis_url, shards=SHARDS), consume=False
    )
    try:
        yield running
    finally:
        await running.stop(grace=1)


@pytest.fixture
async def channel(service: EngineService) -> AsyncIterator[grpc.aio.Channel]:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{service.port}") as opened:
        yield opened


@pytest.fixture
def stub(channel: grpc.aio.Channel) -> engine_pb2_grpc.EngineStub:
    return engine_pb2_grpc.EngineStub(channel)


async def open_host(url: str, **options: Any) -> TableHost:
    """A table host on its own connection: one engine-service replica."""
    return TableHost(EventStore(await connect(url), shards=SHARDS), FREUNDE, **options)


@pytest.fixture
async def host(redis_url: str) -> AsyncIterator[TableHost]:
    replica = await open_host(redis_url)
    try:
        yield replica
    finally:
        await replica.store.redis.aclose()


def create_request(table_id: str, seats: int = 2, **options: Any) -> engine_pb2.CreateTableRequest:
    options.setdefault("round_limit", ROUND_LIMIT)
    return engine_pb2.CreateTableRequest(
        table_id=table_id,
        seats=seats,
        options={name: json.dumps(value) for name, value in options.items()},
        seed=SEED,
    )


def scripted_game(table_id: str, seats: int = 2, bot_seed: int = 7) -> list[tuple[int, Any]]:
    """A whole game's commands, (seat, command), chosen by a seeded random bot."""
    config = TableConfig(table_id, seats, {"round_limit": ROUND_LIMIT})
    table = Table.create(FREUNDE, config, SEED)
    chooser = random.Random(bot_seed)
    table.play(lambda t, seat: chooser.choice(FREUNDE.legal_commands(t.state, seat)))
    return [(record.seat, record.command) for record in table.commands]


def envelope(
    table_id: str, command_id: str, seat: int, command: Any, expected: int | None = None
) -> common_pb2.CommandEnvelope:
    env = common_pb2.CommandEnvelope(
        table_id=table_id, command_id=command_id, seat=seat, payload=command.SerializeToString()
    )
    if expected is not None:
        env.expected_version = expected
    return env


def command_from_json(text: str) -> Any:
    return from_json(FREUNDE.command_type, json.loads(text))


async def play_with_bots(host: TableHost, table_id: str, bot_seed: int = 1) -> int:
    """Play the table to its end through ``host``; returns the number of commands."""
    chooser = random.Random(bot_seed)
    sent = 0
    while True:
        loaded = await host.load(table_id)
        outcome = FREUNDE.outcome(loaded.state)
        if outcome.finished:
            return sent
        seat = outcome.to_act[0]
        command = chooser.choice(FREUNDE.legal_commands(loaded.state, seat))
        reply = await host.execute(envelope(table_id, f"bot-{sent}", seat, command))
        assert reply.HasField("accepted"), reply
        sent += 1


@contextlib.contextmanager
def service_process(url: str, *args: str, **env: str) -> Iterator[subprocess.Popen[bytes]]:
    """``python -m <args>`` (an engine service, the projector) on ``url``'s Redis with
    ``BW_SHARDS=SHARDS`` and ``env``; stopped with SIGTERM, and it must stop cleanly."""
    environment = dict(os.environ, REDIS_URL=url, BW_SHARDS=str(SHARDS), **env)
    process = subprocess.Popen(
        [sys.executable, "-m", *args],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        yield process
    finally:
        process.send_signal(signal.SIGTERM)
        stderr = process.communicate(timeout=30)[1].decode(errors="replace")
    assert process.returncode == 0, stderr[-4000:]


def engine_process(
    url: str, game: str, port: int | None = None, **env: str
) -> contextlib.AbstractContextManager[Any]:
    """One game's engine service (gRPC on ``port``, else a free one; and the async-path
    consumer)."""
    port = port or free_port()
    return service_process(url, "services.engine", "--game", game, "--port", str(port), **env)


async def eventually(done: Callable[[], Awaitable[bool]], what: str, within_s: float = 90) -> None:
    """Wait until ``done()`` holds: a liveness bound on other processes, not a timing claim."""
    deadline = time.monotonic() + within_s
    while not await done():
        assert time.monotonic() < deadline, f"never: {what}"
        await asyncio.sleep(0.02)
