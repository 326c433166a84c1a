"""Script calls sent as one pipeline, by hand or gathered from concurrent callers: in
order, each once, and again after the server lost its scripts."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from redis.exceptions import ResponseError

from services.eventstore import AutoPipeline, ScriptCall, connect, run_scripts
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


_PUSH_OR_REFUSE = """
if ARGV[1] == 'refuse' then
  return redis.error_reply('REFUSED this one')
end
return redis.call('RPUSH', KEYS[1], ARGV[1])
"""


async def test_calls_made_at_once_share_one_pipeline_and_keep_their_own_outcome(
    private_redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fifty callers at the same instant: the first goes alone, the other 49 in one
    pipeline after it; each gets its own reply or error, and each call runs exactly once,
    also after the server lost the script."""
    redis = await connect(private_redis_url)
    try:
        script = redis.register_script(_PUSH_OR_REFUSE)
        batcher = AutoPipeline(redis)
        sends = _count_sends(redis, monkeypatch)
        await redis.script_flush()
        words = [f"w{n}" for n in range(50)]
        words[7] = "refuse"
        replies = await asyncio.gather(
            *(batcher.call(ScriptCall(script, [f"auto:{w}"], [w])) for w in words),
            return_exceptions=True,
        )
        # The lone call met NOSCRIPT, loaded the script and ran; then one pipeline.
        assert sends == {"alone": 2, "pipelines": 1}
        assert isinstance(replies[7], ResponseError) and "REFUSED" in str(replies[7])
        assert [r for n, r in enumerate(replies) if n != 7] == [1] * 49
        assert await redis.llen("auto:w0") == 1 and await redis.llen("auto:w49") == 1
    finally:
        await redis.aclose()


async def test_calls_made_while_a_call_is_on_its_way_go_together_after_it(
    private_redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Group commit: one call alone goes at once, without a pipeline; the ten made one by
    one while it is held up by the server wait for its reply, then share one pipeline,
    each with its own reply, in order."""
    redis = await connect(private_redis_url)
    try:
        script = redis.register_script(_APPEND_AND_COUNT)
        await redis.script_load(script.script)
        batcher = AutoPipeline(redis)
        sends = _count_sends(redis, monkeypatch)
        # The server holds every client's commands for a while: the first call stays on
        # its way while the others are made.
        await redis.execute_command("CLIENT", "PAUSE", 300)
        first = asyncio.create_task(batcher.call(ScriptCall(script, ["group"], ["first"])))
        while not sends["alone"]:
            await asyncio.sleep(0.005)
        later = []
        for n in range(10):
            # One at a time, each in its own turn of the loop.
            later.append(
                asyncio.create_task(batcher.call(ScriptCall(script, ["group"], [f"w{n}"])))
            )
            await asyncio.sleep(0.005)
        assert await asyncio.gather(first, *later) == list(range(1, 12))
        assert sends == {"alone": 1, "pipelines": 1}
        assert await redis.lrange("group", 0, -1) == [b"first"] + [b"w%d" % n for n in range(10)]
    finally:
        await redis.aclose()


def _count_sends(redis: Any, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Counts, from now on, of the pipelines ``redis`` opens and of its lone ``EVALSHA``s."""
    sends = {"alone": 0, "pipelines": 0}
    real_pipeline, real_evalsha = redis.pipeline, redis.evalsha

    def pipeline(*args: Any, **kwargs: Any) -> Any:
        sends["pipelines"] += 1
        return real_pipeline(*args, **kwargs)

    def evalsha(*args: Any, **kwargs: Any) -> Any:
        sends["alone"] += 1
        return real_evalsha(*args, **kwargs)

    monkeypatch.setattr(redis, "pipeline", pipeline)
    monkeypatch.setattr(redis, "evalsha", evalsha)
    return sends
