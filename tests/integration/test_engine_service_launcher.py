"""``python -m services.launcher`` (``make run``): starts the stack, reports it, stops it."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

import engines
from services.redis_server import free_port

pytestmark = [pytest.mark.integration, pytest.mark.e2e]

_START_S = 90
_READY_S = 60
# Launches tried before a port taken between ``free_port`` and the bind fails the test.
_BIND_TRIES = 3


def launch(tmp_path: Path) -> subprocess.Popen[str]:
    """The launcher with a private Redis under ``tmp_path`` and free ports; its stderr goes
    to ``tmp_path/launcher.err`` so a failure can show it."""
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(
        BW_ENGINE_PORT=str(free_port(run=len(engines.available()))),
        BW_GATEWAY_PORT=str(free_port()),
        BW_SHARDS="4",
    )
    return subprocess.Popen(
        [sys.executable, "-m", "services.launcher"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=(tmp_path / "launcher.err").open("w"),
        text=True,
    )


def stderr_of(tmp_path: Path) -> str:
    """The launcher's stderr so far (its children log there), for failure messages."""
    path = tmp_path / "launcher.err"
    return path.read_text()[-6000:] if path.exists() else ""


def until_ready(gateway: str, tmp_path: Path) -> httpx.Response:
    """Poll ``/readyz`` as an operator would: on a loaded machine the engines may take a
    while to answer their first health check after the launcher reports them."""
    deadline = time.monotonic() + _READY_S
    while True:
        try:
            ready = httpx.get(f"{gateway}/readyz", timeout=10)
        except httpx.HTTPError as failed:
            reason = repr(failed)
        else:
            if ready.status_code == 200:
                return ready
            reason = ready.text
        if time.monotonic() > deadline:
            raise AssertionError(f"not ready: {reason}\nlauncher stderr:\n{stderr_of(tmp_path)}")
        time.sleep(0.5)


def running_table(launcher: subprocess.Popen[str], tmp_path: Path) -> dict[str, str]:
    """Read the launcher's "what runs where" table; name -> address."""
    assert launcher.stdout is not None
    rows: dict[str, str] = {}
    deadline = time.monotonic() + _START_S
    seen_header = False
    while time.monotonic() < deadline:
        line = launcher.stdout.readline()
        if not line:
            raise AssertionError(
                f"launcher exited with {launcher.wait()} before it was ready; stderr:\n"
                f"{stderr_of(tmp_path)}"
            )
        if line.startswith("boardwright is running"):
            seen_header = True
            continue
        if seen_header and "API docs" in line:
            return rows
        if seen_header:
            name, _, where = line.strip().partition("  ")
            rows[name.strip()] = where.strip()
    raise AssertionError(f"the launcher did not report a running stack:\n{stderr_of(tmp_path)}")


def started(tmp_path: Path) -> tuple[subprocess.Popen[str], dict[str, str]]:
    """The launcher and its "what runs where" table. ``free_port``'s ports are free when
    chosen, and another process (a connection of a parallel test) may take one before the
    stack binds it: as its contract asks, a launch that could not bind is tried again on
    fresh ports."""
    tries = 0
    while True:
        tries += 1
        launcher = launch(tmp_path)
        try:
            return launcher, running_table(launcher, tmp_path)
        except AssertionError:
            stop(launcher)
            if tries == _BIND_TRIES or "Address already in use" not in stderr_of(tmp_path):
                raise


def stop(launcher: subprocess.Popen[str], signum: int = signal.SIGINT) -> int:
    if launcher.poll() is None:
        launcher.send_signal(signum)
    try:
        return launcher.wait(timeout=60)
    finally:
        if launcher.poll() is None:
            launcher.kill()


def test_the_stack_starts_answers_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    """Every game's engine, the projector, the notifier and the gateway run; SIGINT stops
    all, exit 0."""
    launcher, rows = started(tmp_path)
    try:
        assert rows["engine freunde"].startswith("127.0.0.1:")
        assert "(private)" in rows["redis"]
        until_ready(rows["gateway"], tmp_path)
        pid = int(re.sub(r"\D", "", rows["projector"]))
        notifier = int(re.sub(r"\D", "", rows["notifier"]))
    finally:
        code = stop(launcher)
    assert code == 0, stderr_of(tmp_path)
    for stopped in (pid, notifier):
        with pytest.raises(ProcessLookupError):
            os.kill(stopped, 0)
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{rows['gateway']}/healthz", timeout=2)
    assert (tmp_path / ".data" / "redis").is_dir()


def test_a_child_that_dies_stops_the_stack_with_an_error(tmp_path: Path) -> None:
    """When the projector is killed, the launcher stops the rest and exits non-zero."""
    launcher, rows = started(tmp_path)
    try:
        os.kill(int(re.sub(r"\D", "", rows["projector"])), signal.SIGKILL)
        code = launcher.wait(timeout=60)
    finally:
        stop(launcher)
    assert code != 0, stderr_of(tmp_path)
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{rows['gateway']}/healthz", timeout=2)
