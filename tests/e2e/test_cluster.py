"""One whole game through every process against a real Redis Cluster, with the seat's
notifications."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import httpx
import pytest
import redis

from gateway.client import BotTable, GatewayClient, ServerEvent
from gateway.export import verify_export
from services.eventstore import Keys, shard_of
from tests.e2e.conftest import running_stack
from tests.e2e.helpers import projected_table, seen_by_everyone
from tests.e2e.stack import Stack

pytestmark = [pytest.mark.e2e, pytest.mark.cluster]


@pytest.fixture(scope="module")
def cluster_stack(redis_cluster_url: str) -> Iterator[Stack]:
    yield from running_stack(redis_cluster_url)


def test_a_game_on_redis_cluster_audits_and_verifies(cluster_stack: Stack) -> None:
    """Tables spread over the cluster's slots play, stream, audit and export as on one server."""

    async def watch(client: GatewayClient, table_id: str) -> list[ServerEvent]:
        return [message async for message in client.stream(table_id)]

    async def scenario() -> tuple[BotTable, dict, str, dict, list[ServerEvent]]:
        async with GatewayClient(cluster_stack.url) as client:
            table = await BotTable.open(client, "freunde", 3, "greedy", options={"round_limit": 3})
            watcher = asyncio.create_task(watch(client, table.table_id))
            while await table.step():
                pass
            live = await asyncio.wait_for(watcher, timeout=60)
            view = await client.view(table.table_id, table.tokens[0], min_version=table.version)
            audit = await client.audit(table.table_id)
            return table, audit, await client.export(table.table_id), view, live

    table, audit, exported, view, live = asyncio.run(scenario())
    assert audit["ok"] and audit["reexecution_checked"] and audit["reexecution_ok"], audit
    assert view["status"]["finished"] is True
    assert verify_export(exported.splitlines()).ok
    assert [m.id for m in live[:-1]] == [str(v) for v in range(1, table.version + 1)]
    assert live[-1].event == "end"

    # The notifier derived the seat's notifications on the cluster too: its turns, the end.
    kinds: list[str] = []
    deadline = time.monotonic() + 60
    while "game_over" not in kinds and time.monotonic() < deadline:
        page = httpx.get(
            f"{cluster_stack.url}/v1/me/notifications",
            params={"after": "0"},
            headers={"Authorization": f"Bearer {table.tokens[0]}"},
            timeout=10,
        )
        assert page.status_code == 200, page.text
        kinds = [n["kind"] for n in page.json()["notifications"]]
        time.sleep(0.1)
    assert "your_turn" in kinds and kinds[-1] == "game_over", kinds


def test_views_a_node_lost_are_answered_meanwhile_and_written_again(cluster_stack: Stack) -> None:
    """Views are kept in memory only: a node that restarts or fails over loses them (the
    status stays). Reads meanwhile get the same document from the engine service, and the
    projector, told by those reads, writes the views again on the node that serves them."""

    table_id, tokens, version = asyncio.run(projected_table(cluster_stack.url, 5, bot_seed=3))
    keys = Keys(shard_of(table_id, cluster_stack.shards), table_id)
    lost = [keys.view("public"), keys.view("seat:0")]
    with redis.RedisCluster.from_url(cluster_stack.redis_url) as nodes:
        before = seen_by_everyone(cluster_stack.url, table_id, tokens)
        assert nodes.delete(*lost) == 2
        # A read waiting for a version the status holds does not wait for the lost view:
        # it is answered, and reports the loss, at once.
        waited = httpx.get(
            f"{cluster_stack.url}/v1/tables/{table_id}",
            params={"min_version": version},
            headers={"Authorization": f"Bearer {tokens[0]}"},
            timeout=30,
        )
        assert waited.json() == before[1]
        deadline = time.monotonic() + 30
        while [nodes.hget(key, "version") for key in lost] != [str(version).encode()] * 2:
            assert time.monotonic() < deadline, "the lost views were never written again"
            time.sleep(0.1)
        assert seen_by_everyone(cluster_stack.url, table_id, tokens) == before
