"""Small helpers shared by the end-to-end tests."""

from __future__ import annotations

import asyncio
import hashlib
import json
import subprocess
import sys
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import httpx
from google.protobuf.message import Message

from engines.core.contract import Engine
from engines.core.messages import to_json
from engines.core.play import fold
from gateway.client import ApiFailure, BotTable, GatewayClient
from gateway.export import parse_export, verify_export
from services.eventstore import connect
from services.players import AppRegistry
from tests.e2e.stack import ROOT, Stack


def new_app(stack: Stack, name: str) -> tuple[str, str]:
    """An app created as an operator would (its id and key)."""

    async def create() -> tuple[str, str]:
        redis = await connect(stack.redis_url)
        try:
            app, key = await AppRegistry(redis).create(name)
        finally:
            await redis.aclose()
        return app.app_id, key

    return asyncio.run(create())


def plain(data: Any) -> Any:
    """``data`` as the JSON the services send (tuples become lists, and so on)."""
    return json.loads(json.dumps(data, sort_keys=True))


def view_after(
    engine: Engine[Any, Any, Any], events: list[Message], at: int, seat: int | None
) -> Any:
    """The view of ``seat`` after the first ``at`` game events, folded locally."""
    return plain(engine.view(fold(engine, events[:at]), seat))


def redacted_events(
    engine: Engine[Any, Any, Any], events: list[Message], seat: int | None
) -> list[Any]:
    """The event bodies the rules let ``seat`` (or a spectator) see; ``None`` where hidden."""
    shown = [engine.redact(event, seat) for event in events]
    return [None if event is None else plain(to_json(event)) for event in shown]


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


async def status_of(call: Awaitable[Any]) -> tuple[int, str]:
    """``(status, error code)`` of a client call; ``(200, "")`` when it succeeds."""
    try:
        await call
    except ApiFailure as failure:
        return failure.status, failure.code
    return 200, ""


async def stream_until(
    client: GatewayClient, table_id: str, token: str | None, head: int
) -> list[dict[str, Any]]:
    """The table's SSE events as the token's seat (or a spectator) sees them, up to ``head``."""
    got: list[dict[str, Any]] = []
    async for message in client.stream(table_id, token):
        got.append(json.loads(message.data))
        if got[-1]["version"] >= head:
            return got
    return got


def run_cli(
    url: str, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``boardwright ARGS`` against the gateway at ``url``, as a user would run it."""
    return subprocess.run(
        [sys.executable, "-m", "gateway.cli", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env=env or {"BW_URL": url, "COLUMNS": "200", "PATH": "/usr/bin:/bin"},
    )


def finished_and_audited(
    engine: Engine[Any, Any, Any],
    audit: dict[str, Any],
    exported: str,
    version: int,
    seed_commitment: str,
) -> tuple[dict[str, Any], list[Message]]:
    """A finished table's audit passed (hash chain, re-execution, the revealed seed matches
    its commitment) and its export verifies: the export's header and game events."""
    assert audit["ok"] and audit["chain_ok"], audit
    assert audit["reexecution_checked"] and audit["reexecution_ok"], audit
    assert audit["head_version"] == version
    assert hashlib.sha256(bytes.fromhex(audit["seed"])).hexdigest() == seed_commitment
    lines = exported.splitlines()
    verdict = verify_export(lines)
    assert verdict.ok, verdict.checks
    header, _, log = parse_export(lines)
    events: list[Message] = [
        engine.event_type.FromString(e.payload) for e in log if e.WhichOneof("body") == "payload"
    ]
    return header, events


def verified_offline(exported: str, path: Path) -> None:
    """``boardwright verify`` accepts the export, written to ``path``, with no gateway."""
    path.write_text(exported)
    checked = run_cli("http://127.0.0.1:9", "verify", str(path))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "VERIFIED" in checked.stdout


async def projected_table(url: str, steps: int, bot_seed: int) -> tuple[str, list[str], int]:
    """A two-seat Freunde table ``steps`` commands into its game with its read models
    written: its id, its seat tokens and its version."""
    async with GatewayClient(url) as client:
        table = await BotTable.open(client, "freunde", 2, bot_seed=bot_seed)
        for _ in range(steps):
            await table.step()
        await client.view(table.table_id, min_version=table.version)
        return table.table_id, table.tokens, table.version


def seen_by_everyone(url: str, table_id: str, tokens: list[str]) -> list[dict[str, Any]]:
    """The table as the spectator and each seat (by its token) read it."""
    with httpx.Client(base_url=url, timeout=30.0) as http:
        replies = [http.get(f"/v1/tables/{table_id}")]
        replies += [
            http.get(f"/v1/tables/{table_id}", headers={"Authorization": f"Bearer {token}"})
            for token in tokens
        ]
    assert [reply.status_code for reply in replies] == [200] * len(replies)
    return [reply.json() for reply in replies]
