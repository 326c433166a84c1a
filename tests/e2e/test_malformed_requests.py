"""Thousands of malformed requests against the running gateway: never a 5xx, always a JSON
error ``{code, message, details}``, and the table under attack never changes."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gateway.client import BotTable, GatewayClient
from tests.e2e.stack import Stack

pytestmark = [pytest.mark.e2e]


@dataclass(frozen=True)
class Target:
    table_id: str
    tokens: tuple[str, ...]
    head: int
    view: dict[str, Any]


@pytest.fixture(scope="module")
def target(stack: Stack) -> Target:
    """A 3-seat table a few commands into the game."""

    async def setup() -> Target:
        async with GatewayClient(stack.url) as client:
            table = await BotTable.open(
                client, "freunde", 3, bot_seed=3, options={"round_limit": 3}
            )
            for _ in range(6):
                await table.step()
            view = await client.view(table.table_id, min_version=table.version)
            return Target(table.table_id, tuple(table.tokens), table.version, view)

    return asyncio.run(setup())


@pytest.fixture(scope="module")
def http(stack: Stack) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=stack.url, timeout=30.0) as client:
        yield client


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=12,
)
# Plausible commands of the game: sent only with credentials that name no seat, or with a
# stale expected version, so none of them may be accepted.
plausible_commands = st.sampled_from(
    [
        {"end_turn": {}},
        {"draw_plots": {}},
        {"take_irrigation": {}},
        {"move_panda": {"to": {"q": 1, "r": 0}}},
        {"claim_objective": {"card": 3}},
    ]
)
command_ids = st.text(min_size=0, max_size=140) | st.from_regex(r"\A[a-z0-9]{1,12}\Z")


def _headers(token: str | None, scheme: str = "Bearer") -> dict[str, str]:
    return {} if token is None else {"Authorization": f"{scheme} {token}"}


@st.composite
def malformed_command(draw: st.DrawFn, target: Target) -> tuple[str, str, dict[str, str], Any]:
    """A POST to /commands that must not be accepted, and why."""
    valid_token = st.sampled_from(target.tokens)
    table = draw(st.sampled_from([target.table_id]) | st.text(min_size=1, max_size=70))
    kind = draw(
        st.sampled_from(["garbage_body", "bad_command", "bad_auth", "stale_version", "raw"])
    )
    if kind == "garbage_body":
        return table, kind, _headers(draw(valid_token)), draw(json_values)
    body: dict[str, Any]
    if kind == "bad_command":
        body = {
            "command_id": draw(command_ids),
            "command": draw(st.dictionaries(st.text(max_size=12), json_values, max_size=3)),
        }
        if draw(st.booleans()):
            body["expected_version"] = draw(st.integers() | st.text(max_size=5))
        return table, kind, _headers(draw(valid_token)), body
    body = {"command_id": draw(command_ids), "command": draw(plausible_commands)}
    if kind == "bad_auth":
        token = draw(st.none() | st.text(max_size=60).filter(lambda t: t not in target.tokens))
        scheme = draw(st.sampled_from(["Bearer", "bearer", "Basic", "Token"]))
        headers = {} if token is None else {"Authorization": f"{scheme} {token}".strip()}
        headers = {k: v for k, v in headers.items() if v.isascii() and v.isprintable()}
        return table, kind, headers, body
    if kind == "stale_version":
        body["expected_version"] = draw(st.integers(0, target.head - 1))
        return table, kind, _headers(draw(valid_token)), body
    return table, kind, _headers(draw(valid_token)), draw(st.binary(max_size=40))


def _assert_json_error(reply: httpx.Response) -> None:
    assert reply.status_code < 500, (reply.status_code, reply.text)
    if reply.status_code >= 400:
        body = reply.json()
        assert set(body) == {"code", "message", "details"}, body
        assert isinstance(body["code"], str) and body["code"]


def test_malformed_commands_are_refused_without_writing(
    stack: Stack, target: Target, http: httpx.Client
) -> None:
    """Bad JSON, wrong types, unknown tables, bad tokens, bad or stale commands: all 4xx."""
    statuses: dict[int, int] = {}

    @settings(
        max_examples=1500,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(data=st.data())
    def attack(data: st.DataObject) -> None:
        table, kind, headers, body = data.draw(malformed_command(target))
        path = f"/v1/tables/{quote(table, safe='')}/commands"
        if kind == "raw":
            reply = http.post(
                path, headers={**headers, "content-type": "application/json"}, content=body
            )
        else:
            reply = http.post(path, headers=headers, json=body)
        _assert_json_error(reply)
        assert reply.status_code != 200, (kind, body, reply.text)
        statuses[reply.status_code] = statuses.get(reply.status_code, 0) + 1

    attack()
    assert {401, 403, 404, 409, 422} <= set(statuses), statuses
    after = http.get(f"/v1/tables/{target.table_id}", params={"min_version": target.head}).json()
    assert after["version"] == target.head
    assert after["view"] == target.view["view"]


def test_malformed_reads_and_creates_get_json_errors(
    stack: Stack, target: Target, http: httpx.Client
) -> None:
    """Every read endpoint and table creation, with junk parameters, answers 2xx or 4xx JSON."""
    reads = [
        "",
        "/legal-commands",
        "/events",
        "/replay",
        "/audit",
        "/export",
    ]
    params = st.dictionaries(
        st.sampled_from(["at", "after", "limit", "min_version", "seat", "game", "status"]),
        st.integers(-(2**70), 2**70).map(str) | st.text(max_size=8),
        max_size=3,
    )

    @settings(
        max_examples=1000,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(
        read=st.sampled_from(reads),
        table=st.sampled_from([target.table_id]) | st.text(min_size=1, max_size=70),
        query=params,
        token=st.none()
        | st.sampled_from(target.tokens)
        | st.from_regex(r"\A[A-Za-z0-9_-]{1,50}\Z"),
        create=st.none() | json_values,
    )
    def probe(read: str, table: str, query: dict[str, str], token: str | None, create: Any) -> None:
        if create is not None:
            if isinstance(create, dict) and create.get("game") == "freunde":
                create = {**create, "seats": "many"}
            _assert_json_error(http.post("/v1/tables", json=create))
            _assert_json_error(http.get("/v1/tables", params=query))
            return
        reply = http.get(
            f"/v1/tables/{quote(table, safe='')}{read}", params=query, headers=_headers(token)
        )
        _assert_json_error(reply)

    probe()
    after = http.get(f"/v1/tables/{target.table_id}/events").json()
    assert after["head"] == target.head


@st.composite
def string_literal(draw: st.DrawFn) -> str:
    """A JSON string literal, often with a lone UTF-16 surrogate escape in it."""
    text = json.dumps(draw(st.text(max_size=8)))[1:-1]
    surrogate = f"\\u{draw(st.integers(0xD800, 0xDFFF)):04x}"
    pieces = draw(st.lists(st.sampled_from([text, surrogate, "\\ud83d\\ude00", "x"]), max_size=4))
    return '"' + "".join(pieces) + '"'


@st.composite
def hostile_value(draw: st.DrawFn) -> str:
    """A JSON value as raw text: what Python's parser takes and little else can carry."""
    kind = draw(st.sampled_from(["string", "integer", "float", "nested", "mixed"]))
    if kind == "string":
        return draw(string_literal())
    if kind == "integer":
        sign = draw(st.sampled_from(["", "-"]))
        return sign + "9" * draw(st.integers(18, 6000))
    if kind == "float":
        return draw(st.sampled_from(["1e400", "-1e400", "-0", "1e-400", "0.0", "1E+9999", "2.5"]))
    if kind == "nested":
        depth = draw(st.integers(2, 20_000))
        opener = draw(st.sampled_from(["[", '{"a":']))
        closer = "]" if opener == "[" else "}"
        return opener * depth + "1" + closer * depth
    return "[" + ",".join([draw(string_literal()), "1e400", "9" * 400, "{}"]) + "]"


