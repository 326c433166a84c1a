"""A small async client of the HTTP API, and bots that play a whole table through it.

The CLI, the end-to-end tests and the benchmark all drive the gateway through this one
client, so they exercise exactly what an outside client would.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

import engines
from engines.core.canonical import message_bytes
from engines.core.contract import Engine, TableConfig
from engines.core.game import Bot, BotFactory
from engines.core.messages import from_json, to_json
from engines.core.play import Table

__all__ = [
    "ApiFailure",
    "BotTable",
    "GatewayClient",
    "PlayedTable",
    "ServerEvent",
    "event_summary",
    "game_bot",
    "play_table",
]


class ApiFailure(Exception):
    """The gateway answered with an error body ``{code, message, details}``."""

    def __init__(self, status: int, code: str, message: str, details: dict[str, Any]) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.details = details


@dataclass(frozen=True, slots=True)
class ServerEvent:
    """One Server-Sent Events message."""

    id: str | None
    event: str
    data: str


def _bearer(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


# A dropped SSE connection is opened again this many times in a row, this long apart.
_STREAM_RECONNECTS = 5
_STREAM_RECONNECT_DELAY_S = 1.0
# A 429 is waited out (its Retry-After, at most this long) this many times before it fails.
_RATE_LIMIT_RETRIES = 3
_RATE_LIMIT_WAIT_CAP_S = 30.0


class GatewayClient:
    """Typed calls to one gateway; every error body becomes :class:`ApiFailure`. A call
    refused with 429 waits for its ``Retry-After`` and is sent again (a few times).

    ``headers`` go with every call: an app's ``X-App-Key`` (and ``X-App-User`` on a
    client from :meth:`acting_for`)."""

    def __init__(
        self,
        base_url: str,
        http: httpx.AsyncClient | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.http = http or httpx.AsyncClient(base_url=self.base_url, timeout=30.0)
        self.headers = dict(headers or {})

    def acting_for(self, user: str) -> GatewayClient:
        """A client on the same connections that acts for the app's ``user``
        (``X-App-User``); this client must carry the app's ``X-App-Key``."""
        return GatewayClient(self.base_url, self.http, {**self.headers, "X-App-User": user})

    async def aclose(self) -> None:
        await self.http.aclose()

    async def __aenter__(self) -> GatewayClient:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    async def _call(
        self,
        method: str,
        path: str,
        token: str | None = None,
        params: dict[str, Any] | None = None,
        body: Any = None,
    ) -> Any:
        for attempt in range(_RATE_LIMIT_RETRIES + 1):
            response = await self.http.request(
                method, path, headers={**self.headers, **_bearer(token)}, params=params, json=body
            )
            if response.status_code != 429 or attempt == _RATE_LIMIT_RETRIES:
                break
            await asyncio.sleep(_retry_after(response))
        if response.status_code >= 400:
            raise _failure(response)
        return response.json()

    async def _bytes(
        self, path: str, params: dict[str, Any] | None = None, token: str | None = None
    ) -> bytes:
        response = await self.http.get(
            path, headers={**self.headers, **_bearer(token)}, params=params
        )
        if response.status_code >= 400:
            raise _failure(response)
        return response.content

    async def games(self) -> list[dict[str, Any]]:
        reply: list[dict[str, Any]] = (await self._call("GET", "/v1/games"))["games"]
        return reply

    async def create_table(
        self,
        game: str,
        seats: int,
        options: dict[str, Any] | None = None,
        seed: bytes | None = None,
        clock: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"game": game, "seats": seats, "options": options or {}}
        if seed is not None:
            body["seed"] = seed.hex()
        if clock is not None:
            body["clock"] = clock
        reply: dict[str, Any] = await self._call("POST", "/v1/tables", body=body)
        return reply

    async def lobby(
        self, game: str | None = None, status: str | None = None, limit: int = 100
    ) -> list[dict[str, Any]]:
        """The lobby's first page (newest first), filtered by game and status."""
        params: dict[str, Any] = {"limit": limit}
        if game:
            params["game"] = game
        if status:
            params["status"] = status
        reply: list[dict[str, Any]] = (await self._call("GET", "/v1/tables", params=params))[
            "tables"
        ]
        return reply

    async def open_table(
        self, game: str, seats: int, name: str | None = None, **body: Any
    ) -> dict[str, Any]:
        """A table with open seats; the caller takes seat 0 (its token in the reply)."""
        request: dict[str, Any] = {"game": game, "seats": seats, "open": True, **body}
        if name:
            request["name"] = name
        reply: dict[str, Any] = await self._call("POST", "/v1/tables", body=request)
        return reply

    async def claim(
        self,
        table_id: str,
        seat: int | None = None,
        name: str | None = None,
        invite_code: str | None = None,
    ) -> dict[str, Any]:
        """Take a seat (the given one, or any open one); the reply holds its token."""
        body = {"seat": seat, "name": name, "invite_code": invite_code}
        reply: dict[str, Any] = await self._call(
            "POST",
            f"/v1/tables/{table_id}/seats",
            body={k: v for k, v in body.items() if v is not None},
        )
        return reply

    async def leave(self, table_id: str, seat: int, token: str | None = None) -> dict[str, Any]:
        """Leave ``seat`` before the game starts (the host may free anyone's)."""
        reply: dict[str, Any] = await self._call(
            "DELETE", f"/v1/tables/{table_id}/seats/{seat}", token
        )
        return reply

    async def start(
        self, table_id: str, bots: str | None = None, token: str | None = None
    ) -> dict[str, Any]:
        """Start an open table now, ``bots`` in its open seats (the host only)."""
        body = {"bots": bots} if bots else {}
        reply: dict[str, Any] = await self._call(
            "POST", f"/v1/tables/{table_id}/start", token, body=body
        )
        return reply

    async def rematch(self, table_id: str, token: str | None = None) -> dict[str, Any]:
        """Open, or take one's seat at, the rematch of a finished table."""
        reply: dict[str, Any] = await self._call("POST", f"/v1/tables/{table_id}/rematch", token)
        return reply

    async def view(
        self, table_id: str, token: str | None = None, min_version: int | None = None
    ) -> dict[str, Any]:
        params = None if min_version is None else {"min_version": min_version}
        reply: dict[str, Any] = await self._call(
            "GET", f"/v1/tables/{table_id}", token, params=params
        )
        return reply

    async def view_after(self, result: dict[str, Any], token: str | None = None) -> dict[str, Any]:
        """The caller's view no older than a command's ``result``: read your own write.

        Views are projected a moment after a command is applied, so a plain read right
        after a command may still show the table before it; the result's ``links.view``
        asks for its version (``min_version``).
        """
        reply: dict[str, Any] = await self._call("GET", result["links"]["view"], token)
        return reply

    async def legal_commands(self, table_id: str, token: str | None = None) -> dict[str, Any]:
        reply: dict[str, Any] = await self._call(
            "GET", f"/v1/tables/{table_id}/legal-commands", token
        )
        return reply

    async def resign(self, table_id: str, token: str) -> dict[str, Any]:
        """The seat of ``token`` leaves the game (asked again: the first outcome)."""
        reply: dict[str, Any] = await self._call("POST", f"/v1/tables/{table_id}/resign", token)
        return reply

    async def command(
        self,
        table_id: str,
        token: str | None,
        command_id: str,
        command: dict[str, Any],
        expected_version: int | None = None,
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"command_id": command_id, "command": command}
        if expected_version is not None:
            body["expected_version"] = expected_version
        reply: dict[str, Any] = await self._call(
            "POST", f"/v1/tables/{table_id}/commands", token, body=body
        )
        return reply

    async def events(
        self, table_id: str, token: str | None = None, after: int = 0
    ) -> dict[str, Any]:
        reply: dict[str, Any] = await self._call(
            "GET", f"/v1/tables/{table_id}/events", token, params={"after": after}
        )
        return reply

    async def replay(
        self, table_id: str, at: int, token: str | None = None, seat: int | None = None
    ) -> dict[str, Any]:
        params: dict[str, Any] = {"at": at}
        if seat is not None:
            params["seat"] = seat
        reply: dict[str, Any] = await self._call(
            "GET", f"/v1/tables/{table_id}/replay", token, params=params
        )
        return reply

    async def board(
        self, table_id: str, token: str | None = None, at: int | None = None, kind: str = "png"
    ) -> bytes:
        """The board picture (``kind`` ``png`` or ``svg``) as ``token``'s seat (or the
        caller this client is) sees it, now or after the first ``at`` events."""
        params = None if at is None else {"at": at}
        return await self._bytes(f"/v1/tables/{table_id}/board.{kind}", params, token)

    async def board_png(self, table_id: str, at: int | None = None) -> bytes:
        """The table drawn as the caller may see it (``board.png``), now or at version ``at``."""
        return await self.board(table_id, at=at)

    async def my_tables(self) -> dict[str, Any]:
        """The caller's tables, those where it is to act first (``GET /v1/me/tables``)."""
        reply: dict[str, Any] = await self._call("GET", "/v1/me/tables")
        return reply

    async def audit(self, table_id: str) -> dict[str, Any]:
        reply: dict[str, Any] = await self._call("GET", f"/v1/tables/{table_id}/audit")
        return reply

    async def export(self, table_id: str) -> str:
        return (await self._bytes(f"/v1/tables/{table_id}/export")).decode()

    async def stream(
        self,
        table_id: str,
        token: str | None = None,
        last_event_id: str | None = None,
        reconnects: int = _STREAM_RECONNECTS,
    ) -> AsyncGenerator[ServerEvent, None]:
        """The table's SSE stream until the server closes it (after ``end``, or after
        ``revoked`` when the seat's token was re-issued meanwhile).

        Like a browser's ``EventSource``, a connection that drops (a gateway restarting, a
        proxy timing out) is opened again with ``Last-Event-ID``, so no event is lost or
        repeated; ``reconnects`` failures in a row without an event in between give up.
        """
        failures = 0
        while True:
            try:
                async for message in self._stream_once(table_id, token, last_event_id):
                    failures = 0
                    if message.id is not None:
                        last_event_id = message.id
                    yield message
                    if message.event in ("end", "revoked"):
                        return
                return
            except httpx.TransportError:
                failures += 1
                if failures > reconnects:
                    raise
                await asyncio.sleep(_STREAM_RECONNECT_DELAY_S)

    async def _stream_once(
        self, table_id: str, token: str | None, last_event_id: str | None
    ) -> AsyncIterator[ServerEvent]:
        headers = {**self.headers, **_bearer(token)}
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        async with self.http.stream(
            "GET",
            f"/v1/tables/{table_id}/events/stream",
            headers=headers,
            timeout=httpx.Timeout(30.0, read=None),
        ) as response:
            if response.status_code >= 400:
                await response.aread()
                raise _failure(response)
            fields: dict[str, str] = {}
            async for line in response.aiter_lines():
                if not line:
                    if "data" in fields:
                        yield ServerEvent(
                            fields.get("id"), fields.get("event", "message"), fields["data"]
                        )
                    fields = {}
                    continue
                if line.startswith(":"):
                    continue
                name, _, value = line.partition(":")
                value = value.removeprefix(" ")
                if name == "data" and "data" in fields:
                    value = f"{fields['data']}\n{value}"
                fields[name] = value
        # The server closed the stream without `end`: a dropped connection.
        raise httpx.RemoteProtocolError("the stream ended without its end message")


