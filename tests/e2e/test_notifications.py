"""Notifications over real processes: a private Redis, the engine service, projector,
notifier and gateway, and webhook receivers that are real HTTP servers on loopback.

- An app's receiver that fails the first tries of every delivery still gets each signed
  notification of the app's users delivered exactly once (one 2xx per delivery), after
  retries; an app's receiver that always fails ends with every delivery dead-lettered,
  and the deliveries API lists them so.
- Every body received verifies with the README's check, and a wrong secret, a changed
  body or a stale timestamp do not.
- The per-player SSE stream of a seat token's holder says "your turn" when it becomes
  that seat's turn at a table played over HTTP.
- One app cannot register or list another app's webhooks or deliveries, nor read another
  app's user's notifications.
- A player stream already open ends with ``revoked`` once its app is revoked or its seat
  token re-issued, and sends nothing after that.
"""

from __future__ import annotations

import json
import queue
import random
import re
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from tests.e2e.conftest import stack_on_own_redis
from tests.e2e.stack import ROOT, Stack
from tests.e2e.test_lobby_players import as_user, new_app, revoke_app, token
from tests.webhook_receiver import Receiver

pytestmark = [pytest.mark.e2e]

FAILS_FIRST = 2
MAX_ATTEMPTS = 3
WEBHOOK_ENV = {
    "BW_WEBHOOK_MAX_ATTEMPTS": str(MAX_ATTEMPTS),
    "BW_WEBHOOK_BACKOFF_MS": "50",
    "BW_WEBHOOK_BACKOFF_MAX_MS": "200",
    "BW_WEBHOOK_TIMEOUT_S": "5",
}


def readme_verify() -> Callable[..., bool]:
    """``verify_webhook`` exactly as the README prints it."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.DOTALL)
    snippet = next(block for block in blocks if "def verify_webhook(" in block)
    scope: dict[str, Any] = {}
    exec(compile(snippet, "README.md", "exec"), scope)
    verify: Callable[..., bool] = scope["verify_webhook"]
    return verify


@pytest.fixture(scope="module")
def receiver() -> Iterator[Receiver]:
    """``/flaky`` answers 500 to the first :data:`FAILS_FIRST` tries of each delivery,
    then 204; ``/down`` always answers 503."""

    def answer(path: str, tries: int) -> int:
        if path == "/flaky":
            return 500 if tries <= FAILS_FIRST else 204
        return 503

    with Receiver.serving(answer) as running:
        yield running


@pytest.fixture(scope="module")
def notify_stack() -> Iterator[Stack]:
    """A stack on a Redis of its own: no other test's notifier shares its due deliveries
    (their retry settings differ)."""
    yield from stack_on_own_redis(("freunde",), extra_env=WEBHOOK_ENV)


@pytest.fixture
def http(notify_stack: Stack) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=notify_stack.url, timeout=30) as client:
        yield client


def until(check: Callable[[], Any], what: str, timeout_s: float = 60) -> Any:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def play_to_the_end(
    http: httpx.Client, table_id: str, credentials: dict[int, dict[str, str]], seed: int
) -> int:
    """Random legal moves by whichever seat is to act until the game ends; its version."""
    choose = random.Random(seed)
    version = 0
    for _ in range(3000):
        status = http.get(f"/v1/tables/{table_id}", params={"min_version": version}).json()
        if status["status"]["finished"]:
            return version
        seat = status["status"]["to_act"][0]
        legal = http.get(f"/v1/tables/{table_id}/legal-commands", headers=credentials[seat])
        assert legal.status_code == 200, legal.text
        sent = http.post(
            f"/v1/tables/{table_id}/commands",
            json={
                "command_id": f"c{legal.json()['version']}",
                "command": choose.choice(legal.json()["moves"])["command"],
                "expected_version": legal.json()["version"],
            },
            headers=credentials[seat],
        )
        assert sent.status_code == 200, sent.text
        version = sent.json()["version"]
    raise AssertionError("the game did not end")


def notes_of(http: httpx.Client, headers: dict[str, str]) -> list[dict[str, Any]]:
    """Every notification the player's stream keeps, all pages."""
    found: list[dict[str, Any]] = []
    after = "0"
    while True:
        page = http.get("/v1/me/notifications", params={"after": after}, headers=headers)
        assert page.status_code == 200, page.text
        found += page.json()["notifications"]
        if not page.json()["notifications"]:
            return found
        after = page.json()["last_event_id"]