_CONTENT_TYPES = [
    "application/json",
    "application/json; charset=utf-8",
    "application/json; charset=utf-16",
    "application/merge-patch+json",
    "application/*+json",
    "text/plain",
    "text/json",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/octet-stream",
    "json",
    ";;;",
    None,
]


def test_hostile_json_never_gets_a_5xx(stack: Stack, target: Target, http: httpx.Client) -> None:
    """Lone surrogates (in keys and values), numbers too big for any field, nesting
    thousands deep and odd content types, in table creation and commands: always a 4xx
    JSON error (or a table, when the value happens to be valid), never a 5xx."""
    create_templates = [
        '{"game": "freunde", "seats": HOLE}',
        '{"game": HOLE, "seats": 2}',
        '{"game": "freunde", "seats": 2, "options": {KEY: 3}}',
        '{"game": "freunde", "seats": 2, "options": {"round_limit": HOLE}}',
        '{"game": "freunde", "seats": 2, "seed": HOLE}',
        "HOLE",
    ]
    # expected_version 0 is stale: none of these may be accepted.
    command_templates = [
        '{"command_id": HOLE, "expected_version": 0, "command": {"end_turn": {}}}',
        '{"command_id": "c1", "expected_version": 0, "command": {KEY: {}}}',
        '{"command_id": "c1", "expected_version": 0, "command": {"move_panda": HOLE}}',
        '{"command_id": "c1", "expected_version": 0,'
        ' "command": {"move_panda": {"to": {"q": HOLE, "r": 0}}}}',
        '{"command_id": "c1", "expected_version": HOLE, "command": {"end_turn": {}}}',
        '{"command_id": "c1", "expected_version": 0, "seat": HOLE, "command": {"end_turn": {}}}',
        '{"command_id": "c1", "expected_version": 0, "command": {"end_turn": {}}, KEY: 1}',
    ]
    statuses: dict[int, int] = {}

    @settings(
        max_examples=600,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(data=st.data())
    def attack(data: st.DataObject) -> None:
        creating = data.draw(st.booleans())
        template = data.draw(st.sampled_from(create_templates if creating else command_templates))
        body = template.replace("KEY", data.draw(string_literal()))
        body = body.replace("HOLE", data.draw(hostile_value()))
        content_type = data.draw(st.sampled_from(_CONTENT_TYPES))
        headers = {} if content_type is None else {"content-type": content_type}
        if creating:
            reply = http.post("/v1/tables", content=body.encode(), headers=headers)
        else:
            headers["Authorization"] = f"Bearer {data.draw(st.sampled_from(target.tokens))}"
            reply = http.post(
                f"/v1/tables/{target.table_id}/commands", content=body.encode(), headers=headers
            )
            assert reply.status_code != 200, (body[:200], reply.text)
        _assert_json_error(reply)
        statuses[reply.status_code] = statuses.get(reply.status_code, 0) + 1

    attack()
    assert {409, 422} <= set(statuses), statuses
    after = http.get(f"/v1/tables/{target.table_id}/events").json()
    assert after["head"] == target.head


@pytest.mark.parametrize("value", [-5, 0, 10**30, 2.5, "five", None, True])
def test_an_invalid_table_option_is_a_422_naming_it(http: httpx.Client, value: Any) -> None:
    """The issue's example (round_limit -5 or 10^30) was a 503 clients retried forever."""
    reply = http.post(
        "/v1/tables", json={"game": "freunde", "seats": 2, "options": {"round_limit": value}}
    )
    assert reply.status_code == 422, reply.text
    assert reply.json()["code"] == "option.invalid"
    assert reply.json()["details"]["option"] == "round_limit"


def _first_reply(url: str, table_id: str, last_event_id: bytes) -> tuple[int, bytes]:
    """The status of a raw SSE request with ``last_event_id`` as sent bytes, and what came
    up to its first event (or the whole error reply)."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.sendall(
            f"GET /v1/tables/{table_id}/events/stream HTTP/1.1\r\nHost: gateway\r\n".encode()
            + b"Last-Event-ID: "
            + last_event_id
            + b"\r\nConnection: close\r\n\r\n"
        )
        got = b""
        while b"\nid: " not in got:
            chunk = sock.recv(4096)
            if not chunk:
                break
            got += chunk
    return int(got.split(b" ", 2)[1]), got


def _version(raw: bytes) -> int | None:
    text = raw.decode("latin-1").strip(" \t")
    if text.isascii() and text.isdigit() and int(text) < 2**63:
        return int(text)
    return None


def test_a_hostile_last_event_id_never_breaks_the_stream(stack: Stack, target: Target) -> None:
    """Any header value a client can send: a version below the head resumes after it;
    anything else (a 32-digit number, '\u00b2', a sign, an exponent) is ignored and the
    stream starts at the beginning. It never breaks after its 200 (32 digits used to)."""
    header_bytes = st.binary(max_size=40).filter(lambda b: not set(b) & {0, 10, 13})
    values = (
        st.sampled_from([b"9" * 32, b"\xb2", b"-1", b"1e3", b" 5 ", b"007", b"9" * 19])
        | st.from_regex(rb"\A[0-9]{1,3}\Z")
        | header_bytes
    )

    @settings(
        max_examples=200,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(value=values)
    def probe(value: bytes) -> None:
        version = _version(value)
        if version is not None and version >= target.head:
            return  # a quiet stream: nothing to read yet
        status, got = _first_reply(stack.url, target.table_id, value)
        if status == 400 and b"text/event-stream" not in got:
            return  # bytes the HTTP parser itself refuses
        assert status == 200, (value, got)
        expected = 1 if version is None else version + 1
        assert f"\nid: {expected}\r\n".encode() in got, (value, got)

    probe()
