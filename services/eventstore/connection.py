"""One async client for either a single Redis server or a Redis Cluster, chosen by asking it."""

from __future__ import annotations

from typing import TypeAlias

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

__all__ = ["AnyRedis", "connect", "is_cluster"]

AnyRedis: TypeAlias = Redis | RedisCluster


async def is_cluster(url: str) -> bool:
    """Whether the server at ``url`` runs with ``cluster_enabled:1``."""
    probe = Redis.from_url(url)
    try:
        info: dict[str, object] = await probe.info("cluster")
    finally:
        await probe.aclose()
    return str(info.get("cluster_enabled", 0)) == "1"


async def connect(url: str) -> AnyRedis:
    """A client for ``url``: a cluster client when the server is a cluster node.

    Replies stay bytes (``decode_responses=False``): events are protobuf bytes. A cluster
    client is returned initialised, so its slot map is usable before the first command.
    """
    if await is_cluster(url):
        cluster = RedisCluster.from_url(url, decode_responses=False)
        await cluster.initialize()
        return cluster
    return Redis.from_url(url, decode_responses=False)