def sse_messages(
    http: httpx.Client, headers: dict[str, str], last_event_id: str, count: int
) -> list[tuple[str, dict[str, Any]]]:
    """The first ``count`` messages of the player's SSE stream resumed after an id."""
    got: list[tuple[str, dict[str, Any]]] = []
    with http.stream(
        "GET",
        "/v1/me/notifications/stream",
        headers={**headers, "Last-Event-ID": last_event_id},
    ) as reply:
        assert reply.status_code == 200
        for message in sse_events(reply):
            got.append(message)
            if len(got) == count:
                return got
    return got


def sse_events(reply: httpx.Response) -> Iterator[tuple[str, dict[str, Any]]]:
    """(event, data) of each message of an SSE response, as they come."""
    kind = ""
    for line in reply.iter_lines():
        if line.startswith("event: "):
            kind = line.removeprefix("event: ")
        elif line.startswith("data: "):
            yield kind, json.loads(line.removeprefix("data: "))


def test_webhooks_deliver_every_signed_notification_once_after_retries_or_dead_letter(
    notify_stack: Stack, http: httpx.Client, receiver: Receiver
) -> None:
    flaky_app, flaky_key = new_app(notify_stack, "Discord bot")
    down_app, down_key = new_app(notify_stack, "A site that is down")
    app_key = {"X-App-Key": flaky_key}

    # Registering: http(s) only, no internal address; the secret comes with the first only.
    for bad in ("ftp://example.com/hook", "http://10.1.2.3/hook", "http://169.254.169.254/x"):
        refused = http.post(f"/v1/apps/{flaky_app}/webhooks", json={"url": bad}, headers=app_key)
        assert refused.status_code == 422, refused.text
        assert refused.json()["code"] in ("request.invalid", "webhook.invalid")
    made = http.post(
        f"/v1/apps/{flaky_app}/webhooks", json={"url": f"{receiver.url}/flaky"}, headers=app_key
    )
    assert made.status_code == 201, made.text
    secret = made.json()["secret"]
    assert secret.startswith("whsec_")
    down = http.post(
        f"/v1/apps/{down_app}/webhooks",
        json={"url": f"{receiver.url}/down"},
        headers={"X-App-Key": down_key},
    )
    assert down.status_code == 201, down.text
    listed = http.get(f"/v1/apps/{flaky_app}/webhooks", headers=app_key).json()
    assert [w["url"] for w in listed["webhooks"]] == [f"{receiver.url}/flaky"]

    # One app cannot reach another's webhooks or deliveries.
    other = {"X-App-Key": down_key}
    for method, path in (
        ("POST", f"/v1/apps/{flaky_app}/webhooks"),
        ("GET", f"/v1/apps/{flaky_app}/webhooks"),
        ("GET", f"/v1/apps/{flaky_app}/deliveries"),
        ("POST", f"/v1/apps/{flaky_app}/webhook-secret"),
        ("DELETE", f"/v1/apps/{flaky_app}/webhooks/{made.json()['webhook_id']}"),
    ):
        body = {"url": f"{receiver.url}/stolen"} if method == "POST" else None
        reply = http.request(method, path, json=body, headers=other)
        assert reply.status_code == 403, (path, reply.text)
        assert reply.json()["code"] == "app.forbidden"
    assert len(http.get(f"/v1/apps/{flaky_app}/webhooks", headers=app_key).json()["webhooks"]) == 1

    # A table of two app users: Ann through the flaky app, Bob through the one that is down.
    ann = as_user(flaky_key, "discord:1001")
    bob = as_user(down_key, "discord:2002")
    opened = http.post(
        "/v1/tables",
        json={
            "game": "freunde",
            "seats": 2,
            "open": True,
            "name": "Ann",
            "options": {"round_limit": 3},
        },
        headers=ann,
    )
    assert opened.status_code == 201, opened.text
    table_id = opened.json()["table_id"]
    took = http.post(f"/v1/tables/{table_id}/seats", json={"name": "Bob"}, headers=bob)
    assert took.status_code == 201, took.text
    credentials = {0: ann, 1: bob}
    end = play_to_the_end(http, table_id, credentials, seed=5)

    # Ann's stream: Bob joined, her turns, the end.
    def ann_has_the_end() -> list[dict[str, Any]] | None:
        notes = notes_of(http, ann)
        return notes if any(n["kind"] == "game_over" for n in notes) else None

    ann_notes = until(ann_has_the_end, "Ann's game_over")
    kinds = [n["kind"] for n in ann_notes]
    assert kinds[0] == "seat_joined" and kinds[-1] == "game_over"
    assert "your_turn" in kinds
    assert ann_notes[-1]["version"] == end and ann_notes[-1]["data"]["scores"]
    assert ann_notes[0]["data"] == {"seat": 1, "name": "Bob", "open_seats": 0}

    # Her SSE stream, resumed after her second notification, replays the rest in order.
    resumed = sse_messages(http, ann, ann_notes[1]["event_id"], len(ann_notes) - 2)
    assert [(kind, note["id"]) for kind, note in resumed] == [
        (n["kind"], n["id"]) for n in ann_notes[2:]
    ]

    # Another app naming the same user id reads its own user's stream, not Ann's.
    stranger = notes_of(http, as_user(down_key, "discord:1001"))
    assert stranger == []
    assert (
        http.get("/v1/me/notifications", headers=ann)
        .json()["player"]
        .startswith(f"app:{flaky_app}:")
    )

    # Every notification of Ann reaches the flaky receiver once with a 2xx, after retries.
    wanted = {n["id"] for n in ann_notes}

    def all_delivered() -> list[dict[str, Any]] | None:
        reply = http.get(
            f"/v1/apps/{flaky_app}/deliveries", params={"limit": 1000}, headers=app_key
        )
        found = reply.json()["deliveries"]
        ok = [d for d in found if d["status"] == "delivered"]
        return found if {d["notification_id"] for d in ok} >= wanted else None

    deliveries = until(all_delivered, "every delivery to the flaky receiver")
    assert {d["notification_id"] for d in deliveries} == wanted
    assert all(d["status"] == "delivered" for d in deliveries)
    assert all(d["attempts"] == FAILS_FIRST + 1 for d in deliveries)

    flaky = receiver.on("/flaky")
    accepted = [r for r in flaky if r.status == 204]
    bodies = [json.loads(r.body) for r in accepted]
    assert sorted(b["notification"]["id"] for b in bodies) == sorted(wanted)  # each once
    assert {b["delivery_id"] for b in bodies} == {d["delivery_id"] for d in deliveries}
    assert all(b["user"] == "discord:1001" and b["app_id"] == flaky_app for b in bodies)
    assert len(flaky) == len(accepted) * (FAILS_FIRST + 1)

    # Each try was signed; the README's check accepts it, and nothing altered or stale.
    verify = readme_verify()
    for got in flaky:
        stamp = got.headers["x-boardwright-timestamp"]
        signed = got.headers["x-boardwright-signature"]
        assert verify(secret, stamp, signed, got.body, now=got.at)
        assert not verify(secret, stamp, signed, got.body + b" ", now=got.at)
        assert not verify("whsec_wrong", stamp, signed, got.body, now=got.at)
        assert not verify(secret, stamp, signed, got.body, now=int(stamp) + 301)
        assert not verify(secret, str(int(stamp) - 1), signed, got.body, now=got.at)
        assert got.headers["x-boardwright-event"] == json.loads(got.body)["notification"]["kind"]
    assert not verify(secret, "not-a-time", "v1=00", b"{}")

    # Bob's app answers 503 every time: each delivery is tried MAX_ATTEMPTS times, then dead.
    bob_notes = notes_of(http, bob)
    assert {n["kind"] for n in bob_notes} >= {"your_turn", "game_over"}

    def all_dead() -> list[dict[str, Any]] | None:
        reply = http.get(
            f"/v1/apps/{down_app}/deliveries",
            params={"status": "dead", "limit": 1000},
            headers={"X-App-Key": down_key},
        )
        found = reply.json()["deliveries"]
        return found if len(found) == len(bob_notes) else None

    dead = until(all_dead, "every delivery to the receiver that is down to be dead")
    assert {d["notification_id"] for d in dead} == {n["id"] for n in bob_notes}
    assert all(d["attempts"] == MAX_ATTEMPTS and d["last_error"] == "HTTP 503" for d in dead)
    time.sleep(0.5)  # nothing more is sent once they are dead
    assert len(receiver.on("/down")) == MAX_ATTEMPTS * len(bob_notes)

    removed = http.delete(
        f"/v1/apps/{flaky_app}/webhooks/{made.json()['webhook_id']}", headers=app_key
    )
    assert removed.status_code == 200 and removed.json()["webhooks"] == [], removed.text
    again = http.delete(
        f"/v1/apps/{flaky_app}/webhooks/{made.json()['webhook_id']}", headers=app_key
    )
    assert again.status_code == 404 and again.json()["code"] == "webhook.not_found"


