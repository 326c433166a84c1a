"""AutoPipeline's hand-over, on a Redis stand-in whose pipelines answer when told: the
calls that waited for a pipeline go before that pipeline's callers resume. (The calls
themselves, their order and their errors are shown on a real Redis in
tests/integration/test_pipelined_scripts.py.)"""

from __future__ import annotations

import asyncio
from typing import Any, Self

import pytest

from services.eventstore import AutoPipeline, ScriptCall

pytestmark = pytest.mark.anyio


class HeldPipeline:
    """Collects EVALSHAs; ``execute`` answers each with its first argument once its
    redis's ``release`` is set."""

    def __init__(self, redis: HeldRedis) -> None:
        self.redis = redis
        self.args: list[Any] = []

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *_: object) -> None:
        return None

    def evalsha(self, sha: str, numkeys: int, *keys_and_args: Any) -> None:
        self.args.append(keys_and_args[numkeys])

    async def execute(self, raise_on_error: bool = True) -> list[Any]:
        release = asyncio.Event()
        self.redis.held.append(release)
        await release.wait()
        return self.args


class HeldRedis:
    def __init__(self) -> None:
        self.pipelines: list[HeldPipeline] = []
        self.held: list[asyncio.Event] = []

    def pipeline(self, transaction: bool = True) -> HeldPipeline:
        self.pipelines.append(HeldPipeline(self))
        return self.pipelines[-1]

    async def evalsha(self, sha: str, numkeys: int, *keys_and_args: Any) -> Any:
        release = asyncio.Event()
        self.held.append(release)
        await release.wait()
        return keys_and_args[numkeys]


class Script:
    sha = "0" * 40
    script = "return ARGV[1]"


async def _until(condition: Any) -> None:
    while not condition():
        await asyncio.sleep(0)


async def test_the_calls_that_waited_go_before_the_answered_callers_resume() -> None:
    redis = HeldRedis()
    batcher = AutoPipeline(redis)  # type: ignore[arg-type]
    seen_when_answered: list[int] = []

    async def call(word: str) -> Any:
        reply = await batcher.call(ScriptCall(Script(), ["k"], [word]))  # type: ignore[arg-type]
        seen_when_answered.append(len(redis.pipelines))
        return reply

    lone = asyncio.create_task(call("lone"))
    await _until(lambda: len(redis.held) == 1)
    second = [asyncio.create_task(call(f"b{n}")) for n in range(2)]
    await _until(lambda: len(batcher._waiting) == 2)
    redis.held[0].set()
    await _until(lambda: len(redis.held) == 2)
    assert len(redis.pipelines) == 1  # the two that waited, together
    third = [asyncio.create_task(call(f"c{n}")) for n in range(2)]
    await _until(lambda: len(batcher._waiting) == 2)
    redis.held[1].set()
    await _until(lambda: len(redis.held) == 3)
    redis.held[2].set()
    assert await asyncio.gather(lone, *second, *third) == ["lone", "b0", "b1", "c0", "c1"]
    # The lone caller went on before the first pipeline was opened; the second pipeline
    # was opened before the first one's callers went on.
    assert seen_when_answered == [0, 2, 2, 2, 2]
