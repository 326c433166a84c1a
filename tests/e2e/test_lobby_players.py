"""Players and apps over HTTP, every process real: four players meet in the lobby (two
through an app, two with plain seat tokens) and finish a game; then the attacks: one app
acting for another's users, revoked keys and tokens, unlisted tables, leaving."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from services.eventstore import connect
from services.players import AppRegistry
from tests.e2e.helpers import new_app
from tests.e2e.stack import Stack

pytestmark = [pytest.mark.e2e]


def revoke_app(stack: Stack, app_id: str) -> None:
    async def revoke() -> None:
        redis = await connect(stack.redis_url)
        try:
            await AppRegistry(redis).revoke(app_id)
        finally:
            await redis.aclose()

    asyncio.run(revoke())


def token(value: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {value}"}


def as_user(key: str, user: str) -> dict[str, str]:
    return {"X-App-Key": key, "X-App-User": user}


@pytest.fixture
def http(stack: Stack) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=stack.url, timeout=30) as client:
        yield client


def listed_open(http: httpx.Client, table_id: str) -> dict[str, Any]:
    """The table's lobby entry among the open tables (the lobby is eventually consistent)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        reply = http.get("/v1/tables", params={"game": "freunde", "status": "open"})
        assert reply.status_code == 200, reply.text
        for entry in reply.json()["tables"]:
            if entry["table_id"] == table_id:
                return dict(entry)
        time.sleep(0.1)
    raise AssertionError(f"{table_id} never listed as open")


def test_four_players_meet_in_the_lobby_through_an_app_and_with_tokens_and_finish(
    stack: Stack, http: httpx.Client
) -> None:
    _, key = new_app(stack, "Discord bot")
    opened = http.post(
        "/v1/tables",
        json={
            "game": "freunde",
            "seats": 4,
            "open": True,
            "name": "Ann",
            "options": {"round_limit": 2},
        },
    )
    assert opened.status_code == 201, opened.text
    table_id = opened.json()["table_id"]
    credentials: dict[int, dict[str, str]] = {0: token(opened.json()["token"])}

    entry = listed_open(http, table_id)
    assert entry["status"]["open_seats"] == 3
    assert [p["name"] for p in entry["status"]["players"] if not p["open"]] == ["Ann"]

    bob = http.post(f"/v1/tables/{table_id}/seats", json={"name": "Bob"})
    assert bob.status_code == 201, bob.text
    credentials[bob.json()["seat"]] = token(bob.json()["token"])
    for user, name in (("discord:1001", "Cleo"), ("discord:1002", "Dev")):
        took = http.post(
            f"/v1/tables/{table_id}/seats", json={"name": name}, headers=as_user(key, user)
        )
        assert took.status_code == 201, took.text
        assert took.json()["token"] is None  # the app acts for its user: no token to hold
        credentials[took.json()["seat"]] = as_user(key, user)
    assert took.json()["state"] == "started"  # the last seat started the game
    assert sorted(credentials) == [0, 1, 2, 3]

    table = http.get(f"/v1/tables/{table_id}").json()
    assert [s["name"] for s in table["seating"]] == ["Ann", "Bob", "Cleo", "Dev"]
    choose = random.Random(13)
    version = table["version"]
    turns_seen_in_my_tables = 0
    for _ in range(2000):
        status = http.get(f"/v1/tables/{table_id}", params={"min_version": version}).json()
        if status["status"]["finished"]:
            break
        seat = status["status"]["to_act"][0]
        if turns_seen_in_my_tables < 1 and "X-App-User" in credentials[seat]:
            mine = http.get("/v1/me/tables", headers=credentials[seat]).json()
            assert mine["tables"][0]["table_id"] == table_id
            assert mine["tables"][0]["your_turn"] is True
            turns_seen_in_my_tables += 1
        legal = http.get(f"/v1/tables/{table_id}/legal-commands", headers=credentials[seat])
        assert legal.status_code == 200, legal.text
        moves = legal.json()["moves"]
        assert all(move["text"] and move["group"] for move in moves)
        assert all(len(menu["moves"]) <= 25 for menu in legal.json()["menus"])
        move = choose.choice(moves)
        sent = http.post(
            f"/v1/tables/{table_id}/commands",
            json={
                "command_id": f"c{version}",
                "command": move["command"],
                "expected_version": legal.json()["version"],
            },
            headers=credentials[seat],
        )
        assert sent.status_code == 200, sent.text
        version = sent.json()["version"]
    else:
        raise AssertionError("the game did not end")
    assert turns_seen_in_my_tables == 1
    events = http.get(f"/v1/tables/{table_id}/events").json()["events"]
    assert all(event["text"] for event in events if event["event"] is not None)
    assert events[-1]["seed_revealed"] and events[-1]["text"]
    assert http.get(f"/v1/tables/{table_id}/audit").json()["ok"] is True
    finished = http.get("/v1/me/tables", headers=credentials[2]).json()["tables"]
    assert [(t["table_id"], t["state"]) for t in finished][:1] == [(table_id, "finished")]

    # A rematch: the same four, each asking for it, in the same seats.
    again = [http.post(f"/v1/tables/{table_id}/rematch", headers=credentials[n]) for n in range(4)]
    assert [reply.status_code for reply in again] == [201] * 4, [r.text for r in again]
    assert len({reply.json()["table_id"] for reply in again}) == 1
    assert [reply.json()["seat"] for reply in again] == [0, 1, 2, 3]
    assert [reply.json()["state"] for reply in again] == ["open"] * 3 + ["started"]
    rematch_id = again[0].json()["table_id"]
    seating = http.get(f"/v1/tables/{rematch_id}").json()["seating"]
    assert [s["name"] for s in seating] == ["Ann", "Bob", "Cleo", "Dev"]
    first = http.get(f"/v1/tables/{rematch_id}", headers=token(again[0].json()["token"]))
    assert first.json()["seat"] == 0


