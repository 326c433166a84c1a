"""The running system for end-to-end tests: one stack per test session (xdist worker)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.e2e.stack import Stack, StackError


@pytest.fixture(scope="session")
def stack(redis_url: str) -> Iterator[Stack]:
    """Engine service, projector and gateway as real processes on the session's Redis."""
    try:
        running = Stack(redis_url).start()
    except StackError as failed:
        pytest.fail(str(failed))
    try:
        yield running
    finally:
        running.stop()