def _retry_after(response: httpx.Response) -> float:
    try:
        wait = float(response.headers.get("retry-after", "1"))
    except ValueError:
        wait = 1.0
    return min(max(wait, 0.0), _RATE_LIMIT_WAIT_CAP_S)


def _failure(response: httpx.Response) -> ApiFailure:
    try:
        body = response.json()
        return ApiFailure(
            response.status_code,
            str(body.get("code", "")),
            str(body.get("message", "")),
            dict(body.get("details") or {}),
        )
    except (ValueError, AttributeError):
        return ApiFailure(response.status_code, "http.error", response.text[:200], {})


@dataclass
class PlayedTable:
    """A finished bot game."""

    table_id: str
    game: str
    seats: int
    tokens: list[str]
    version: int
    status: dict[str, Any]
    commands: int
    seed_commitment: str
    mirror: Table
    latencies: list[float] = field(default_factory=list)


def game_bot(engine: Engine[Any, Any, Any], name: str, seed: int) -> Bot:
    """The bot called ``name`` that the game offers, seeded with ``seed``.

    Every game built on the kit names its own players in ``Game.bots`` ("random", and a
    "greedy" player that knows the game); an engine that names none has no bots.
    """
    offered: Mapping[str, BotFactory] = getattr(engine, "bots", {})
    if name not in offered:
        raise ValueError(
            f"unknown bots {name!r}; {engine.info.game} offers {', '.join(sorted(offered))}"
        )
    return offered[name](seed)


