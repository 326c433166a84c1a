"""Small helpers shared by the end-to-end tests."""

from __future__ import annotations

import json
from typing import Any

from google.protobuf.message import Message

from engines.core.contract import Engine
from engines.core.play import fold
from gateway.client import GatewayClient


def plain(data: Any) -> Any:
    """``data`` as the JSON the services send (tuples become lists, and so on)."""
    return json.loads(json.dumps(data, sort_keys=True))


def view_after(
    engine: Engine[Any, Any, Any], events: list[Message], at: int, seat: int | None
) -> Any:
    """The view of ``seat`` after the first ``at`` game events, folded locally."""
    return plain(engine.view(fold(engine, events[:at]), seat))


async def all_events(
    client: GatewayClient, table_id: str, token: str | None, after: int = 0
) -> list[dict[str, Any]]:
    """Every event after ``after`` as the token's seat (or a spectator) sees it, all pages."""
    found: list[dict[str, Any]] = []
    while True:
        page = await client.events(table_id, token, after=after)
        found.extend(page["events"])
        if not page["events"] or found[-1]["version"] >= page["head"]:
            return found
        after = found[-1]["version"]
