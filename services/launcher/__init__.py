"""The local launcher behind ``make run``: Redis, one engine service per game, projector,
scheduler, notifier, gateway, and the Discord bot when ``DISCORD_TOKEN`` is set.

Redis is ``REDIS_URL`` when set, else a private server with its data under
``.data/redis`` (kept between runs). Engine services listen on consecutive ports from
``BW_ENGINE_PORT`` (50051), one per game in ``engines.available()``; the gateway on
``BW_GATEWAY_HOST:BW_GATEWAY_PORT`` (127.0.0.1:8000); the Discord bot on
``BW_DISCORD_HOST:BW_DISCORD_PORT`` (127.0.0.1:8100), talking to that gateway. The
children run in their own sessions, so a Ctrl-C reaches only the launcher, which then
stops them in order: the Discord bot, gateway, notifier, scheduler, projector, engines, and Redis
last. If any child dies on its own, the launcher stops the others and exits non-zero.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import httpx
from grpc_health.v1 import health_pb2, health_pb2_grpc

import engines
from services.config import Settings, format_engine_addrs
from services.discord.settings import DiscordSettings
from services.redis_server import RedisServer
from services.shutdown import stop_on_signals

__all__ = ["Child", "Launcher", "main"]

_READY_TIMEOUT_S = 60.0
_STOP_GRACE_S = 10.0
DATA_DIR = Path(".data") / "redis"


@dataclass
class Child:
    """One process the launcher runs, and how to tell it is ready."""

    name: str
    argv: list[str]
    address: str
    kind: str  # "grpc", "http" or "process"
    process: asyncio.subprocess.Process | None = None
    ready: bool = False

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None


@dataclass
class Launcher:
    """Starts, watches and stops the stack; :meth:`run` is the whole life of ``make run``."""

    settings: Settings
    data_dir: Path = DATA_DIR
    children: list[Child] = field(default_factory=list)
    redis_url: str = ""
    redis_server: RedisServer | None = None

    def plan(self, redis_url: str) -> tuple[list[Child], dict[str, str]]:
        """The children to start and the environment they share."""
        settings = self.settings
        games = engines.available()
        addrs = {
            game: f"{settings.engine_host}:{settings.engine_base_port + i}"
            for i, game in enumerate(games)
        }
        python = sys.executable
        children = [
            Child(
                f"engine {game}",
                [
                    python,
                    "-m",
                    "services.engine",
                    "--game",
                    game,
                    "--host",
                    settings.engine_host,
                    "--port",
                    addr.rsplit(":", 1)[1],
                ],
                addr,
                "grpc",
            )
            for game, addr in addrs.items()
        ]
        children.append(Child("projector", [python, "-m", "services.projector"], "", "process"))
        children.append(Child("scheduler", [python, "-m", "services.scheduler"], "", "process"))
        children.append(Child("notifier", [python, "-m", "services.notifier"], "", "process"))
        gateway = f"{settings.gateway_host}:{settings.gateway_port}"
        children.append(
            Child(
                "gateway",
                [
                    python,
                    "-m",
                    "gateway",
                    "--host",
                    settings.gateway_host,
                    "--port",
                    str(settings.gateway_port),
                ],
                f"http://{gateway}",
                "http",
            )
        )
        discord = DiscordSettings()
        if discord.token:
            children.append(
                Child(
                    "discord bot",
                    [python, "-m", "services.discord"],
                    f"http://{discord.host}:{discord.port}",
                    "http",
                )
            )
        env = dict(os.environ)
        env.update(
            {
                "REDIS_URL": redis_url,
                "BW_SHARDS": str(settings.shards),
                "BW_ENGINE_ADDRS": format_engine_addrs(addrs),
                "BW_URL": f"http://{gateway}",
                "PYTHONUNBUFFERED": "1",
            }
        )
        return children, env

    async def run(self) -> int:
        """Start everything, wait for a signal or a death, stop everything; the exit code."""
        stop = stop_on_signals()
        try:
            self.redis_url = self._redis()
            self.children, env = self.plan(self.redis_url)
            for child in self.children:
                child.process = await asyncio.create_subprocess_exec(
                    *child.argv, env=env, start_new_session=True, stdin=asyncio.subprocess.DEVNULL
                )
            if not await self._wait_ready(stop):
                return 0 if stop.is_set() else 1
            self._print_table()
            dead = await self._watch(stop)
            if dead is not None:
                code = dead.process.returncode if dead.process else None
                print(
                    f"boardwright: {dead.name} exited with {code}; stopping the rest",
                    file=sys.stderr,
                    flush=True,
                )
                return 1
            return 0
        finally:
            await self._stop_children()
            if self.redis_server is not None:
                self.redis_server.stop()
            print("boardwright: stopped", flush=True)

    def _redis(self) -> str:
        if self.settings.redis_url:
            return self.settings.redis_url
        self.redis_server = RedisServer(data_dir=self.data_dir.resolve()).start()
        return self.redis_server.url

    async def _wait_ready(self, stop: asyncio.Event) -> bool:
        deadline = time.monotonic() + _READY_TIMEOUT_S
        while time.monotonic() < deadline and not stop.is_set():
            for child in self.children:
                if not child.running:
                    print(f"boardwright: {child.name} exited while starting", file=sys.stderr)
                    return False
                if not child.ready:
                    child.ready = await _is_ready(child)
            if all(child.ready for child in self.children):
                return True
            await asyncio.sleep(0.2)
        if not stop.is_set():
            waiting = ", ".join(c.name for c in self.children if not c.ready)
            print(
                f"boardwright: not ready after {_READY_TIMEOUT_S:.0f} s: {waiting}", file=sys.stderr
            )
        return False

    async def _watch(self, stop: asyncio.Event) -> Child | None:
        """Block until a signal (None) or until a child exits (that child)."""
        waits: dict[asyncio.Future[Any], Child] = {
            asyncio.ensure_future(child.process.wait()): child
            for child in self.children
            if child.process is not None
        }
        stopper = asyncio.ensure_future(stop.wait())
        redis = asyncio.ensure_future(self._redis_exit())
        watched = [stopper, redis, *waits]
        done, _ = await asyncio.wait(watched, return_when=asyncio.FIRST_COMPLETED)
        for task in watched:
            if task not in done:
                task.cancel()
        if stopper in done:
            return None
        # A Ctrl-C reaches the private Redis too; give our own signal handler its turn
        # before calling that a failure.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=0.5)
        if stop.is_set():
            return None
        if redis in done:
            return Child("redis", [], self.redis_url, "process")
        return next(waits[task] for task in done if task in waits)

    async def _redis_exit(self) -> None:
        """Return when the private Redis has exited; never, for an outside one."""
        if self.redis_server is None:
            await asyncio.Event().wait()
            return
        while self.redis_server.running:
            await asyncio.sleep(0.5)

    async def _stop_children(self) -> None:
        for child in reversed(self.children):
            process = child.process
            if process is None or process.returncode is not None:
                continue
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(process.wait(), timeout=_STOP_GRACE_S)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()

    def _print_table(self) -> None:
        rows = [("redis", self.redis_url + ("" if self.settings.redis_url else "  (private)"))]
        rows += [
            (child.name, child.address or f"pid {_child_pid(child)}") for child in self.children
        ]
        width = max(len(name) for name, _ in rows)
        print("boardwright is running:", flush=True)
        for name, where in rows:
            print(f"  {name:<{width}}  {where}", flush=True)
        gateway = next(child.address for child in self.children if child.name == "gateway")
        print(f"  API docs: {gateway}/docs    Ctrl-C stops everything", flush=True)


def _child_pid(child: Child) -> int:
    return child.process.pid if child.process is not None else 0


async def _is_ready(child: Child) -> bool:
    if child.kind == "grpc":
        return await _grpc_serving(child.address)
    if child.kind == "http":
        return await _http_ok(f"{child.address}/healthz")
    return child.running


async def _grpc_serving(address: str) -> bool:
    async with grpc.aio.insecure_channel(address) as channel:
        try:
            reply = await health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=""), timeout=1.0
            )
        except grpc.aio.AioRpcError:
            return False
    return bool(reply.status == health_pb2.HealthCheckResponse.SERVING)


async def _http_ok(url: str) -> bool:
    async with httpx.AsyncClient(timeout=1.0) as client:
        try:
            response = await client.get(url)
        except httpx.HTTPError:
            return False
    return response.status_code == 200


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m services.launcher``: run the whole stack until Ctrl-C."""
    del argv
    return asyncio.run(Launcher(Settings()).run())
