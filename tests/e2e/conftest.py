"""The running system for end-to-end tests: one stack per game set per test session
(xdist worker)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.e2e.stack import Stack, StackError


def _running(redis_url: str, games: tuple[str, ...]) -> Iterator[Stack]:
    try:
        running = Stack(redis_url, games=games).start()
    except StackError as failed:
        pytest.fail(str(failed))
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="session")
def stack(redis_url: str) -> Iterator[Stack]:
    """Freunde's engine service, projector and gateway as real processes on the session's Redis."""
    yield from _running(redis_url, ("freunde",))


@pytest.fixture(scope="session")
def harvest_stack(redis_url: str) -> Iterator[Stack]:
    """The same services, unchanged, serving Harvest: only the engine service's ``--game``
    and the gateway's ``BW_ENGINE_ADDRS`` differ."""
    yield from _running(redis_url, ("harvest",))


@pytest.fixture(scope="session")
def bardwood_stack(redis_url: str) -> Iterator[Stack]:
    """The same services, unchanged, serving Bardwood Grove."""
    yield from _running(redis_url, ("bardwood",))
