"""``GET /v1/tables`` over HTTP: pages with next_cursor, filters, and refuses bad cursors."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from tests.e2e.stack import Stack

pytestmark = [pytest.mark.e2e]


def every_page(client: httpx.Client, **params: Any) -> tuple[list[dict[str, Any]], int]:
    """All tables the lobby lists for ``params``, following next_cursor; and the pages."""
    tables: list[dict[str, Any]] = []
    cursor = None
    pages = 0
    while True:
        query = dict(params, **({"cursor": cursor} if cursor else {}))
        reply = client.get("/v1/tables", params=query)
        assert reply.status_code == 200, reply.text
        body = reply.json()
        pages += 1
        tables += body["tables"]
        cursor = body["next_cursor"]
        if cursor is None:
            return tables, pages


def test_the_lobby_pages_newest_first_with_a_cursor(stack: Stack) -> None:
    """Tables just opened come first, each once across pages of two."""
    with httpx.Client(base_url=stack.url, timeout=30) as client:
        opened = []
        for _ in range(5):
            reply = client.post("/v1/tables", json={"game": "freunde", "seats": 2})
            assert reply.status_code == 201, reply.text
            opened.append(reply.json()["table_id"])
        deadline = time.monotonic() + 30  # the lobby is eventually consistent
        while True:
            listed, pages = every_page(client, game="freunde", status="active", limit=2)
            ids = [t["table_id"] for t in listed]
            if set(opened) <= set(ids) or time.monotonic() > deadline:
                break
            time.sleep(0.1)
    assert len(ids) == len(set(ids))
    assert [t for t in ids if t in opened] == opened[::-1]
    assert pages == (len(ids) + 1) // 2
    assert all(t["game"] == "freunde" and not t["status"]["finished"] for t in listed)


@pytest.mark.parametrize(
    ("params", "status", "code"),
    [
        ({"cursor": "not-a-cursor"}, 422, "request.invalid"),
        ({"cursor": "MTI6eA"}, 422, "request.invalid"),
        ({"limit": 0}, 422, "request.invalid"),
        ({"limit": 1001}, 422, "request.invalid"),
        ({"status": "waiting"}, 422, "request.invalid"),
        ({"game": "chess"}, 404, "game.not_found"),
    ],
)
def test_a_bad_lobby_query_is_refused_with_its_code(
    stack: Stack, params: dict[str, Any], status: int, code: str
) -> None:
    """Each malformed listing gets a 4xx with a stable code."""
    reply = httpx.get(f"{stack.url}/v1/tables", params=params, timeout=30)
    assert (reply.status_code, reply.json()["code"]) == (status, code)
