"""Turn clocks, resignations and bots in seats, with every process running: the engine
service, the projector, two scheduler replicas and the gateway."""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import grpc
import httpx
import pytest

import engines
from proto import common_pb2, engine_pb2_grpc
from tests.e2e.conftest import running_stack
from tests.e2e.helpers import finished_and_audited, run_cli
from tests.e2e.stack import Stack

T = TypeVar("T")
GAME = "freunde"
WAIT_S = 60.0


@pytest.fixture(scope="module")
def clock_stack(redis_url: str) -> Iterator[Stack]:
    """A stack of its own: two scheduler replicas, and their logs read by the tests."""
    yield from running_stack(redis_url, (GAME,), schedulers=2)


@pytest.fixture
def http(clock_stack: Stack) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=clock_stack.url, timeout=30) as client:
        yield client


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def create(http: httpx.Client, seats: int = 2, **body: Any) -> dict[str, Any]:
    reply = http.post("/v1/tables", json={"game": GAME, "seats": seats, **body})
    assert reply.status_code == 201, reply.text
    created: dict[str, Any] = reply.json()
    return created


def log_of(http: httpx.Client, table_id: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    while True:
        after = found[-1]["version"] if found else 0
        page = http.get(f"/v1/tables/{table_id}/events", params={"after": after}).json()
        found += page["events"]
        if not page["events"] or found[-1]["version"] >= page["head"]:
            return found


def status_of(http: httpx.Client, table_id: str, at_least: int = 0) -> dict[str, Any]:
    reply = http.get(f"/v1/tables/{table_id}", params={"min_version": at_least})
    assert reply.status_code == 200, reply.text
    status: dict[str, Any] = reply.json()["status"]
    return status


def wait_for(what: str, probe: Callable[[], T | None]) -> T:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        found = probe()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"not within {WAIT_S} s: {what}")


