"""Bounded input at the real gateway: large bodies are refused before they are read, and
rate limits hold across two gateway processes sharing one Redis."""

from __future__ import annotations

import contextlib
import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.e2e.stack import Stack

pytestmark = [pytest.mark.e2e]

_LIMIT = 64 * 1024
_HUGE = 200 * 1024 * 1024
_CHUNK = 1024 * 1024


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def _connect(url: str) -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=30)


def _read_reply(sock: socket.socket) -> tuple[int, bytes]:
    data = b""
    while b"\r\n\r\n" not in data or len(data.split(b"\r\n\r\n", 1)[1]) < _declared(data):
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ")[1]), body


def _declared(data: bytes) -> int:
    for line in data.split(b"\r\n\r\n", 1)[0].split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value)
    return 0


def _declared_huge_body(url: str) -> tuple[int, bytes]:
    """Announce 200 MB and send none of it: the answer must come anyway."""
    with _connect(url) as sock:
        sock.sendall(
            b"POST /v1/tables HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {_HUGE}\r\n\r\n".encode()
        )
        return _read_reply(sock)


def _chunked_huge_body(url: str) -> tuple[int, bytes, int]:
    """Stream up to 200 MB without a length, stopping as soon as the gateway answers;
    returns the reply and how many bytes were sent before it came."""
    sent = 0
    chunk = b"[" * _CHUNK
    framed = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
    with _connect(url) as sock:
        sock.sendall(
            b"POST /v1/tables HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        while sent < _HUGE:
            readable, _, _ = select.select([sock], [], [], 0)
            if readable:
                break
            try:
                sock.sendall(framed)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += len(chunk)
        status, body = _read_reply(sock)
        return status, body, sent


def test_a_large_body_is_refused_before_it_is_read_and_memory_stays_flat(stack: Stack) -> None:
    """200 MB announced, or streamed chunked: 413 request.too_large, the chunked one after a
    few MB at most (what the socket buffers hold), and the gateway's memory does not grow
    by the bodies' size; a body just under the limit is read and judged as usual."""
    pid = stack.processes["gateway"].pid
    before = _rss_kib(pid)
    streamed: list[int] = []
    for _ in range(6):
        status, body = _declared_huge_body(stack.url)
        assert status == 413
        assert b'"code":"request.too_large"' in body
        status, body, sent = _chunked_huge_body(stack.url)
        assert status == 413, body
        assert b'"code":"request.too_large"' in body
        streamed.append(sent)
    grown_mib = (_rss_kib(pid) - before) / 1024
    assert max(streamed) < 32 * _CHUNK, streamed
    assert grown_mib < 32, f"the gateway grew by {grown_mib:.0f} MiB"

    with httpx.Client(base_url=stack.url) as http:
        pad = "x" * (_LIMIT - 100)
        under = http.post("/v1/tables", json={"game": "freunde", "seats": 2, "pad": pad})
        assert under.status_code == 422 and under.json()["code"] == "request.invalid"
        over = http.post("/v1/tables", json={"game": "freunde", "seats": 2, "pad": pad * 2})
        assert over.status_code == 413
        assert over.json()["details"] == {"max_bytes": str(_LIMIT)}


@pytest.fixture(scope="module")
def limited(redis_url: str) -> Iterator[Stack]:
    """Two gateways on one Redis with small budgets."""
    env = {
        "BW_RATE_LIMIT_ADDRESS": "30/minute",
        "BW_RATE_LIMIT_SEAT": "8/minute",
        "BW_RATE_LIMIT_CREATE": "4/minute",
        "BW_STREAMS_PER_ADDRESS": "3",
        "BW_MAX_STREAMS": "5",
    }
    with Stack(redis_url, gateways=2, extra_env=env) as running:
        yield running


def _from(address: str, token: str | None = None) -> dict[str, str]:
    headers = {"X-Forwarded-For": address}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    return headers


def _assert_limited(reply: httpx.Response, budget: str) -> None:
    assert reply.status_code == 429, reply.text
    assert reply.json()["code"] == "rate.limited"
    assert reply.json()["details"]["budget"] == budget
    assert int(reply.headers["Retry-After"]) >= 1


def test_table_creation_has_a_quota_shared_by_every_gateway(limited: Stack) -> None:
    """Four tables a minute per address, counted across both gateways; another address
    still has its own four."""
    first, second = (httpx.Client(base_url=url) for url in limited.urls)
    with first, second:
        body = {"game": "freunde", "seats": 2}
        made = [
            (first if n % 2 == 0 else second).post(
                "/v1/tables", json=body, headers=_from("203.0.113.7")
            )
            for n in range(4)
        ]
        assert [reply.status_code for reply in made] == [201] * 4
        _assert_limited(
            second.post("/v1/tables", json=body, headers=_from("203.0.113.7")), "create"
        )
        _assert_limited(first.post("/v1/tables", json=body, headers=_from("203.0.113.7")), "create")
        other = first.post("/v1/tables", json=body, headers=_from("203.0.113.8"))
        assert other.status_code == 201
        counted = first.get("/metrics").text + second.get("/metrics").text
        assert 'bw_gateway_rate_limited_total{budget="create"} 1.0' in counted


def test_an_address_and_a_seat_token_each_have_a_budget_across_gateways(limited: Stack) -> None:
    """30 requests a minute per address over both gateways, then 429; 8 per seat token
    whatever address it comes from, without touching the other seat's budget; the probes
    are never limited."""
    first, second = (httpx.Client(base_url=url) for url in limited.urls)
    with first, second:
        replies = [
            (first if n % 2 == 0 else second).get("/v1/games", headers=_from("198.51.100.1"))
            for n in range(30)
        ]
        assert all(reply.status_code == 200 for reply in replies)
        _assert_limited(first.get("/v1/games", headers=_from("198.51.100.1")), "address")
        _assert_limited(second.get("/v1/games", headers=_from("198.51.100.1")), "address")
        assert first.get("/readyz", headers=_from("198.51.100.1")).status_code == 200

        created = first.post(
            "/v1/tables", json={"game": "freunde", "seats": 2}, headers=_from("198.51.100.50")
        ).json()
        table, (mine, theirs) = created["table_id"], created["tokens"]
        for n in range(8):
            client = first if n % 2 == 0 else second
            reply = client.get(f"/v1/tables/{table}", headers=_from(f"192.0.2.{n}", mine))
            assert reply.status_code == 200, reply.text
        _assert_limited(
            second.get(f"/v1/tables/{table}", headers=_from("192.0.2.99", mine)), "seat"
        )
        other = first.get(f"/v1/tables/{table}", headers=_from("192.0.2.99", theirs))
        assert other.status_code == 200


def test_streams_are_bounded_per_address_and_per_gateway(limited: Stack) -> None:
    """Three open streams per address and five in all on one gateway: the fourth from one
    address is 429 stream.too_many, the sixth in all 503 stream.capacity; a stream that
    ends (even before its first message) gives its slot back."""
    with httpx.Client(base_url=limited.url, timeout=30.0) as http:
        table = http.post(
            "/v1/tables", json={"game": "freunde", "seats": 2}, headers=_from("198.51.100.60")
        ).json()["table_id"]
        path = f"/v1/tables/{table}/events/stream"

        def hold(address: str) -> httpx.Response:
            opened = held.enter_context(http.stream("GET", path, headers=_from(address)))
            assert opened.status_code == 200
            return opened

        for _ in range(10):
            with http.stream("GET", path, headers=_from("198.51.100.61")) as left:
                assert left.status_code == 200
        _wait_for_open_streams(http, 0)
        with contextlib.ExitStack() as held:
            for _ in range(3):
                hold("198.51.100.61")
            fourth = http.get(path, headers=_from("198.51.100.61"))
            assert fourth.status_code == 429 and fourth.json()["code"] == "stream.too_many"
            hold("198.51.100.62")
            hold("198.51.100.62")
            full = http.get(path, headers=_from("198.51.100.63"))
            assert full.status_code == 503 and full.json()["code"] == "stream.capacity"
            assert int(full.headers["Retry-After"]) >= 1
        _wait_for_open_streams(http, 0)
        with http.stream("GET", path, headers=_from("198.51.100.63")) as later:
            assert later.status_code == 200


def _wait_for_open_streams(http: httpx.Client, count: int) -> None:
    """Until the gateway has noticed that the streams its clients closed are gone."""
    series = 'bw_gateway_live{what="streams"} '
    for _ in range(600):
        lines = http.get("/metrics").text.splitlines()
        if f"{series}{float(count)}" in lines:
            return
        time.sleep(0.05)
    raise AssertionError(f"the gateway still counts open streams: {lines}")
