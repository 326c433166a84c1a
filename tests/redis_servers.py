"""A private Redis server for a test or a fixture, skipped where none can be started."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest

from services.redis_server import RedisServer, RedisServerError

__all__ = ["running"]


@contextlib.contextmanager
def running(server: RedisServer) -> Iterator[RedisServer]:
    """``with running(RedisServer(...)) as server:`` started for the block and stopped
    after it; the test is skipped (with the reason) where it cannot be started."""
    try:
        started = server.start()
    except RedisServerError as error:
        pytest.skip(f"no Redis available: {error}")
    try:
        yield started
    finally:
        started.stop()
