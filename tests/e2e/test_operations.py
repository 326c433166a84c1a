"""Probes, metrics and the OpenAPI docs of the running gateway."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from gateway.client import BotTable, GatewayClient
from tests.e2e.stack import Stack

pytestmark = [pytest.mark.e2e]


def test_probes_report_ready_when_redis_and_the_engines_answer(stack: Stack) -> None:
    """/healthz answers; /readyz names Redis and every engine service as ok."""
    with httpx.Client(base_url=stack.url) as http:
        assert http.get("/healthz").json() == {"status": "ok", "checks": {}}
        ready = http.get("/readyz")
        assert ready.status_code == 200
        assert ready.json()["checks"] == {"redis": "ok", "engine:freunde": "ok"}


def test_metrics_count_commands_by_game_and_outcome(stack: Stack) -> None:
    """After accepted and rejected commands, /metrics counts both and reports latency."""

    async def scenario() -> None:
        async with GatewayClient(stack.url) as client:
            table = await BotTable.open(client, "freunde", 2, options={"round_limit": 2})
            await table.step()
            await client.http.post(
                f"/v1/tables/{table.table_id}/commands",
                headers={"Authorization": f"Bearer {table.tokens[0]}"},
                json={"command_id": "stale", "expected_version": 0, "command": {"end_turn": {}}},
            )

    asyncio.run(scenario())
    with httpx.Client(base_url=stack.url) as http:
        text = http.get("/metrics").text
    assert 'bw_gateway_commands_total{game="freunde",outcome="accepted"}' in text
    assert 'bw_gateway_commands_total{game="freunde",outcome="conflict"}' in text
    assert 'bw_gateway_command_seconds_bucket{game="freunde",le="0.1"}' in text
    assert "bw_gateway_request_seconds_count" in text
    assert "bw_projector_lag" in text


def test_the_docs_show_schemas_and_a_real_command_of_each_game(stack: Stack) -> None:
    """/docs is served, and the schema has typed bodies and a Freunde example command."""
    with httpx.Client(base_url=stack.url) as http:
        assert http.get("/docs").status_code == 200
        schema = http.get("/openapi.json").json()
    post = schema["paths"]["/v1/tables/{table_id}/commands"]["post"]
    examples = post["requestBody"]["content"]["application/json"]["examples"]
    assert examples["freunde"]["value"]["command"], examples
    assert set(post["responses"]) >= {"200", "401", "403", "404", "409", "422"}
    for name in ("TableCreate", "CommandIn", "CommandResult", "TableView", "ErrorOut"):
        assert name in schema["components"]["schemas"]
