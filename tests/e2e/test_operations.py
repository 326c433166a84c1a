"""Probes, metrics and the OpenAPI docs of the running gateway."""

from __future__ import annotations

import asyncio
import json

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


def test_a_resent_command_is_applied_once_and_a_stale_one_is_a_conflict(stack: Stack) -> None:
    """The same command id twice gives the first outcome again; a stale version is 409."""

    async def scenario() -> None:
        async with GatewayClient(stack.url) as client:
            table = await BotTable.open(client, "freunde", 2, options={"round_limit": 2})
            status = await table.refresh()
            token = table.tokens[status["to_act"][0]]
            legal = await client.legal_commands(table.table_id, token)
            command = legal["commands"][0]
            first = await client.command(table.table_id, token, "once", command, legal["version"])
            again = await client.command(table.table_id, token, "once", command, legal["version"])
            assert first["duplicate"] is False and again["duplicate"] is True
            assert again["version"] == first["version"] and again["events"] == first["events"]
            assert (await client.events(table.table_id))["head"] == first["version"]
            stale = await client.http.post(
                f"/v1/tables/{table.table_id}/commands",
                headers={"Authorization": f"Bearer {token}"},
                json={"command_id": "late", "expected_version": 0, "command": command},
            )
            assert stale.status_code == 409
            assert stale.json()["code"] == "version.conflict"
            assert stale.json()["details"] == {"version": str(first["version"])}

    asyncio.run(scenario())


def test_logs_are_json_with_context_and_never_hold_a_token(stack: Stack) -> None:
    """Gateway log lines are JSON; a command's carries its table, command id and version,
    and no seat token appears anywhere in the log."""

    async def scenario() -> BotTable:
        async with GatewayClient(stack.url) as client:
            table = await BotTable.open(client, "freunde", 2, options={"round_limit": 2})
            for _ in range(3):
                await table.step()
            await client.view(table.table_id, table.tokens[0])
            return table

    table = asyncio.run(scenario())
    text = (stack.log_dir / "gateway.log").read_text()
    lines = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    accepted = [
        line
        for line in lines
        if line.get("event") == "command.accepted" and line.get("table_id") == table.table_id
    ]
    assert len(accepted) == 3
    assert all(line["command_id"] and line["version"] > 0 for line in accepted)
    for token in table.tokens:
        assert token not in text
    assert "Bearer" not in text and "authorization" not in text.lower()


def test_an_engine_that_goes_down_makes_requests_503_not_500(redis_url: str) -> None:
    """With its engine service stopped, the gateway says engine.unavailable and not ready."""
    with Stack(redis_url) as own, httpx.Client(base_url=own.url) as http:
        created = http.post("/v1/tables", json={"game": "freunde", "seats": 2}).json()
        engine = own.processes["engine-freunde"]
        engine.terminate()
        engine.wait(timeout=10)
        token = created["tokens"][0]
        reply = http.post(
            f"/v1/tables/{created['table_id']}/commands",
            headers={"Authorization": f"Bearer {token}"},
            json={"command_id": "c1", "command": {"end_turn": {}}},
        )
        assert (reply.status_code, reply.json()["code"]) == (503, "engine.unavailable")
        legal = http.get(
            f"/v1/tables/{created['table_id']}/legal-commands",
            headers={"Authorization": f"Bearer {token}"},
        )
        assert (legal.status_code, legal.json()["code"]) == (503, "engine.unavailable")
        ready = http.get("/readyz")
        assert ready.status_code == 503
        assert ready.json()["checks"]["engine:freunde"] != "ok"
        assert ready.json()["checks"]["redis"] == "ok"


def test_reads_stay_current_when_the_projector_is_down(redis_url: str) -> None:
    """With no projector, a read with min_version waits briefly, then the engine answers:
    never anything older than asked for."""
    with Stack(redis_url, extra_env={"BW_READ_WAIT_SECONDS": "0.2"}) as own:
        projector = own.processes["projector"]
        projector.terminate()
        projector.wait(timeout=10)

        async def scenario() -> list[tuple[int, int]]:
            async with GatewayClient(own.url) as client:
                table = await BotTable.open(client, "freunde", 2, options={"round_limit": 2})
                seen = []
                for _ in range(5):
                    await table.step()
                    for token in (None, table.tokens[0]):
                        view = await client.view(table.table_id, token, min_version=table.version)
                        seen.append((table.version, view["version"]))
                        assert view["status"]["version"] == view["version"]
                return seen

        seen = asyncio.run(scenario())
    assert len(seen) == 10
    assert all(got >= wanted for wanted, got in seen), seen