def test_one_app_can_never_act_for_another_apps_users(stack: Stack, http: httpx.Client) -> None:
    app_a, key_a = new_app(stack, "A")
    _, key_b = new_app(stack, "B")
    opened = http.post(
        "/v1/tables",
        json={"game": "freunde", "seats": 2, "open": True},
        headers=as_user(key_a, "discord:1"),
    )
    assert opened.status_code == 201, opened.text
    table_id = opened.json()["table_id"]
    assert opened.json()["seat"] == 0 and opened.json()["token"] is None

    # B names the same user id, and even A's own player id: neither is A's user.
    for user in ("discord:1", f"app:{app_a}:discord:1"):
        b_user = as_user(key_b, user)
        assert http.delete(f"/v1/tables/{table_id}/seats/0", headers=b_user).status_code == 403
        assert (
            http.patch(
                f"/v1/tables/{table_id}/seats/0", json={"name": "Mallory"}, headers=b_user
            ).status_code
            == 403
        )
        assert http.post(f"/v1/tables/{table_id}/seats/0/token", headers=b_user).status_code == 403
        assert http.post(f"/v1/tables/{table_id}/start", json={}, headers=b_user).status_code == 403
        assert http.get("/v1/me/tables", headers=b_user).json()["tables"] == []
    joined = http.post(f"/v1/tables/{table_id}/seats", json={"name": "Bob"})
    assert joined.json()["state"] == "started"
    b_user = as_user(key_b, "discord:1")
    refused = http.get(f"/v1/tables/{table_id}/legal-commands", headers=b_user)
    assert (refused.status_code, refused.json()["code"]) == (403, "auth.not_seated")
    sent = http.post(
        f"/v1/tables/{table_id}/commands",
        json={"command_id": "x1", "command": {"draw_plots": {}}},
        headers=b_user,
    )
    assert (sent.status_code, sent.json()["code"]) == (403, "auth.not_seated")
    # Its own user reads its own seat; a forged key (A's id, another secret) is no app.
    mine = http.get(f"/v1/tables/{table_id}", headers=as_user(key_a, "discord:1"))
    assert mine.json()["seat"] == 0
    forged = key_a[:-4] + ("AAAA" if not key_a.endswith("AAAA") else "BBBB")
    bad = http.get(f"/v1/tables/{table_id}", headers=as_user(forged, "discord:1"))
    assert (bad.status_code, bad.json()["code"]) == (403, "app.invalid")
    both = http.get(
        f"/v1/tables/{table_id}", headers={**as_user(key_a, "discord:1"), **token("x.y")}
    )
    assert (both.status_code, both.json()["code"]) == (403, "auth.ambiguous")


