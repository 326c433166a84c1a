"""One async client for either a single Redis server or a Redis Cluster, chosen by asking it."""

from __future__ import annotations

import asyncio
import os
from pathlib import PurePath
from typing import Any, TypeAlias

import redis
from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff
from redis.driver_info import DriverInfo
from redis.exceptions import (
    ClusterError,
    ReadOnlyError,
    RedisError,
    SlotNotCoveredError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

__all__ = [
    "DEFAULT_MAX_CONNECTIONS",
    "DRIVER_INFO",
    "RECONNECT_RETRY",
    "STORE_UNAVAILABLE",
    "AnyRedis",
    "connect",
    "is_cluster",
    "is_redis_trouble",
    "is_store_unavailable",
]

AnyRedis: TypeAlias = Redis | RedisCluster

# Redis is down, restarting, loading or failing over (a demoted primary answers READONLY,
# a cluster without a primary for a slot CLUSTERDOWN or TRYAGAIN, and the cluster client,
# out of retries, gives up with ClusterError "TTL exhausted" or finds no node serving the
# slot in its map): waiting and retrying helps, so every process reports these as
# "unavailable", never as a bug.
STORE_UNAVAILABLE: tuple[type[Exception], ...] = (
    RedisConnectionError,
    RedisTimeoutError,
    ClusterError,
    SlotNotCoveredError,
    TryAgainError,
    ReadOnlyError,
)

# Where redis-py's asyncio client and its reply parsers live (its connection handling, as
# opposed to redis/commands, which builds commands from our arguments), and asyncio's
# transports: to tell where an error arose.
_REDIS_CONNECTIONS = tuple(
    os.path.join(os.path.dirname(redis.__file__), part, "") for part in ("asyncio", "_parsers")
)
_ASYNCIO = os.path.join(os.path.dirname(asyncio.__file__), "")

DEFAULT_MAX_CONNECTIONS = 256
# How long a caller waits for a free pooled connection before ConnectionError.
_POOL_WAIT_S = 20.0

# What each new connection tells the server (CLIENT SETINFO), resolved once: redis-py
# otherwise looks its own version up in the installed packages' metadata for every
# connection it opens, which was a quarter of the gateway's CPU while its pool grew.
DRIVER_INFO = DriverInfo()

# A pooled connection that died with a Redis restart is reopened and its command sent again
# at once, instead of failing the request. Safe for everything the services send: reads are
# idempotent, and an append carries its seat-scoped command id, so an append that landed
# before its reply was lost is answered from the recorded outcome, not applied twice.
# Timeouts are not retried: a Redis that does not answer is reported, not waited for again.
RECONNECT_RETRY = Retry(
    ExponentialWithJitterBackoff(cap=0.25, base=0.01), 3, supported_errors=(RedisConnectionError,)
)


async def is_cluster(url: str) -> bool:
    """Whether the server at ``url`` runs with ``cluster_enabled:1``."""
    probe = Redis.from_url(url)
    try:
        info: dict[str, object] = await probe.info("cluster")
    finally:
        await probe.aclose()
    return str(info.get("cluster_enabled", 0)) == "1"


async def connect(
    url: str, *, max_connections: int = DEFAULT_MAX_CONNECTIONS, **options: Any
) -> AnyRedis:
    """A client for ``url``: a cluster client when the server is a cluster node.

    Replies stay bytes (``decode_responses=False``): events are protobuf bytes. The
    plain client's pool blocks callers beyond ``max_connections`` until a connection is
    free (redis-py's default pool would raise instead); the cluster client allows
    ``max_connections`` per node. A cluster client is returned initialised, so its slot
    map is usable before the first command. ``options`` go to redis-py's client as they
    are (``socket_timeout``, ``retry``, ...).
    """
    options.setdefault("driver_info", DRIVER_INFO)
    if await is_cluster(url):
        cluster = RedisCluster.from_url(
            url, decode_responses=False, max_connections=max_connections, **options
        )
        await cluster.initialize()
        return cluster
    pool = BlockingConnectionPool.from_url(
        url,
        max_connections=max_connections,
        timeout=_POOL_WAIT_S,
        decode_responses=False,
        **options,
    )
    return Redis.from_pool(pool)


def is_store_unavailable(error: BaseException) -> bool:
    """Whether ``error`` means Redis cannot be reached or is failing over, so that the same
    request may succeed later: one of :data:`STORE_UNAVAILABLE`, or redis-py's client
    breaking while its connection is torn down under it.

    During a cluster failover the client sometimes fails with a non-Redis error instead
    of a ``ConnectionError``: ``AttributeError`` ('NoneType' object has no attribute
    'writelines', a writer another task already dropped) or, under uvloop,
    ``RuntimeError`` (a write to a closed transport), and an ``OSError`` may escape it
    unwrapped. Those count only when raised inside redis-py's connection handling or the
    transport it was writing to: the same types raised by our code, or by redis-py
    building a command from a bad argument, are bugs and must still fail loudly.
    """
    if isinstance(error, STORE_UNAVAILABLE):
        return True
    broken = isinstance(error, AttributeError | RuntimeError | OSError)
    return broken and _raised_by_redis_connection(error)


def is_redis_trouble(error: BaseException) -> bool:
    """Whether a long-running loop should log ``error``, wait and go on: any error Redis
    answered or the connection met (``RedisError``, ``OSError``), or the store being
    unavailable as :func:`is_store_unavailable` sees it. A loop that died would stay
    dead, and its round is safe to run again."""
    return isinstance(error, RedisError | OSError) or is_store_unavailable(error)


def _raised_by_redis_connection(error: BaseException) -> bool:
    """Whether the innermost frame of ``error``'s traceback outside the event loop's
    transports (asyncio's streams, uvloop's Cython handles) is redis-py's connection
    handling."""
    files: list[str] = []
    frame = error.__traceback__
    while frame is not None:
        files.append(frame.tb_frame.f_code.co_filename)
        frame = frame.tb_next
    for filename in reversed(files):
        if filename.startswith(_ASYNCIO) or "uvloop" in PurePath(filename).parts:
            continue
        return filename.startswith(_REDIS_CONNECTIONS)
    return False
