"""One whole game through every process against a real Redis Cluster."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from gateway.client import GatewayClient, play_table
from gateway.export import verify_export
from tests.e2e.stack import Stack, StackError

pytestmark = [pytest.mark.e2e, pytest.mark.cluster]


@pytest.fixture(scope="module")
def cluster_stack(redis_cluster_url: str) -> Iterator[Stack]:
    try:
        running = Stack(redis_cluster_url).start()
    except StackError as failed:
        pytest.fail(str(failed))
    try:
        yield running
    finally:
        running.stop()


def test_a_game_on_redis_cluster_audits_and_verifies(cluster_stack: Stack) -> None:
    """Tables spread over the cluster's slots play, audit and export as on one server."""

    async def scenario() -> tuple[dict, str, dict]:
        async with GatewayClient(cluster_stack.url) as client:
            played = await play_table(client, "freunde", 3, "greedy", options={"round_limit": 3})
            view = await client.view(played.table_id, played.tokens[0], min_version=played.version)
            return await client.audit(played.table_id), await client.export(played.table_id), view

    audit, exported, view = asyncio.run(scenario())
    assert audit["ok"] and audit["reexecution_checked"] and audit["reexecution_ok"], audit
    assert view["status"]["finished"] is True
    assert verify_export(exported.splitlines()).ok
