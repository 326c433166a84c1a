"""Playing one seat in a terminal (``boardwright play TABLE``): the board as text, the
numbered moves in words, live updates from the table's event stream.

Everything comes through the public API with the seat's token, as any client's would:
the view (``GET /v1/tables/{id}``), the moves with their words and menus
(``.../legal-commands``), the events with their line of text (``.../events/stream``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from rich.console import Console

from gateway.client import ApiFailure, GatewayClient

__all__ = ["board_text", "moves_text", "play_seat"]

ReadLine = Callable[[str], Awaitable[str | None]]

# How many list items a board line shows before it says "... and N more".
_SHOWN = 12
_WAIT_S = 1.0


def _value(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {_value(v)}" for k, v in value.items()) or "-"
    if isinstance(value, list):
        shown = [_value(v) for v in value[:_SHOWN]]
        more = f" ... and {len(value) - _SHOWN} more" if len(value) > _SHOWN else ""
        return ("[" + "; ".join(shown) + "]" + more) if value else "-"
    return "-" if value is None else str(value)


def board_text(table: dict[str, Any]) -> str:
    """A table's view as lines a person reads: who is at the table, the board, your own."""
    view = table.get("view") or {}
    status = table.get("status") or {}
    names = {seat["seat"]: seat["name"] for seat in table.get("seating") or []}
    lines = [
        f"{table['game']} table {table['table_id']}, version {table['version']},"
        f" {view.get('stage') or status.get('phase', '')}"
    ]
    scores = status.get("scores") or []
    to_act = set(status.get("to_act") or [])
    for seat in range(table.get("seats", 0)):
        you = " (you)" if seat == table.get("seat") else ""
        turn = "  <- to act" if seat in to_act else ""
        score = f", {scores[seat]} points" if seat < len(scores) else ""
        lines.append(f"  seat {seat}: {names.get(seat, '')}{you}{score}{turn}")
    for part in ("board", "private"):
        section = view.get(part)
        if section:
            lines.append(f"{'Board' if part == 'board' else 'Yours'}:")
            lines += [f"  {key}: {_value(value)}" for key, value in section.items()]
    return "\n".join(lines)


def moves_text(legal: dict[str, Any]) -> str:
    """The moves numbered from 1, under the title of their menu."""
    lines: list[str] = []
    moves = legal.get("moves") or []
    for menu in legal.get("menus") or []:
        lines.append(f"{menu['title']}:")
        lines += [f"  {n + 1:>3}. {moves[n]['text']}" for n in menu["moves"]]
    return "\n".join(lines)


def _say(console: Console, text: str) -> None:
    """Plain text: a board's brackets are not markup, its numbers not highlighted."""
    console.print(text, markup=False, highlight=False)


async def _chosen(read_line: ReadLine, count: int, console: Console) -> int | None:
    """The move's position (from 0); ``None`` when the player quits."""
    while True:
        answer = await read_line(f"Your move (1-{count}, q to quit): ")
        if answer is None or answer.strip().lower() in ("q", "quit"):
            return None
        text = answer.strip()
        if text.isdigit() and 1 <= int(text) <= count:
            return int(text) - 1
        _say(console, f"Type a number from 1 to {count}, or q.")


async def _wait_for_start(
    client: GatewayClient, table_id: str, token: str, console: Console
) -> dict[str, Any]:
    table = await client.view(table_id, token)
    if table.get("state") == "open":
        _say(console, "Waiting for the other players to take their seats...")
    while table.get("state") == "open":
        await asyncio.sleep(_WAIT_S)
        table = await client.view(table_id, token)
    return table


async def _follow(
    client: GatewayClient, table_id: str, token: str, seat: int, after: int, console: Console
) -> int:
    """Print each new event's line until it is this seat's turn or the game ends; the
    version reached."""
    stream = client.stream(table_id, token, last_event_id=str(after))
    async with contextlib.aclosing(stream) as messages:
        async for message in messages:
            if message.event == "end":
                return after
            event = json.loads(message.data)
            after = int(event["version"])
            if event.get("text"):
                _say(console, f"  {event['text']}")
            status = (await client.view(table_id, token, min_version=after))["status"]
            if status.get("finished") or seat in (status.get("to_act") or []):
                return after
    return after


async def play_seat(
    client: GatewayClient, table_id: str, token: str, read_line: ReadLine, console: Console
) -> dict[str, Any] | None:
    """Play the token's seat until the game ends (its final status) or the player quits
    (``None``)."""
    table = await _wait_for_start(client, table_id, token, console)
    seat = table["seat"]
    if seat is None:
        raise ApiFailure(403, "auth.invalid", "That token is not a seat of this table.", {})
    while True:
        table = await client.view(table_id, token, min_version=table["version"])
        status = table["status"]
        if status.get("finished"):
            _say(console, board_text(table))
            return dict(status)
        if seat not in (status.get("to_act") or []):
            waiting = ", ".join(f"seat {s}" for s in status.get("to_act") or [])
            _say(console, f"Waiting for {waiting}...")
            reached = await _follow(client, table_id, token, seat, table["version"], console)
            table = {**table, "version": reached}
            continue
        _say(console, board_text(table))
        legal = await client.legal_commands(table_id, token)
        _say(console, moves_text(legal))
        chosen = await _chosen(read_line, len(legal["moves"]), console)
        if chosen is None:
            return None
        move = legal["moves"][chosen]
        try:
            result = await client.command(
                table_id, token, f"cli-{secrets.token_hex(8)}", move["command"], legal["version"]
            )
        except ApiFailure as refused:
            _say(console, f"Refused: {refused.message}")
            continue
        for event in result["events"]:
            if event.get("text"):
                _say(console, f"  {event['text']}")
        table = {**table, "version": result["version"]}
