"""One async client for either a single Redis server or a Redis Cluster, chosen by asking it."""

from __future__ import annotations

from typing import Any, TypeAlias

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff
from redis.driver_info import DriverInfo
from redis.exceptions import ClusterDownError, ReadOnlyError, RedisError, TryAgainError
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
]

AnyRedis: TypeAlias = Redis | RedisCluster

# Redis is down, restarting, loading or failing over (a demoted primary answers READONLY,
# a cluster without a primary for a slot CLUSTERDOWN or TRYAGAIN): waiting and retrying
# helps, so every process reports these as "unavailable", never as a bug.
STORE_UNAVAILABLE: tuple[type[RedisError], ...] = (
    RedisConnectionError,
    RedisTimeoutError,
    ClusterDownError,
    TryAgainError,
    ReadOnlyError,
)

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
