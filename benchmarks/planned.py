"""Commands chosen and written before a load generator's clock starts.

A load generator shares the machine's cores with the stack it measures. Choosing each
command live (the game's bot on the driver's mirror of the table, then the JSON body)
would count rules CPU as load; so each driver plans its table's next commands before a
measured run and sends the prepared bytes, as a scripted load generator replays its
requests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from engines.core.messages import to_json
from gateway.client import BotTable

__all__ = ["Planned", "plan"]

_JSON = {"Content-Type": "application/json"}


@dataclass(frozen=True, slots=True)
class Planned:
    """One command, ready to send: the path, the seat's headers, the JSON body, and the
    table's version once it is accepted."""

    path: str
    headers: dict[str, str]
    body: bytes
    after: int


def plan(table: BotTable, bot: Any, count: int, ids: str) -> list[Planned]:
    """The next ``count`` commands of ``table`` (fewer if the game ends first), chosen by
    ``bot`` on the table's mirror, which they advance; command ids ``<ids>.<version>``."""
    engine, mirror = table.engine, table.mirror
    planned: list[Planned] = []
    while len(planned) < count:
        outcome = engine.outcome(mirror.state)
        if outcome.finished:
            break
        seat = outcome.to_act[0]
        command = bot.choose(engine, mirror.state, seat)
        body = {
            "command_id": f"{ids}.{mirror.version}",
            "expected_version": mirror.version,
            "command": to_json(command),
        }
        mirror.execute(seat, command)
        planned.append(
            Planned(
                f"/v1/tables/{table.table_id}/commands",
                {"Authorization": f"Bearer {table.tokens[seat]}", **_JSON},
                orjson.dumps(body),
                mirror.version,
            )
        )
    return planned
