"""The whole system as real processes on free loopback ports: one engine service per
game, the projector, the scheduler, the notifier and the gateway, against a Redis the
caller provides.

Used by the end-to-end tests and by ``benchmarks/bench_e2e.py``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Self

import httpx

from services.redis_server import Started, free_port

__all__ = ["Stack", "StackError"]

ROOT = Path(__file__).resolve().parents[2]

# Tests and benchmarks drive one table after another from one address as fast as they can;
# the production defaults would throttle them. A test of the limits sets its own.
GENEROUS_LIMITS = {
    "BW_RATE_LIMIT_ADDRESS": "1000000/minute",
    "BW_RATE_LIMIT_SEAT": "1000000/minute",
    "BW_RATE_LIMIT_CREATE": "1000000/minute",
    "BW_STREAMS_PER_ADDRESS": "100000",
    "BW_MAX_STREAMS": "100000",
    # The tests' webhook receivers listen on loopback.
    "BW_WEBHOOK_ALLOW_LOOPBACK": "1",
}


class StackError(RuntimeError):
    """A process of the stack did not start; carries the tail of its log."""


class Stack(Started):
    """``with Stack(redis_url) as stack: ... stack.url ...``"""

    def __init__(
        self,
        redis_url: str,
        games: tuple[str, ...] = ("freunde",),
        shards: int = 16,
        extra_env: dict[str, str] | None = None,
        log_level: str = "info",
        gateways: int = 1,
        schedulers: int = 1,
    ) -> None:
        self.redis_url = redis_url
        self.games = games
        self.shards = shards
        self.extra_env = {**GENEROUS_LIMITS, **(extra_env or {})}
        self.gateways = gateways
        self.schedulers = schedulers
        self.ports: list[int] = []
        self.log_level = log_level
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self.log_dir = Path(tempfile.mkdtemp(prefix="boardwright-e2e-"))
        self.engine_addrs: dict[str, str] = {}
        self.port = 0

    @property
    def url(self) -> str:
        """The first gateway's base URL."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def urls(self) -> list[str]:
        """Every gateway's base URL (they share Redis and the engine services)."""
        return [f"http://127.0.0.1:{port}" for port in self.ports]

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update(
            REDIS_URL=self.redis_url,
            BW_SHARDS=str(self.shards),
            BW_ENGINE_ADDRS=",".join(f"{g}={a}" for g, a in self.engine_addrs.items()),
            BW_LOG_LEVEL=self.log_level,
            PYTHONUNBUFFERED="1",
        )
        env.update(self.extra_env)
        return env

    def _spawn(self, name: str, *args: str) -> None:
        # The child keeps its own copy of the descriptor; ours closes at once.
        with (self.log_dir / f"{name}.log").open("wb") as log:
            self.processes[name] = subprocess.Popen(
                [sys.executable, *args],
                cwd=ROOT,
                env=self.env(),
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def log_tail(self, name: str, lines: int = 40) -> str:
        path = self.log_dir / f"{name}.log"
        return (
            "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
            if path.exists()
            else ""
        )

    def start(self, timeout_s: float = 60.0) -> Self:
        for game in self.games:
            self.engine_addrs[game] = f"127.0.0.1:{free_port()}"
        for game, addr in self.engine_addrs.items():
            port = addr.rsplit(":", 1)[1]
            self._spawn(f"engine-{game}", "-m", "services.engine", "--game", game, "--port", port)
        self._spawn("projector", "-m", "services.projector")
        for number in range(self.schedulers):
            self._spawn(
                "scheduler" if number == 0 else f"scheduler-{number + 1}",
                "-m",
                "services.scheduler",
            )
        self._spawn("notifier", "-m", "services.notifier")
        self.ports = [free_port() for _ in range(self.gateways)]
        self.port = self.ports[0]
        for number, gateway_port in enumerate(self.ports):
            name = "gateway" if number == 0 else f"gateway-{number + 1}"
            self._spawn(name, "-m", "gateway", "--port", str(gateway_port))
        self._wait_ready(timeout_s)
        return self

    def _wait_ready(self, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        last = ""
        while time.monotonic() < deadline:
            for name, process in self.processes.items():
                if process.poll() is not None:
                    tail = self.log_tail(name)
                    self.stop()
                    raise StackError(f"{name} exited with {process.returncode}:\n{tail}")
            try:
                replies = [httpx.get(f"{url}/readyz", timeout=2.0) for url in self.urls]
                if all(reply.status_code == 200 for reply in replies):
                    return
                last = " ".join(reply.text for reply in replies)
            except httpx.HTTPError as error:
                last = str(error)
            time.sleep(0.1)
        tails = "\n".join(f"--- {n}\n{self.log_tail(n)}" for n in self.processes)
        self.stop()
        raise StackError(f"the stack was not ready within {timeout_s}s ({last})\n{tails}")

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.terminate()
        for process in self.processes.values():
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.processes.clear()
        # A start that failed has already put the logs' tails into its StackError.
        shutil.rmtree(self.log_dir, ignore_errors=True)
