"""Script calls sent as one pipeline: in order, and again after the server lost its scripts."""

from __future__ import annotations

import pytest

from services.eventstore import ScriptCall, connect, run_scripts
from tests.integration.test_engine_service_support import private_redis_url

pytestmark = [pytest.mark.anyio, pytest.mark.integration]

__all__ = ["private_redis_url"]

_APPEND_AND_COUNT = "redis.call('RPUSH', KEYS[1], ARGV[1]) return redis.call('LLEN', KEYS[1])"


async def test_calls_run_in_order_and_survive_a_script_flush(private_redis_url: str) -> None:
    redis = await connect(private_redis_url)
    try:
        script = redis.register_script(_APPEND_AND_COUNT)
        calls = [ScriptCall(script, ["pipelined"], [n]) for n in range(3)]
        assert await run_scripts(redis, calls) == [1, 2, 3]
        await redis.script_flush()
        assert await run_scripts(redis, calls) == [4, 5, 6]
        assert await redis.lrange("pipelined", 0, -1) == [b"0", b"1", b"2"] * 2
        assert await run_scripts(redis, []) == []
    finally:
        await redis.aclose()
