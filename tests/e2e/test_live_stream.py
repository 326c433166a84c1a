"""Server-Sent Events: subscribers see each event as it is appended, redacted for them,
resume after ``Last-Event-ID``, and are told when the game has ended."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from gateway.client import BotTable, GatewayClient
from tests.e2e.helpers import all_events
from tests.e2e.stack import Stack

pytestmark = [pytest.mark.e2e]


async def _subscribe(
    client: GatewayClient, table_id: str, token: str | None, last_event_id: str | None = None
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    events: list[dict[str, Any]] = []
    async for message in client.stream(table_id, token, last_event_id):
        if message.event == "end":
            return events, json.loads(message.data)
        assert message.id == str(json.loads(message.data)["version"])
        events.append(json.loads(message.data))
    return events, None


def test_subscribers_follow_a_game_live_and_resume_from_last_event_id(stack: Stack) -> None:
    """Subscribed before the first command, each viewer gets exactly its redacted log."""

    async def scenario() -> None:
        async with GatewayClient(stack.url) as client:
            table = await BotTable.open(
                client, "freunde", 2, bot_seed=5, options={"round_limit": 2}
            )
            viewers: list[str | None] = [None, table.tokens[0], table.tokens[1]]
            subscribers = [
                asyncio.create_task(_subscribe(client, table.table_id, token)) for token in viewers
            ]
            await asyncio.sleep(0.2)
            assert not any(task.done() for task in subscribers), "nobody is told the game ended"
            while await table.step():
                pass
            results = await asyncio.wait_for(asyncio.gather(*subscribers), timeout=60)
            for token, (live, end) in zip(viewers, results, strict=True):
                assert end == {"version": table.version}
                assert live == await all_events(client, table.table_id, token)
                assert live[-1]["seed_revealed"], "the last event reveals the seed"
            assert results[0][0] != results[1][0] != results[2][0], "each viewer's log differs"

            middle = table.version // 2
            resumed, end = await _subscribe(client, table.table_id, table.tokens[1], str(middle))
            assert end == {"version": table.version}
            assert resumed == results[2][0][middle:]

    asyncio.run(scenario())
