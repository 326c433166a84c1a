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
    ClusterError,
    ReadOnlyError,
    ResponseError,
    SlotNotCoveredError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError

from engines.core.codes import CODE_METADATA
from services.engine.servicer import _guarded, _outcome
from tests.unit.broken_redis import transport_closed, writer_gone


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
        ClusterError("TTL exhausted."),
        SlotNotCoveredError('Slot "866" is not covered by the cluster.'),
    ],
    ids=lambda failure: type(failure).__name__,
)
def test_a_store_that_is_down_or_failing_over_is_unavailable(failure: Exception) -> None:
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


@pytest.mark.parametrize(
    "broken", [asyncio.run(writer_gone()), transport_closed()], ids=["AttributeError", "uvloop"]
)
def test_a_client_broken_mid_failover_is_unavailable_not_a_bug(broken: Exception) -> None:
    """redis-py's client raising AttributeError or RuntimeError mid-failover (instead of a
    ConnectionError) reaches the gateway as ``store.unavailable``, in a batch too."""

    async def call() -> Any:
        raise broken

    context = RecordingContext()
    with pytest.raises(Aborted):
        asyncio.run(_guarded(context, call()))
    assert context.status is grpc.StatusCode.UNAVAILABLE
    assert (CODE_METADATA, "store.unavailable") in context.trailing
    failed = asyncio.run(_outcome(call())).failed
    assert failed.code == "store.unavailable"
    assert failed.status == context.status.value[0]


def test_an_attribute_error_of_our_own_is_not_hidden() -> None:
    async def call() -> None:
        raise AttributeError("'Loaded' object has no attribute 'seats'")

    with pytest.raises(AttributeError):
        asyncio.run(_guarded(RecordingContext(), call()))