class BotTable:
    """Bots seated at one table, playing it over HTTP one command at a time.

    The bots are the game's own (:func:`game_bot`). They choose on an exact local mirror
    of the table (``engines.core.play.Table``): the driver opened the table with its own
    seed, so it applies each accepted command to the mirror and checks the mirror's
    version against the gateway's after every command. Each turn the seat to act also
    asks the gateway for its legal commands with its own token, and the bot's choice must
    be among them; it is sent with ``expected_version``.
    """

    def __init__(
        self,
        client: GatewayClient,
        created: dict[str, Any],
        seed: bytes,
        bots: str = "random",
        bot_seed: int = 0,
        options: dict[str, Any] | None = None,
    ) -> None:
        self.client = client
        self.table_id: str = created["table_id"]
        self.game: str = created["game"]
        self.seats: int = created["seats"]
        self.tokens: list[str] = created["tokens"]
        self.version: int = created["version"]
        self.seed_commitment: str = created["seed_commitment"]
        self.engine = engines.get(self.game)
        self.bot = game_bot(self.engine, bots, bot_seed)
        self.mirror = Table.create(
            self.engine, TableConfig(self.table_id, self.seats, dict(options or {})), seed
        )
        self.status: dict[str, Any] = {}
        self.commands = 0
        self.latencies: list[float] = []

    @classmethod
    async def open(
        cls,
        client: GatewayClient,
        game: str,
        seats: int,
        bots: str = "random",
        bot_seed: int = 0,
        options: dict[str, Any] | None = None,
        seed: bytes | None = None,
    ) -> BotTable:
        """Open a table with ``seed`` (drawn here when absent: the driver needs it for
        its mirror) and seat bots at it."""
        game_bot(engines.get(game), bots, bot_seed)  # an unknown bot opens no table
        seed = seed if seed is not None else secrets.token_bytes(32)
        created = await client.create_table(game, seats, options=options, seed=seed)
        return cls(client, created, seed, bots, bot_seed, options)

    async def refresh(self) -> dict[str, Any]:
        """The table's status, no older than the last accepted command."""
        self.status = (await self.client.view(self.table_id, min_version=self.version))["status"]
        return self.status

    async def step(self, clock: Callable[[], float] | None = None) -> bool:
        """Let the seat to act send one command; ``False`` once the game is over."""
        status = await self.refresh()
        if status.get("finished"):
            return False
        seat = int(status["to_act"][0])
        token = self.tokens[seat]
        legal = await self.client.legal_commands(self.table_id, token)
        command = self.bot.choose(self.engine, self.mirror.state, seat)
        listed = {message_bytes(from_json(self.engine.command_type, c)) for c in legal["commands"]}
        if message_bytes(command) not in listed:
            raise RuntimeError(
                f"table {self.table_id}: the mirror's choice is not among the gateway's legal "
                "commands"
            )
        chosen = to_json(command)
        started = clock() if clock else 0.0
        reply = await self.client.command(
            self.table_id, token, f"{self.table_id}.{self.commands}", chosen, legal["version"]
        )
        if clock is not None:
            self.latencies.append(clock() - started)
        self.commands += 1
        self.version = reply["version"]
        self.mirror.execute(seat, command)
        # The gateway's log also holds the revealed seed once the game has ended.
        if self.mirror.version not in (self.version, self.version - 1):
            raise RuntimeError(
                f"table {self.table_id}: mirror at {self.mirror.version}, gateway at {self.version}"
            )
        return True

    def result(self) -> PlayedTable:
        return PlayedTable(
            self.table_id,
            self.game,
            self.seats,
            self.tokens,
            self.version,
            self.status,
            self.commands,
            self.seed_commitment,
            self.mirror,
            self.latencies,
        )


