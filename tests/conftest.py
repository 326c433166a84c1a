"""Shared fixtures: a real Redis for integration tests, and the async test backend.

Redis comes from ``REDIS_URL`` when set; else from testcontainers when a Docker engine
answers; else from a private ``redis-server`` on a free loopback port (see
:mod:`services.redis_server`). Fixtures are session-scoped, and under pytest-xdist
every worker has its own session, so every worker gets its own server. Tests never
FLUSHALL (``REDIS_URL`` may be shared): they use fresh table ids instead.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import AsyncIterator, Iterator

import pytest

from services.eventstore import EventStore, connect
from services.redis_server import RedisCluster, RedisServer, RedisServerError
from tests.redis_servers import running

_DOCKER_PING_TIMEOUT_S = 3
# 7.2+ so the container also has WAITAOF.
REDIS_IMAGE = "redis:7.4"


def docker_engine_answers() -> bool:
    """Whether a Docker engine answers a ping within a few seconds."""
    try:
        import docker
        from docker.errors import DockerException
    except ImportError:
        return False
    try:
        client = docker.from_env(timeout=_DOCKER_PING_TIMEOUT_S)
    except DockerException:
        return False
    try:
        return bool(client.ping())
    except (DockerException, OSError):
        return False
    finally:
        client.close()


@contextlib.contextmanager
def redis_container_url(image: str = REDIS_IMAGE) -> Iterator[str]:
    """Run Redis in a container via testcontainers; yield its URL (needs a Docker engine)."""
    try:
        from testcontainers.community.redis import RedisContainer
    except ImportError:  # older testcontainers releases keep it at the top level
        from testcontainers.redis import RedisContainer

    with RedisContainer(image) as container:
        host = container.get_container_host_ip()
        port = container.get_exposed_port(container.port)
        yield f"redis://{host}:{port}/0"


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    """Async tests (``@pytest.mark.anyio``) run on asyncio, like the services."""
    return "asyncio"


@pytest.fixture(scope="session")
def docker_engine() -> bool:
    return docker_engine_answers()


@pytest.fixture(scope="session")
def redis_url(docker_engine: bool) -> Iterator[str]:
    """A Redis URL for this test session (this xdist worker)."""
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    if docker_engine:
        with redis_container_url() as container_url:
            yield container_url
        return
    with running(RedisServer()) as server:
        yield server.url


def local_cluster_url() -> Iterator[str]:
    """Start a 3-master Redis Cluster on loopback, yield one node's URL, stop it after;
    skip (with the reason) where no cluster can be started."""
    try:
        cluster = RedisCluster(3).start()
    except RedisServerError as error:
        pytest.skip(f"cannot start a local Redis Cluster: {error}")
    try:
        yield cluster.url
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def redis_cluster_url() -> Iterator[str]:
    """One node's URL of a 3-master Redis Cluster on loopback, for this session."""
    yield from local_cluster_url()


@pytest.fixture
def table_id() -> str:
    """A table id no other test (or earlier run on a shared server) has used."""
    return f"test-{uuid.uuid4().hex}"


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[EventStore]:
    """An event store on the session's Redis; its client is closed after the test."""
    client = await connect(redis_url)
    try:
        yield EventStore(client, shards=16)
    finally:
        await client.aclose()
