"""The load generators' lean HTTP client (``benchmarks.timed_http``) against a real HTTP
server on loopback: whole bodies (declared or chunked), kept-alive connections reused,
closed ones dropped, a broken response failing its request only."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import pytest

from benchmarks.timed_http import TimedHttp

pytestmark = pytest.mark.anyio


@pytest.fixture(params=[False, True], ids=["asyncio", "uvloop"])
def anyio_backend(request: pytest.FixtureRequest) -> tuple[str, dict[str, bool]]:
    """On asyncio's loop and on uvloop, which the load generators run on (its transports
    are not ``asyncio.Transport`` subclasses)."""
    return "asyncio", {"use_uvloop": request.param}


Answer = Callable[[bytes], bytes]


def _ok(body: bytes, *headers: str) -> bytes:
    head = ["HTTP/1.1 200 OK", f"Content-Length: {len(body)}", *headers]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


class Server:
    """Answers each request with ``answer(request head and body)``; counts connections."""

    def __init__(self, answer: Answer) -> None:
        self.answer = answer
        self.connections = 0
        self.requests: list[bytes] = []

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":")[1])
                request = head + await reader.readexactly(length)
                self.requests.append(request)
                writer.write(self.answer(request))
                await writer.drain()
                if b"close" in request:
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        writer.close()


class Servers:
    """Servers started by a test, closed after it."""

    def __init__(self) -> None:
        self.listening: list[asyncio.Server] = []

    async def start(self, answer: Answer) -> tuple[Server, str]:
        server = Server(answer)
        listening = await asyncio.start_server(server.serve, "127.0.0.1", 0)
        self.listening.append(listening)
        port = listening.sockets[0].getsockname()[1]
        return server, f"http://127.0.0.1:{port}"


@pytest.fixture
async def servers() -> AsyncIterator[Servers]:
    started = Servers()
    yield started
    for listening in started.listening:
        listening.close()


async def test_requests_on_one_kept_alive_connection_get_their_own_replies(
    servers: Servers,
) -> None:
    server, url = await servers.start(lambda request: _ok(request.split(b" ")[1]))
    client = TimedHttp(url)
    posted = await client.post("/v1/tables/t1/commands", {"Authorization": "Bearer k"}, b"{}")
    read = await client.get("/v1/tables/t1?min_version=4", {"Authorization": "Bearer k"})
    await client.close()
    assert (posted.status, posted.body) == (200, b"/v1/tables/t1/commands")
    assert (read.status, read.body) == (200, b"/v1/tables/t1?min_version=4")
    assert server.connections == 1
    assert server.requests[0].endswith(b"Content-Length: 2\r\n\r\n{}")
    assert b"Authorization: Bearer k\r\n" in server.requests[1]


async def test_a_chunked_body_is_read_whole(servers: Servers) -> None:
    chunked = (
        b"HTTP/1.1 409 Conflict\r\nTransfer-Encoding: chunked\r\n\r\n"
        b"3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"
    )
    _, url = await servers.start(lambda request: chunked)
    client = TimedHttp(url)
    reply = await client.get("/", {})
    await client.close()
    assert (reply.status, reply.body) == (409, b"abcde")


async def test_requests_at_once_each_open_a_connection(servers: Servers) -> None:
    server, url = await servers.start(lambda request: _ok(b"ok"))
    client = TimedHttp(url)
    replies = await asyncio.gather(*(client.get(f"/{n}", {}) for n in range(5)))
    again = await client.get("/again", {})
    await client.close()
    assert [r.body for r in replies] == [b"ok"] * 5
    assert again.body == b"ok"
    assert server.connections == 5  # the sixth request reused one of them


async def test_a_connection_the_server_closes_is_not_used_again(servers: Servers) -> None:
    server, url = await servers.start(lambda request: _ok(b"bye", "Connection: close"))
    client = TimedHttp(url)
    first = await client.get("/", {"Connection": "close"})
    second = await client.get("/", {"Connection": "close"})
    await client.close()
    assert (first.body, second.body) == (b"bye", b"bye")
    assert server.connections == 2


async def test_a_broken_response_fails_its_request_only(servers: Servers) -> None:
    _, url = await servers.start(
        lambda request: b"NOT HTTP\r\n\r\n" if b"/broken" in request else _ok(b"fine")
    )
    client = TimedHttp(url)
    with pytest.raises(ConnectionError):
        await client.get("/broken", {})
    fine = await client.get("/fine", {})
    await client.close()
    assert fine.body == b"fine"


def test_only_plain_http_addresses() -> None:
    with pytest.raises(ValueError, match="http://"):
        TimedHttp("https://example.org")