def test_a_revoked_app_key_and_a_reissued_token_are_refused(
    stack: Stack, http: httpx.Client
) -> None:
    app_id, key = new_app(stack, "Short-lived")
    opened = http.post("/v1/tables", json={"game": "freunde", "seats": 2, "open": True})
    table_id, old = opened.json()["table_id"], opened.json()["token"]
    took = http.post(f"/v1/tables/{table_id}/seats", json={}, headers=as_user(key, "discord:7"))
    assert took.status_code == 201, took.text

    renewed = http.post(f"/v1/tables/{table_id}/seats/0/token", headers=token(old))
    assert renewed.status_code == 200, renewed.text
    new = renewed.json()["token"]
    refused = http.get(f"/v1/tables/{table_id}/legal-commands", headers=token(old))
    assert (refused.status_code, refused.json()["code"]) == (403, "auth.invalid")
    assert http.get(f"/v1/tables/{table_id}", headers=token(new)).json()["seat"] == 0
    # The app that seated its user re-issues that seat's token (for a web link, say).
    given = http.post(f"/v1/tables/{table_id}/seats/1/token", headers={"X-App-Key": key})
    assert given.status_code == 200, given.text
    assert (
        http.get(f"/v1/tables/{table_id}", headers=token(given.json()["token"])).json()["seat"] == 1
    )

    revoke_app(stack, app_id)
    gone = http.get(f"/v1/tables/{table_id}", headers=as_user(key, "discord:7"))
    assert (gone.status_code, gone.json()["code"]) == (403, "app.invalid")


def test_unlisted_tables_need_their_invite_and_seats_are_left_before_the_start(
    stack: Stack, http: httpx.Client
) -> None:
    opened = http.post(
        "/v1/tables", json={"game": "freunde", "seats": 3, "open": True, "unlisted": True}
    )
    table_id, host, invite = (opened.json()[k] for k in ("table_id", "token", "invite_code"))
    assert invite
    wrong = http.post(f"/v1/tables/{table_id}/seats", json={"invite_code": "nope"})
    assert (wrong.status_code, wrong.json()["code"]) == (403, "invite.invalid")
    bob = http.post(f"/v1/tables/{table_id}/seats", json={"invite_code": invite, "name": "Bob"})
    assert bob.status_code == 201, bob.text
    time.sleep(0.5)
    listed = http.get("/v1/tables", params={"game": "freunde"}).json()["tables"]
    assert table_id not in {entry["table_id"] for entry in listed}

    bob_seat = bob.json()["seat"]
    assert (
        http.delete(
            f"/v1/tables/{table_id}/seats/{bob_seat}", headers=token(bob.json()["token"])
        ).status_code
        == 200
    )
    cleo = http.post(f"/v1/tables/{table_id}/seats", json={"invite_code": invite})
    refused = http.delete(f"/v1/tables/{table_id}/seats/0", headers=token(cleo.json()["token"]))
    assert (refused.status_code, refused.json()["code"]) == (403, "seat.not_yours")
    removed = http.delete(f"/v1/tables/{table_id}/seats/{cleo.json()['seat']}", headers=token(host))
    assert removed.status_code == 200 and removed.json()["open_seats"] == 2
    started = http.post(
        f"/v1/tables/{table_id}/start", json={"bots": "greedy"}, headers=token(host)
    )
    assert started.status_code == 200, started.text
    assert [s["bot"] for s in started.json()["seating"]] == [None, "greedy", "greedy"]
    late = http.post(f"/v1/tables/{table_id}/seats", json={"invite_code": invite})
    assert (late.status_code, late.json()["code"]) == (409, "table.started")
    gone = http.delete(f"/v1/tables/{table_id}/seats/0", headers=token(host))
    assert (gone.status_code, gone.json()["code"]) == (409, "table.started")
