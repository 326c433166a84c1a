"""The load test reads what a real Redis wrote to disk and its AOF rewrites
(benchmarks/disk.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
import redis

from benchmarks.cpu import redis_pid
from benchmarks.disk import DiskWrites
from services.redis_server import RedisServer
from tests.redis_servers import running

pytestmark = pytest.mark.integration


@pytest.fixture
def server() -> Iterator[RedisServer]:
    with running(RedisServer()) as started:
        yield started


def _written(line: str | None) -> tuple[float, int]:
    assert line is not None
    found = re.search(r"([\d.]+) KB written to disk a command.*; (\d+) AOF rewrites", line)
    assert found is not None, line
    return float(found[1]), int(found[2])


def test_appended_bytes_and_a_rewrite_are_counted(server: RedisServer) -> None:
    client = redis.Redis.from_url(server.url)
    disk = DiskWrites(server.url, redis_pid(server.url))
    try:
        disk.start()
        for n in range(10):
            client.set(f"value:{n}", b"x" * 100_000)
        kb, rewrites = _written(disk.line(10))
        # Each 100 KB value is appended to the AOF (and fsynced) before its reply.
        assert kb >= 97.0
        assert rewrites == 0

        disk.start()
        client.bgrewriteaof()
        while (
            client.info("persistence")["aof_rewrite_in_progress"]
            or client.info("persistence")["aof_rewrite_scheduled"]
        ):
            client.ping()
        assert _written(disk.line(1))[1] == 1
    finally:
        disk.close()
        client.close()


def test_a_server_that_is_not_a_local_process_reports_no_bytes(server: RedisServer) -> None:
    disk = DiskWrites(server.url, None)
    try:
        disk.start()
        assert disk.line(1) == "0 AOF rewrites"
    finally:
        disk.close()
