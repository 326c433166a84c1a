"""What counts as Redis trouble (wait and go on; 503 to a client) and what stays a bug.

redis-py's client, when a cluster primary fails over under it, sometimes raises an
AttributeError or (under uvloop) a RuntimeError instead of a ConnectionError. Those are
Redis trouble when redis-py's connection handling raised them, and bugs when our code (or
redis-py refusing an argument we passed) did."""

from __future__ import annotations

import asyncio
from typing import cast

import pytest
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ReadOnlyError, ResponseError

from services.eventstore import is_redis_trouble, is_store_unavailable
from services.scheduler.due import DuePlans, Pass
from services.scheduler.scheduler import Scheduler
from tests.unit.broken_redis import transport_closed, writer_gone


def _raised(error: Exception) -> Exception:
    """``error`` as our own code raises it, with a traceback of our frames only."""
    try:
        raise error
    except Exception as raised:
        return raised


@pytest.mark.parametrize(
    "broken",
    [asyncio.run(writer_gone()), transport_closed()],
    ids=["AttributeError", "RuntimeError-uvloop"],
)
def test_a_client_broken_mid_failover_is_the_store_unavailable(broken: Exception) -> None:
    assert is_store_unavailable(broken)
    assert is_redis_trouble(broken)


@pytest.mark.parametrize(
    "bug",
    [
        AttributeError("'NoneType' object has no attribute 'writelines'"),
        RuntimeError("the handler is closed"),
        OSError("disk full"),
    ],
    ids=type,
)
def test_the_same_errors_raised_by_our_code_are_bugs(bug: Exception) -> None:
    """Same types, same messages, but not raised inside redis-py: never hidden as "retry
    later" (an OSError of ours still makes a loop wait and go on, as it always did)."""
    assert not is_store_unavailable(_raised(bug))
    assert is_redis_trouble(_raised(bug)) == isinstance(bug, OSError)


def test_an_argument_redis_py_cannot_use_is_a_bug() -> None:
    """redis-py building a command from a bad argument fails in its command code, not its
    connection handling: our bug."""
    with pytest.raises(AttributeError) as refused:
        Redis().zadd("due", cast(dict[str, float], ["not", "a", "mapping"]))
    assert not is_store_unavailable(refused.value)
    assert not is_redis_trouble(refused.value)


def test_redis_errors_keep_their_meaning() -> None:
    """A connection that failed or a demoted primary is unavailable; a reply error (a
    script bug) is not, though a loop still waits and goes on."""
    for down in (RedisConnectionError("refused"), ReadOnlyError("READONLY")):
        assert is_store_unavailable(down) and is_redis_trouble(down)
    script_bug = ResponseError("ERR Error running script")
    assert not is_store_unavailable(script_bug)
    assert is_redis_trouble(script_bug)


class FailingOncePlans:
    """Stands in for :class:`DuePlans`: the first read of the wake-up marks fails with
    ``failure``; the first pass that follows stops the scheduler."""

    redis = None
    shards = 1

    def __init__(self, failure: Exception, stop: asyncio.Event) -> None:
        self.failure: Exception | None = failure
        self.stop = stop
        self.passes = 0

    async def wake_marks(self) -> dict[str, bytes]:
        if self.failure is not None:
            failure, self.failure = self.failure, None
            raise failure
        return {}

    async def fire_all(self, now_ms: int, limit: int = 100) -> Pass:
        self.passes += 1
        self.stop.set()
        return Pass([], None, False)

    async def wait(self, marks: dict[str, bytes], block_ms: int) -> bool:
        await self.stop.wait()
        return False


def _run_scheduler(failure: Exception) -> FailingOncePlans:
    async def run() -> FailingOncePlans:
        stop = asyncio.Event()
        plans = FailingOncePlans(failure, stop)
        await Scheduler(cast(DuePlans, plans)).run(stop)
        return plans

    return asyncio.run(run())


def test_a_loop_keeps_going_after_the_client_broke_mid_failover() -> None:
    """The scheduler (every long-running loop shares the same test) waits and fires again."""
    assert _run_scheduler(asyncio.run(writer_gone())).passes == 1


def test_a_loop_dies_of_a_bug() -> None:
    with pytest.raises(AttributeError, match="'Due' object"):
        _run_scheduler(_raised(AttributeError("'Due' object has no attribute 'at'")))
