"""An open table nobody joins is forgotten, over real processes (a private Redis, the
engine service, projector and gateway with ``BW_OPEN_TABLE_TTL_S=2``): once its seating
expires it is not found, cannot be joined and leaves the lobby; a table whose seats were
filled in time plays on after the same period."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from tests.e2e.conftest import stack_on_own_redis
from tests.e2e.stack import Stack

pytestmark = [pytest.mark.e2e]

TTL_S = 2


@pytest.fixture(scope="module")
def short_lived() -> Iterator[Stack]:
    yield from stack_on_own_redis(("freunde",), extra_env={"BW_OPEN_TABLE_TTL_S": str(TTL_S)})


def _open_ids(http: httpx.Client) -> set[str]:
    reply = http.get("/v1/tables", params={"game": "freunde", "status": "open"})
    assert reply.status_code == 200, reply.text
    return {entry["table_id"] for entry in reply.json()["tables"]}


def test_an_open_table_nobody_joins_is_forgotten_and_a_filled_one_is_kept(
    short_lived: Stack,
) -> None:
    with httpx.Client(base_url=short_lived.url, timeout=30) as http:
        waiting = http.post(
            "/v1/tables", json={"game": "freunde", "seats": 3, "open": True, "name": "Ann"}
        )
        assert waiting.status_code == 201, waiting.text
        filled = http.post(
            "/v1/tables", json={"game": "freunde", "seats": 2, "open": True, "name": "Cy"}
        )
        assert filled.status_code == 201, filled.text
        joined = http.post(f"/v1/tables/{filled.json()['table_id']}/seats", json={"name": "Di"})
        assert joined.status_code == 201 and joined.json()["state"] == "started", joined.text
        waiting_id = waiting.json()["table_id"]
        assert http.get(f"/v1/tables/{waiting_id}").status_code == 200

        deadline = time.monotonic() + 30
        while http.get(f"/v1/tables/{waiting_id}").status_code != 404:
            assert time.monotonic() < deadline, "the open table was never forgotten"
            time.sleep(0.2)
        gone = http.get(f"/v1/tables/{waiting_id}")
        assert gone.json()["code"] == "table.not_found", gone.text
        late = http.post(f"/v1/tables/{waiting_id}/seats", json={"name": "Bob"})
        assert late.status_code == 404, late.text
        while waiting_id in _open_ids(http):
            assert time.monotonic() < deadline, "the expired table stayed in the lobby"
            time.sleep(0.2)

        # The table that started before its period ended is there, and playable.
        table = http.get(f"/v1/tables/{filled.json()['table_id']}")
        assert table.status_code == 200, table.text
        seat = joined.json()["seat"]
        legal = http.get(
            f"/v1/tables/{filled.json()['table_id']}/legal-commands",
            headers={"Authorization": f"Bearer {joined.json()['token']}"},
        )
        assert legal.status_code == 200 and legal.json()["seat"] == seat, legal.text
