"""The load test reads how long a real Redis stood still (benchmarks/redis_stalls.py)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
import redis

from benchmarks.redis_stalls import RedisStalls
from services.redis_server import RedisServer

pytestmark = pytest.mark.integration

# A script that keeps Redis's one thread busy for tens of milliseconds.
_BUSY = "local n = 0 for i = 1, tonumber(ARGV[1]) do n = n + i end return 1"


@pytest.fixture
def server() -> Iterator[RedisServer]:
    started = RedisServer(appendfsync="no").start()
    try:
        yield started
    finally:
        started.stop()


def _threshold(client: redis.Redis) -> str:
    return str(client.config_get("latency-monitor-threshold")["latency-monitor-threshold"])


def test_a_slow_script_is_a_second_redis_stood_still_and_the_threshold_is_put_back(
    server: RedisServer,
) -> None:
    client = redis.Redis.from_url(server.url)
    before = _threshold(client)
    with RedisStalls(server.url) as stalls:
        assert _threshold(client) == "1"
        since = time.time()
        started = time.perf_counter()
        client.eval(_BUSY, 0, 3_000_000)
        busy_ms = (time.perf_counter() - started) * 1e3
        line = stalls.line(since, time.time())
    assert _threshold(client) == before
    assert line is not None
    found = re.search(r"a command in (\d+) of \d+ seconds.* worst (\d+) ms", line)
    assert found is not None, line
    assert found[1] == "1"
    # The monitor's worst is the script's own time, which the round trip contains.
    assert 1 <= int(found[2]) <= busy_ms + 1


def test_a_server_that_refuses_config_is_not_reported() -> None:
    server = RedisServer(appendfsync="no", extra_args=("--rename-command", "CONFIG", "")).start()
    try:
        with RedisStalls(server.url) as stalls:
            assert not stalls.watching
            assert stalls.line(0.0, time.time()) is None
    finally:
        server.stop()
