"""The gateway under a Redis that restarts or stalls: reads go on at once after a restart
(and the views it lost are written again), and a paused Redis is reported by /readyz
within its ready timeout."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from services.eventstore import Keys, shard_of
from services.redis_server import RedisServer, RedisServerError
from tests.e2e.helpers import projected_table, seen_by_everyone
from tests.e2e.stack import Stack

pytestmark = [pytest.mark.e2e]


@dataclass
class Restartable:
    stack: Stack
    server: RedisServer
    data_dir: Path
    table_id: str
    version: int
    tokens: list[str]


@pytest.fixture(scope="module")
def restartable(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Restartable]:
    """A stack on a private Redis whose AOF survives a restart on the same port."""
    data_dir = tmp_path_factory.mktemp("redis-restart")
    try:
        server = RedisServer(data_dir=data_dir).start()
    except RedisServerError as error:
        pytest.skip(f"no Redis available: {error}")
    # The tests replace the server with a new one on the same port: the one to stop at the
    # end is whichever the Restartable holds then.
    held: list[Restartable] = []
    try:
        with Stack(server.url) as stack:
            table_id, tokens, version = asyncio.run(projected_table(stack.url, 4, bot_seed=4))
            held.append(Restartable(stack, server, data_dir, table_id, version, tokens))
            yield held[0]
    finally:
        (held[0].server if held else server).stop()


async def _views(url: str, table_id: str, count: int) -> list[int]:
    async with httpx.AsyncClient(base_url=url, timeout=30.0) as http:
        replies = await asyncio.gather(*(http.get(f"/v1/tables/{table_id}") for _ in range(count)))
    return [reply.status_code for reply in replies]


def _stored_views(restartable: Restartable) -> dict[str, Any]:
    """The table's read models as Redis holds them: name -> version (None when missing)."""
    table_id, shards = restartable.table_id, restartable.stack.shards
    keys = Keys(shard_of(table_id, shards), table_id)
    with redis.Redis.from_url(restartable.server.url) as client:
        return {name: client.hget(name, "version") for name in keys.views(len(restartable.tokens))}


def test_reads_succeed_right_after_redis_restarts(restartable: Restartable) -> None:
    """Many pooled connections, then Redis restarts under the running gateway: the very
    next reads, however many at once, all succeed (stale connections are reopened).

    The views are not in the AOF, so the restart loses them (the status stays): every
    viewer still reads the same view, answered by the engine service, and the projector,
    told by those reads, writes the views again."""
    stack, table_id = restartable.stack, restartable.table_id
    assert asyncio.run(_views(stack.url, table_id, 60)) == [200] * 60
    before = seen_by_everyone(stack.url, table_id, restartable.tokens)
    restartable.server.restart()
    status, *views = _stored_views(restartable).values()
    assert status == str(restartable.version).encode()
    assert views == [None] * len(views)
    statuses = asyncio.run(_views(stack.url, table_id, 60))
    assert statuses == [200] * 60, statuses
    assert seen_by_everyone(stack.url, table_id, restartable.tokens) == before
    assert before[0]["version"] == restartable.version
    with httpx.Client(base_url=stack.url) as http:
        metrics = http.get("/metrics").text
    lost = re.search(r'^bw_gateway_views_lost_total\{game="freunde"\} (\S+)$', metrics, re.M)
    assert lost is not None and float(lost[1]) >= 1

    restored = [str(restartable.version).encode()] * (1 + len(views))
    for _ in range(300):
        if list(_stored_views(restartable).values()) == restored:
            break
        time.sleep(0.1)
    assert list(_stored_views(restartable).values()) == restored
    assert seen_by_everyone(stack.url, table_id, restartable.tokens) == before


def test_a_paused_redis_makes_readyz_fail_within_its_timeout(restartable: Restartable) -> None:
    """SIGSTOP: Redis accepts connections and never answers. /readyz says so from its own
    one-second timeout (not the client's five), and is ready again once Redis resumes."""
    stack = restartable.stack
    with httpx.Client(base_url=stack.url, timeout=30.0) as http:
        assert http.get("/readyz").status_code == 200
        os.kill(restartable.server.pid, signal.SIGSTOP)
        try:
            paused = http.get("/readyz")
        finally:
            os.kill(restartable.server.pid, signal.SIGCONT)
        assert paused.status_code == 503
        assert paused.json()["checks"]["redis"] == "no answer within the ready timeout"
        assert http.get("/readyz").status_code == 200


def test_a_command_while_redis_is_down_is_503_and_its_retry_lands_once(
    restartable: Restartable,
) -> None:
    """Redis stops under a running stack: a command is refused with 503 ``store.unavailable``
    and ``Retry-After`` (never a 500), and once Redis is back the same command id lands
    exactly once."""
    stack, table_id = restartable.stack, restartable.table_id
    with httpx.Client(base_url=stack.url, timeout=30.0) as http:
        status = http.get(f"/v1/tables/{table_id}").json()["status"]
        token = restartable.tokens[int(status["to_act"][0])]
        auth = {"Authorization": f"Bearer {token}"}
        legal = http.get(f"/v1/tables/{table_id}/legal-commands", headers=auth).json()
        body = {"command_id": "while-redis-was-down", "command": legal["commands"][0]}
        port = restartable.server.port
        restartable.server.stop()
        try:
            down = http.post(f"/v1/tables/{table_id}/commands", json=body, headers=auth)
        finally:
            restartable.server = RedisServer(data_dir=restartable.data_dir, port=port).start()
        assert down.status_code == 503, down.text
        assert down.json()["code"] == "store.unavailable"
        assert int(down.headers["Retry-After"]) > 0
        first = http.post(f"/v1/tables/{table_id}/commands", json=body, headers=auth)
        again = http.post(f"/v1/tables/{table_id}/commands", json=body, headers=auth)
    assert first.status_code == 200, first.text
    assert first.json()["version"] == legal["version"] + 1
    assert again.json()["duplicate"] is True
    assert again.json()["version"] == first.json()["version"]
