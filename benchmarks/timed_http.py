"""The HTTP client the load generators time their commands and reads with.

A lean HTTP/1.1 client, as a scripted load generator such as ``wrk`` is: kept-alive
connections over asyncio protocols, each request written as one byte string, each
response parsed by httptools (the C parser the gateway's own server uses) and read whole.
The load generator shares the machine's two cores with the stack it measures, so what it
spends a request is taken from the server: aiohttp cost 0.40-0.45 ms of CPU a command in
``bench_e2e`` (httpx three times that); this client, a fraction of it (README ›
Benchmarks). Tables are still opened with :class:`gateway.client.GatewayClient`.

Only what the load generators need: plain ``http://``, a whole body per request, no
redirects, no time-out of its own (the drivers abandon what is still unanswered at their
cut-off). A connection that fails or that the server closes is dropped from the pool, and
the request that was on it fails with :class:`ConnectionError`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast
from urllib.parse import urlsplit

import httptools

__all__ = ["Reply", "TimedHttp"]


@dataclass(frozen=True, slots=True)
class Reply:
    """A response: its status and its whole body."""

    status: int
    body: bytes


class _Connection(asyncio.Protocol):
    """One kept-alive connection carrying one request at a time."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.usable = True
        self._parser = httptools.HttpResponseParser(self)
        self._waiter: asyncio.Future[Reply] | None = None
        self._chunks: list[bytes] = []

    def send(self, request: bytes) -> asyncio.Future[Reply]:
        assert self.transport is not None and self._waiter is None
        self._waiter = asyncio.get_running_loop().create_future()
        self.transport.write(request)
        return self._waiter

    def close(self) -> None:
        self.usable = False
        if self.transport is not None:
            self.transport.close()

    # asyncio.Protocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports are not asyncio.Transport subclasses, only alike.
        self.transport = cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        try:
            self._parser.feed_data(data)
        except httptools.HttpParserError as bad:
            self._fail(ConnectionError(f"malformed HTTP response: {bad}"))
            self.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.usable = False
        self._fail(ConnectionError(f"connection lost: {exc}" if exc else "connection closed"))

    # httptools' callbacks

    def on_body(self, body: bytes) -> None:
        self._chunks.append(body)

    def on_message_complete(self) -> None:
        if not self._parser.should_keep_alive():
            self.usable = False
        waiter, self._waiter = self._waiter, None
        body, self._chunks = b"".join(self._chunks), []
        if waiter is not None and not waiter.done():
            waiter.set_result(Reply(self._parser.get_status_code(), body))

    def _fail(self, error: Exception) -> None:
        waiter, self._waiter = self._waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_exception(error)


class TimedHttp:
    """Requests to one ``http://host:port`` over a pool of kept-alive connections, one
    opened whenever none is idle (so as many as requests in flight)."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        if parts.scheme != "http" or parts.hostname is None:
            raise ValueError(f"expected an http:// address, not {url!r}")
        self._host = parts.hostname
        self._port = parts.port or 80
        self._authority = parts.netloc
        self._idle: list[_Connection] = []

    async def post(self, path: str, headers: Mapping[str, str], body: bytes) -> Reply:
        return await self._request(self._head("POST", path, headers, len(body)) + body)

    async def get(self, target: str, headers: Mapping[str, str]) -> Reply:
        """``target``: the path with its query, if any."""
        return await self._request(self._head("GET", target, headers, None))

    async def close(self) -> None:
        idle, self._idle = self._idle, []
        for connection in idle:
            connection.close()

    def _head(
        self, method: str, target: str, headers: Mapping[str, str], length: int | None
    ) -> bytes:
        lines = [f"{method} {target} HTTP/1.1", f"Host: {self._authority}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if length is not None:
            lines.append(f"Content-Length: {length}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    async def _request(self, request: bytes) -> Reply:
        connection = await self._connection()
        try:
            reply = await connection.send(request)
        except BaseException:
            connection.close()
            raise
        if connection.usable:
            self._idle.append(connection)
        else:
            connection.close()
        return reply

    async def _connection(self) -> _Connection:
        while self._idle:
            connection = self._idle.pop()
            if connection.usable:
                return connection
        _, connection = await asyncio.get_running_loop().create_connection(
            _Connection, self._host, self._port
        )
        return connection
