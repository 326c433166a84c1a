"""Read your own write: a command's reply says how to read the table at its version, and
the CLI's ``send`` shows the view that already holds the move."""

from __future__ import annotations

import asyncio
import json
import re

import pytest

from gateway.client import BotTable, GatewayClient
from tests.e2e.helpers import run_cli
from tests.e2e.stack import Stack

pytestmark = [pytest.mark.e2e]


def test_the_reply_links_to_a_view_that_holds_the_command(stack: Stack) -> None:
    """After every command of a game, the seat's view through ``links.view`` is at the
    command's version (the plain read may still be the one before it)."""

    async def scenario() -> None:
        async with GatewayClient(stack.url) as client:
            table = await BotTable.open(client, "freunde", 2, bot_seed=6)
            for _ in range(25):
                status = await table.refresh()
                token = table.tokens[int(status["to_act"][0])]
                legal = await client.legal_commands(table.table_id, token)
                result = await client.command(
                    table.table_id, token, f"ryw-{table.version}", legal["commands"][0]
                )
                assert result["links"]["view"] == (
                    f"/v1/tables/{table.table_id}?min_version={result['version']}"
                )
                view = await client.view_after(result, token)
                assert view["version"] >= result["version"]
                assert view["seat"] == table.tokens.index(token)
                table.version = result["version"]

    asyncio.run(scenario())


def test_cli_send_prints_the_events_then_the_view_at_that_version(stack: Stack) -> None:
    """``boardwright send`` sends one command and shows the seat's view with the move."""

    async def setup() -> tuple[str, str, str]:
        async with GatewayClient(stack.url) as client:
            table = await BotTable.open(client, "freunde", 2)
            status = await table.refresh()
            token = table.tokens[int(status["to_act"][0])]
            legal = await client.legal_commands(table.table_id, token)
            return table.table_id, token, json.dumps(legal["commands"][0])

    table_id, token, command = asyncio.run(setup())
    sent = run_cli(stack.url, "send", table_id, command, "--token", token, "--command-id", "cli-1")
    assert sent.returncode == 0, sent.stderr
    shown = re.search(r"table \w+ version (\d+) seat (\d)", sent.stdout)
    assert shown is not None, sent.stdout
    applied = re.findall(r"^v(\d+) seat", sent.stdout, re.MULTILINE)
    assert applied and int(shown.group(1)) >= max(int(v) for v in applied)
    again = run_cli(stack.url, "view", table_id, "--token", token, "--min-version", shown.group(1))
    assert again.returncode == 0, again.stderr
    assert f"version {shown.group(1)}" in again.stdout