def controls(log: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [event for event in log if (event.get("control") or {}).get(kind) is not None]


def first_move(http: httpx.Client, table_id: str, token: str) -> dict[str, Any]:
    legal = http.get(f"/v1/tables/{table_id}/legal-commands", headers=bearer(token)).json()
    command: dict[str, Any] = legal["commands"][0]
    return command


def send(
    http: httpx.Client,
    table_id: str,
    token: str,
    command_id: str,
    command: dict[str, Any] | None = None,
) -> httpx.Response:
    """``command`` (else the seat's first legal command) as the seat of ``token``."""
    command = command or first_move(http, table_id, token)
    return http.post(
        f"/v1/tables/{table_id}/commands",
        headers=bearer(token),
        json={"command_id": command_id, "command": command},
    )


def audited(http: httpx.Client, table_id: str) -> dict[str, Any]:
    audit: dict[str, Any] = http.get(f"/v1/tables/{table_id}/audit").json()
    assert audit["ok"], audit
    return audit


def test_a_turn_clock_runs_out_and_the_bot_plays_the_turn(http: httpx.Client) -> None:
    table = create(http, clock={"turn_seconds": 1, "on_timeout": "bot"})["table_id"]

    def bot_played() -> list[dict[str, Any]] | None:
        log = log_of(http, table)
        timed = controls(log, "turn_timed_out")
        if not timed:
            return None
        seat = timed[0]["control"]["turn_timed_out"]["seat"]
        later = [e for e in log if e["version"] > timed[0]["version"] and e["seat"] == seat]
        return log if any(e["command_id"].startswith("bw:play_bot:") for e in later) else None

    log = wait_for("a turn timed out and its bot played", bot_played)
    timed = controls(log, "turn_timed_out")[0]
    out = timed["control"]["turn_timed_out"]
    assert out["then"] == "bot" and timed["time_ms"] >= out["deadline_ms"]
    assert timed["text"] == f"Seat {out['seat']}'s time ran out: a bot plays the turn"
    played = next(e for e in log if e["command_id"].startswith("bw:play_bot:"))
    assert played["event"] is not None and played["seat"] == out["seat"]
    # Replay and audit of the timed-out table stay deterministic.
    audit = audited(http, table)
    checks = {check["name"]: check["ok"] for check in audit["checks"]}
    assert checks["timeouts"] and checks["hash chain"] and checks["events"]
    replayed = http.get(f"/v1/tables/{table}/replay", params={"at": played["version"]})
    assert replayed.status_code == 200, replayed.text


def test_a_forfeit_on_time_ends_the_game_and_says_why(http: httpx.Client) -> None:
    created = create(http, clock={"turn_seconds": 1, "on_timeout": "forfeit"})
    table, tokens = created["table_id"], created["tokens"]
    seat = status_of(http, table, created["version"])["to_act"][0]
    status = wait_for("the table ends", lambda: (s := status_of(http, table))["finished"] and s)
    assert status["end"] == {"reason": "forfeited", "seat": seat}
    assert status["winners"] == [1 - seat] and status["left"] == [seat] and status["to_act"] == []
    refused = send(http, table, tokens[1 - seat], "late", {"draw_plots": {}})
    assert refused.status_code == 422 and refused.json()["code"] == "game.over"
    log = log_of(http, table)
    assert [e["control"] for e in log if e.get("control")] == [
        {
            "turn_timed_out": {
                "seat": seat,
                "deadline_ms": log[0]["time_ms"] + 1000,
                "then": "forfeit",
            }
        },
        {"table_finished": {"reason": "forfeited", "seat": seat}},
    ]
    audit = audited(http, table)
    exported = http.get(f"/v1/tables/{table}/export").text
    version, commitment = log[-1]["version"], created["seed_commitment"]
    finished_and_audited(engines.get(GAME), audit, exported, version, commitment)


def test_a_seat_that_moves_before_its_deadline_is_not_timed_out(
    http: httpx.Client, clock_stack: Stack
) -> None:
    """The timeout the scheduler would send for the old version arrives late (after the
    deadline passed) and is refused: the seat moved in time."""
    created = create(http, clock={"turn_seconds": 2, "on_timeout": "forfeit"})
    table, tokens = created["table_id"], created["tokens"]
    before = status_of(http, table, created["version"])
    seat = before["to_act"][0]
    deadline = before["clock"]["deadlines"][str(seat)]
    moved = send(http, table, tokens[seat], "in-time")
    assert moved.status_code == 200, moved.text
    time.sleep(max(0.0, deadline / 1000 - time.time()) + 0.2)
    late = common_pb2.CommandEnvelope(
        table_id=table,
        command_id=f"bw:time_out:{before['version']}",
        seat=seat,
        control=common_pb2.TableControl(
            time_out=common_pb2.TimeOut(version=before["version"], deadline_ms=deadline)
        ),
    )
    with grpc.insecure_channel(clock_stack.engine_addrs[GAME]) as channel:
        reply = engine_pb2_grpc.EngineStub(channel).Execute(late, timeout=10)
    assert reply.WhichOneof("result") == "rejected"
    assert reply.rejected.code == "clock.stale"
    timed = controls(log_of(http, table), "turn_timed_out")
    assert all(e["control"]["turn_timed_out"]["deadline_ms"] != deadline for e in timed)


def test_two_scheduler_replicas_fire_each_timeout_once(
    http: httpx.Client, clock_stack: Stack
) -> None:
    tables = [
        create(http, clock={"turn_seconds": 1, "on_timeout": "forfeit"})["table_id"]
        for _ in range(6)
    ]
    for table in tables:
        wait_for(f"{table} ends on time", lambda t=table: status_of(http, t)["finished"])  # type: ignore[misc]
        assert len(controls(log_of(http, table), "turn_timed_out")) == 1

    def fired_timeouts() -> tuple[Counter[tuple[str, str]], Counter[str]] | None:
        """Each replica's log of what it fired (a replica may log a moment after the
        engine applied what it fired)."""
        fired: Counter[tuple[str, str]] = Counter()
        by_replica: Counter[str] = Counter()
        for name in ("scheduler", "scheduler-2"):
            for line in (clock_stack.log_dir / f"{name}.log").read_text().splitlines():
                entry = json.loads(line) if line.startswith("{") else {}
                command_id = str(entry.get("command_id", ""))
                timeout = command_id.startswith("bw:time_out:")
                if (
                    entry.get("event") == "due.fired"
                    and entry.get("table_id") in tables
                    and timeout
                ):
                    fired[(entry["table_id"], command_id)] += 1
                    by_replica[name] += 1
        return (fired, by_replica) if {t for t, _ in fired} == set(tables) else None

    fired, by_replica = wait_for("every timeout in the schedulers' logs", fired_timeouts)
    assert len(fired) == len(tables) and set(fired.values()) == {1}, fired
    print(f"timeouts fired per replica: {dict(by_replica)}")


def test_resign_over_http_ends_a_two_seat_table(http: httpx.Client, clock_stack: Stack) -> None:
    created = create(http)
    table, tokens = created["table_id"], created["tokens"]
    reply = http.post(f"/v1/tables/{table}/resign", headers=bearer(tokens[1]))
    assert reply.status_code == 200, reply.text
    events = reply.json()["events"]
    assert [e["text"] for e in events[:2]] == [
        "Seat 1 resigns: the game ends",
        "The table ends: seat 1 resigned",
    ]
    assert events[-1]["seed_revealed"]
    again = http.post(f"/v1/tables/{table}/resign", headers=bearer(tokens[1]))
    assert again.status_code == 200 and again.json()["duplicate"]
    status = wait_for(
        "the status says why", lambda: (s := status_of(http, table))["finished"] and s
    )
    assert status["end"] == {"reason": "resigned", "seat": 1} and status["winners"] == [0]
    assert send(http, table, tokens[0], "after", {"draw_plots": {}}).json()["code"] == "game.over"
    nobody = http.post(f"/v1/tables/{table}/resign")
    assert nobody.status_code == 401
    audit = audited(http, table)
    assert audit["reexecution_checked"] and audit["reexecution_ok"]
    # The CLI says the same for a table that is over.
    cli = run_cli(clock_stack.url, "resign", table, "--token", tokens[0])
    assert cli.returncode == 1 and "game.over" in cli.stderr


def test_with_three_seats_a_bot_takes_over_the_seat_that_resigned(http: httpx.Client) -> None:
    created = create(http, seats=3)
    table, tokens = created["table_id"], created["tokens"]
    to_act = status_of(http, table)["to_act"][0]
    reply = http.post(f"/v1/tables/{table}/resign", headers=bearer(tokens[to_act]))
    assert reply.status_code == 200, reply.text
    assert reply.json()["events"][0]["control"] == {
        "seat_resigned": {"seat": to_act, "then": "bot"}
    }

    def bot_moved() -> bool:
        return any(
            e["command_id"].startswith("bw:play_bot:") and e["seat"] == to_act
            for e in log_of(http, table)
        )

    wait_for("the bot plays the seat that resigned", bot_moved)
    refused = http.post(
        f"/v1/tables/{table}/commands",
        headers=bearer(tokens[to_act]),
        json={"command_id": "mine", "command": {"end_turn": {}}},
    )
    assert refused.status_code == 422 and refused.json()["code"] == "seat.left"
    legal = http.get(f"/v1/tables/{table}/legal-commands", headers=bearer(tokens[to_act]))
    assert legal.json()["commands"] == []
    assert not status_of(http, table)["finished"]
    audited(http, table)


def test_the_host_starts_an_open_table_with_bots_and_they_play(http: httpx.Client) -> None:
    opened = create(http, seats=3, open=True, name="Host")
    table, host = opened["table_id"], opened["token"]
    started = http.post(f"/v1/tables/{table}/start", headers=bearer(host), json={"bots": "random"})
    assert started.status_code == 200, started.text
    played = 0
    for _ in range(400):
        log = log_of(http, table)
        bots = {e["seat"] for e in log if e["command_id"].startswith("bw:play_bot:")}
        if bots == {1, 2} and played:
            break
        legal = http.get(f"/v1/tables/{table}/legal-commands", headers=bearer(host)).json()
        if legal["commands"]:
            # The host's turn: the bots cannot move before it does.
            moved = send(http, table, host, f"host-{legal['version']}", legal["commands"][0])
            assert moved.status_code == 200, moved.text
            played += 1
        else:
            time.sleep(0.1)
    else:
        raise AssertionError("the bots in seats 1 and 2 never played")
    assert status_of(http, table)["bots"] == [1, 2]
    audited(http, table)


def test_the_cli_opens_a_clocked_table_and_resigns(http: httpx.Client, clock_stack: Stack) -> None:
    made = run_cli(clock_stack.url, "create", GAME, "--turn-seconds", "30", "--on-timeout", "bot")
    assert made.returncode == 0, made.stdout + made.stderr
    lines = made.stdout.splitlines()
    table = lines[0].split()[1]
    token = next(line.split()[-1] for line in lines if line.startswith("seat 1:"))
    clock = status_of(http, table)["clock"]
    assert (clock["turn_seconds"], clock["total_seconds"], clock["on_timeout"]) == (30, 0, "bot")
    resigned = run_cli(clock_stack.url, "resign", table, "--token", token)
    assert resigned.returncode == 0, resigned.stdout + resigned.stderr
    assert "Seat 1 resigns: the game ends" in resigned.stdout
