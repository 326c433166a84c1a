"""The running system for end-to-end tests: one stack per game set per test session
(xdist worker)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from services.redis_server import RedisServer
from tests.e2e.stack import Stack, StackError
from tests.redis_servers import running


def running_stack(
    redis_url: str, games: tuple[str, ...] = ("freunde",), **options: Any
) -> Iterator[Stack]:
    """A started :class:`Stack` for a fixture to yield; the test fails if it cannot start."""
    try:
        running = Stack(redis_url, games=games, **options).start()
    except StackError as failed:
        pytest.fail(str(failed))
    try:
        yield running
    finally:
        running.stop()


def stack_on_own_redis(games: tuple[str, ...], **options: Any) -> Iterator[Stack]:
    """A started stack on a Redis server of its own, for tests that count what one stack's
    background processes (schedulers, notifiers) do: on the session's Redis, another
    stack's replicas may take the same due work."""
    with running(RedisServer()) as server:
        yield from running_stack(server.url, games, **options)


@pytest.fixture(scope="session")
def stack(redis_url: str) -> Iterator[Stack]:
    """Freunde's engine service, projector and gateway as real processes on the session's
    Redis, logging at debug: a command's success is logged at that level only."""
    yield from running_stack(redis_url, ("freunde",), log_level="debug")


@pytest.fixture(scope="session")
def harvest_stack(redis_url: str) -> Iterator[Stack]:
    """The same services, unchanged, serving Harvest: only the engine service's ``--game``
    and the gateway's ``BW_ENGINE_ADDRS`` differ."""
    yield from running_stack(redis_url, ("harvest",))


@pytest.fixture(scope="session")
def tend_stack(redis_url: str) -> Iterator[Stack]:
    """The same services, unchanged, serving Tend."""
    yield from running_stack(redis_url, ("tend",))


@pytest.fixture(scope="session")
def bardwood_stack(redis_url: str) -> Iterator[Stack]:
    """The same services, unchanged, serving Bardwood Grove."""
    yield from running_stack(redis_url, ("bardwood",))