def test_the_player_stream_says_your_turn_when_it_becomes_the_token_holders_turn(
    notify_stack: Stack, http: httpx.Client
) -> None:
    created = http.post("/v1/tables", json={"game": "freunde", "seats": 2})
    assert created.status_code == 201, created.text
    table_id = created.json()["table_id"]
    seats = {n: token(t) for n, t in enumerate(created.json()["tokens"])}
    choose = random.Random(3)
    version = 1

    def to_act() -> list[int]:
        status = http.get(f"/v1/tables/{table_id}", params={"min_version": version}).json()
        return list(status["status"]["to_act"])

    def move(seat: int) -> int:
        legal = http.get(f"/v1/tables/{table_id}/legal-commands", headers=seats[seat]).json()
        sent = http.post(
            f"/v1/tables/{table_id}/commands",
            json={
                "command_id": f"c{legal['version']}",
                "command": choose.choice(legal["moves"])["command"],
            },
            headers=seats[seat],
        )
        assert sent.status_code == 200, sent.text
        return int(sent.json()["version"])

    for _ in range(50):  # until one seat waits for the other
        acting = to_act()
        if len(acting) == 1:
            break
        version = move(acting[0])
    waiting = 1 - acting[0]
    seen = http.get("/v1/me/notifications", headers=seats[waiting]).json()["last_event_id"]

    messages: queue.Queue[tuple[str, dict[str, Any]]] = queue.Queue()
    connected = threading.Event()

    def listen() -> None:
        with (
            httpx.Client(base_url=notify_stack.url, timeout=60) as client,
            client.stream(
                "GET",
                "/v1/me/notifications/stream",
                headers={**seats[waiting], "Last-Event-ID": seen},
            ) as reply,
        ):
            assert reply.status_code == 200
            connected.set()
            for message in sse_events(reply):
                messages.put(message)
                return

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    assert connected.wait(30)
    for _ in range(50):  # the other seat plays until it is the waiting seat's turn
        acting = to_act()
        if waiting in acting:
            break
        version = move(acting[0])
    else:
        raise AssertionError("the turn never passed")

    kind, note = messages.get(timeout=30)
    assert kind == "your_turn"
    assert (note["table_id"], note["seat"], note["version"]) == (table_id, waiting, version)
    assert note["player"] == http.get("/v1/me/tables", headers=seats[waiting]).json()["player"]
    listener.join(5)


