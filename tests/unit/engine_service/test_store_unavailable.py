"""A Redis that is down or failing over reaches a client as "unavailable, retry", never as a
bug: the engine service says UNAVAILABLE with ``store.unavailable`` and the gateway turns
that into 503 with Retry-After."""

from __future__ import annotations

import asyncio
from typing import Any

import grpc
import pytest
from redis.exceptions import (
    ClusterDownError,
    ReadOnlyError,
    RedisError,
    ResponseError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError

from engines.core.codes import CODE_METADATA
from services.engine.servicer import _guarded


class Aborted(Exception):
    pass


class RecordingContext:
    """Stands in for grpc's ServicerContext: ``abort`` raises, as the real one does."""

    def __init__(self) -> None:
        self.status: grpc.StatusCode | None = None
        self.trailing: tuple[tuple[str, str], ...] = ()

    async def abort(
        self, status: grpc.StatusCode, message: str, trailing_metadata: Any = ()
    ) -> None:
        self.status, self.trailing = status, tuple(trailing_metadata)
        raise Aborted(message)


@pytest.mark.parametrize(
    "failure",
    [
        RedisConnectionError("Connection refused"),
        ClusterDownError("CLUSTERDOWN The cluster is down"),
        TryAgainError("TRYAGAIN Multiple keys request during rehashing of slot"),
        ReadOnlyError("READONLY You can't write against a read only replica."),
    ],
    ids=lambda failure: type(failure).__name__,
)
def test_a_store_that_is_down_or_failing_over_is_unavailable(failure: RedisError) -> None:
    async def call() -> None:
        raise failure

    context = RecordingContext()
    with pytest.raises(Aborted):
        asyncio.run(_guarded(context, call()))
    assert context.status is grpc.StatusCode.UNAVAILABLE
    assert (CODE_METADATA, "store.unavailable") in context.trailing


def test_a_redis_reply_error_that_is_not_about_availability_is_not_hidden() -> None:
    """A script bug (a plain ResponseError) is not dressed up as "retry later"."""

    async def call() -> None:
        raise ResponseError("ERR Error running script")

    with pytest.raises(ResponseError):
        asyncio.run(_guarded(RecordingContext(), call()))
