"""``boardwright lobby``, ``join`` and ``play`` as a person uses them, in a pseudo-terminal:
the table found in the lobby, a seat taken, the game played to its end by typing move
numbers while the other seat plays through the API."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import httpx
import pexpect
import pytest

from tests.e2e.helpers import run_cli
from tests.e2e.stack import ROOT, Stack

pytestmark = [pytest.mark.e2e]


def _opponent(url: str, table_id: str, token: str, stop: threading.Event) -> None:
    """Seat 0 plays its first legal move whenever it is to act, until the game ends."""
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=url, timeout=30) as http:
        sent = 0
        while not stop.is_set():
            table = http.get(f"/v1/tables/{table_id}", headers=headers).json()
            if table["status"].get("finished"):
                return
            if table["state"] == "started" and 0 in table["status"].get("to_act", []):
                legal = http.get(f"/v1/tables/{table_id}/legal-commands", headers=headers).json()
                if legal["moves"]:
                    http.post(
                        f"/v1/tables/{table_id}/commands",
                        headers=headers,
                        json={
                            "command_id": f"opponent-{sent}",
                            "command": legal["moves"][0]["command"],
                            "expected_version": legal["version"],
                        },
                    )
                    sent += 1
                    continue
            stop.wait(0.1)


def test_a_person_finds_a_table_joins_it_and_plays_it_to_the_end(
    stack: Stack, tmp_path: Path
) -> None:
    opened = httpx.post(
        f"{stack.url}/v1/tables",
        json={
            "game": "freunde",
            "seats": 2,
            "open": True,
            "name": "Host",
            "options": {"round_limit": 1},
        },
        timeout=30,
    ).json()
    table_id = opened["table_id"]
    env = {"BW_URL": stack.url, "COLUMNS": "200", "PATH": "/usr/bin:/bin"}
    env["XDG_CONFIG_HOME"] = str(tmp_path)

    def cli(*args: str) -> str:
        done = run_cli(stack.url, *args, env=env)
        assert done.returncode == 0, done.stderr
        return done.stdout

    for _ in range(100):
        if table_id in cli("lobby", "--game", "freunde"):
            break
    else:
        raise AssertionError("the table never showed in the lobby")
    joined = cli("join", table_id, "--name", "Terminal")
    assert f"seat 1 at table {table_id}" in joined
    assert (tmp_path / "boardwright" / "seats.json").stat().st_mode & 0o777 == 0o600

    stop = threading.Event()
    opponent = threading.Thread(
        target=_opponent, args=(stack.url, table_id, opened["token"], stop), daemon=True
    )
    opponent.start()
    child = pexpect.spawn(
        sys.executable,
        ["-m", "gateway.cli", "play", table_id],
        cwd=str(ROOT),
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 200),
    )
    try:
        moves = 0
        while True:
            seen = child.expect([r"Your move \(1-\d+, q to quit\): ", "Game over", pexpect.EOF])
            if seen == 0:
                assert "Terminal (you)" in child.before
                child.sendline("1")
                moves += 1
            elif seen == 1:
                break
            else:
                raise AssertionError(f"play ended early:\n{child.before}")
        child.expect(pexpect.EOF)
        child.close()
    finally:
        stop.set()
        if child.isalive():
            child.terminate(force=True)
        opponent.join(timeout=30)
    assert child.exitstatus == 0
    assert moves >= 2
    final = httpx.get(f"{stack.url}/v1/tables/{table_id}", timeout=30).json()
    assert final["status"]["finished"] is True


def test_the_cli_says_in_one_line_when_the_gateway_is_not_reachable() -> None:
    for args in (("lobby",), ("play", "0123456789abcdef", "--token", "t"), ("games",)):
        done = run_cli("http://127.0.0.1:9", *args)
        assert done.returncode == 1
        assert "cannot reach the gateway" in done.stderr
        assert "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