def _newest(http: httpx.Client, headers: dict[str, str]) -> str:
    """The event id of the player's newest notification kept ("0" for none)."""
    last = "0"
    while True:
        page = http.get("/v1/me/notifications", params={"after": last}, headers=headers).json()
        if page["last_event_id"] == last:
            return last
        last = page["last_event_id"]


def _follow(stack: Stack, headers: dict[str, str]) -> queue.Queue[tuple[str, Any]]:
    """A thread reading the player's notification stream into a queue until it ends (then
    ``("closed", None)``), once the stream has answered."""
    messages: queue.Queue[tuple[str, Any]] = queue.Queue()
    connected = threading.Event()

    def listen() -> None:
        with (
            httpx.Client(base_url=stack.url, timeout=60) as client,
            client.stream("GET", "/v1/me/notifications/stream", headers=headers) as reply,
        ):
            assert reply.status_code == 200
            connected.set()
            for message in sse_events(reply):
                messages.put(message)
        messages.put(("closed", None))

    threading.Thread(target=listen, daemon=True).start()
    assert connected.wait(30)
    return messages


def test_an_open_player_stream_ends_with_revoked_once_its_app_or_token_is_revoked(
    notify_stack: Stack, http: httpx.Client
) -> None:
    app_id, key = new_app(notify_stack, "Revoked later")
    ann = http.post("/v1/tables", json={"game": "freunde", "seats": 4, "open": True, "name": "Ann"})
    assert ann.status_code == 201, ann.text
    table_id = ann.json()["table_id"]
    ann_old = token(ann.json()["token"])
    user = as_user(key, "discord:77")
    assert http.post(f"/v1/tables/{table_id}/seats", json={}, headers=user).status_code == 201
    # Notifications come a moment after the change: Ann's of the user's arrival is in
    # before her stream resumes after her newest, so the stream starts with Bob's.
    until(
        lambda: [n for n in notes_of(http, ann_old) if n["kind"] == "seat_joined"],
        "Ann told of the app user's arrival",
    )
    streams = {
        who: _follow(notify_stack, {**headers, "Last-Event-ID": _newest(http, headers)})
        for who, headers in (("app user", user), ("Ann", ann_old))
    }

    # Both streams are live: Bob's arrival reaches both.
    bob = http.post(f"/v1/tables/{table_id}/seats", json={"name": "Bob"})
    assert bob.status_code == 201, bob.text
    for who, messages in streams.items():
        kind, note = messages.get(timeout=30)
        assert (kind, note["data"]["name"]) == ("seat_joined", "Bob"), who

    revoke_app(notify_stack, app_id)
    renewed = http.post(f"/v1/tables/{table_id}/seats/{ann.json()['seat']}/token", headers=ann_old)
    assert renewed.status_code == 200, renewed.text
    carol = http.post(f"/v1/tables/{table_id}/seats", json={"name": "Carol"})
    assert carol.status_code == 201, carol.text

    for who, messages in streams.items():
        kind, data = messages.get(timeout=30)
        assert kind == "revoked" and data["code"] == "auth.invalid", (who, kind, data)
        assert messages.get(timeout=30) == ("closed", None), who
    # Ann's new token reads what the old stream was not sent: Carol's arrival. (Carol
    # fills the table, so the game starts and a your_turn may follow it.)
    deadline = time.monotonic() + 30
    while True:
        kept = http.get("/v1/me/notifications", headers=token(renewed.json()["token"])).json()
        joined = [n["data"]["name"] for n in kept["notifications"] if n["kind"] == "seat_joined"]
        if joined[-1:] == ["Carol"] or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert joined[-2:] == ["Bob", "Carol"]