Progress = Callable[[BotTable, dict[str, Any]], None]


async def play_table(
    client: GatewayClient,
    game: str,
    seats: int,
    bots: str = "random",
    bot_seed: int = 0,
    on_progress: Progress | None = None,
    options: dict[str, Any] | None = None,
    max_commands: int = 20_000,
    clock: Callable[[], float] | None = None,
    seed: bytes | None = None,
) -> PlayedTable:
    """Open a table and let bots play it to the end over HTTP (see :class:`BotTable`)."""
    table = await BotTable.open(client, game, seats, bots, bot_seed, options, seed)
    while await table.step(clock):
        if on_progress is not None:
            on_progress(table, table.status)
        if table.commands >= max_commands:
            raise RuntimeError(f"table {table.table_id} did not end within {max_commands} commands")
    if on_progress is not None:
        on_progress(table, table.status)
    return table.result()


def event_summary(data: str) -> str:
    """One short line for an SSE event's JSON."""
    event = json.loads(data)
    body = event.get("event")
    kind = next(iter(body), "?") if isinstance(body, dict) and body else "hidden"
    if event.get("seed_revealed"):
        kind = "seed_revealed"
    if event.get("control"):
        kind = next(iter(event["control"]), "control")
    return f"v{event.get('version')} seat {event.get('seat')}: {kind}"
