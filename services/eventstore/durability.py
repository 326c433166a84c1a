"""When a write counts as stored: the wait after every event-store script.

Two modes, chosen per deployment with ``BW_DURABILITY``:

``local`` (the default)
    The write is acknowledged once the server that took it holds it. Where the server
    has ``WAITAOF`` (Redis >= 7.2, Valkey) and AOF is on, that means fsynced there
    (``WAITAOF 1 0``); elsewhere it means what the server's ``appendfsync`` promises.
    Replication is asynchronous: a failover to a replica that had not yet received the
    write loses it.

``replicas``
    The write is acknowledged only once ``BW_DURABILITY_REPLICAS`` replicas of that
    server hold it too (``WAIT <n>``), and, where the server has ``WAITAOF``, once the
    server itself has it fsynced (``WAITAOF 1 0``). A failover that promotes one of
    those replicas keeps every acknowledged write. The replicas' own fsync is not
    waited for (``WAITAOF 1 <n>``): a replica reports it only with its once-a-second
    acknowledgement, which made appends on Valkey 8 take up to a second; a replica
    fsyncs by its own ``appendfsync``.

A wait must run on the connection that wrote, right after the write: ``WAIT`` and
``WAITAOF`` count up to that connection's last write. A script that wrote nothing (a
repeated command id, a conflict) would leave that mark behind the write it reports,
which may have been made by another connection whose own wait timed out. So every wait
is preceded by a tiny write of its own (``SET bw:{s<n>}:durable``, same slot): the wait
then covers everything the server had written before, the reported outcome included.

A write the server applied but whose wait did not succeed in time raises
:class:`~services.eventstore.model.NotDurable`: it was *not* acknowledged, and sending the
same command id again is safe (it returns the stored outcome once that is durable).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from redis.asyncio.cluster import RedisCluster
from redis.exceptions import AskError, MovedError, NoScriptError, TryAgainError

from services.eventstore.connection import AnyRedis
from services.eventstore.model import NotDurable

__all__ = [
    "Durability",
    "DurabilityMode",
    "Waits",
    "server_supports_waitaof",
    "waits_for",
]

# How long the marker written before each wait lives; any value above one wait will do.
_MARKER_TTL_MS = 60_000
# Slot-map refreshes before a write that keeps being redirected gives up.
_REDIRECTS = 3


class DurabilityMode(StrEnum):
    """See the module docstring."""

    LOCAL = "local"
    REPLICAS = "replicas"


@dataclass(frozen=True, slots=True)
class Durability:
    """The deployment's choice: the mode, how many replicas, how long to wait for them."""

    mode: DurabilityMode = DurabilityMode.LOCAL
    replicas: int = 1
    timeout_ms: int = 2000

    def __post_init__(self) -> None:
        if self.replicas < 1:
            raise ValueError("the replicas mode waits for at least one replica")
        if self.timeout_ms < 1:
            raise ValueError("a wait needs a positive timeout")


def _version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(".") if part.isdigit())


async def server_supports_waitaof(redis: AnyRedis) -> bool:
    """Whether ``WAITAOF 1 0`` can succeed: Redis >= 7.2 (Valkey reports 7.2.4) with AOF on."""
    server = await redis.info("server")
    version = _version_tuple(str(server.get("redis_version", "0")))
    if version < (7, 2):
        return False
    persistence = await redis.info("persistence")
    return str(persistence.get("aof_enabled", 0)) == "1"


@dataclass(frozen=True, slots=True)
class Waits:
    """The wait commands one deployment runs after each write, and what each must reach."""

    commands: tuple[tuple[Any, ...], ...]
    timeout_ms: int

    def __bool__(self) -> bool:
        return bool(self.commands)

    def check(self, table_id: str, replies: Sequence[Any]) -> None:
        """Raise :class:`NotDurable` unless every wait reached its count."""
        for command, reply in zip(self.commands, replies, strict=True):
            if isinstance(reply, Exception):
                raise NotDurable(table_id, self.timeout_ms, f"{command[0]} failed: {reply}")
            if command[0] == "WAIT":
                wanted = int(command[1])
                if int(reply) < wanted:
                    raise NotDurable(
                        table_id, self.timeout_ms, f"{reply} of {wanted} replicas hold it"
                    )
            else:
                local, replicas = int(command[1]), int(command[2])
                if int(reply[0]) < local or int(reply[1]) < replicas:
                    raise NotDurable(
                        table_id,
                        self.timeout_ms,
                        f"fsynced locally {reply[0]}/{local}, by replicas {reply[1]}/{replicas}",
                    )

    async def run(
        self,
        redis: AnyRedis,
        marker: str,
        table_id: str,
        command: Sequence[Any] = (),
        script: Any = None,
    ) -> Any:
        """Run ``command`` (if any), then the marker write and the waits, on one connection.

        Returns the command's reply. ``script`` is the source of an ``EVALSHA`` command,
        loaded again if the server lost it (a restart, a failover).
        """
        for _ in range(_REDIRECTS + 1):
            pipe: Any = redis.pipeline(transaction=False)
            if command:
                # Through execute_command: redis-py refuses pipe.evalsha() on cluster
                # pipelines, but one EVALSHA whose keys share a slot is as safe there.
                pipe.execute_command(*command)
            pipe.execute_command("SET", marker, b"1", "PX", _MARKER_TTL_MS)
            target: dict[str, Any] = {}
            if isinstance(redis, RedisCluster):
                # The node that owns the marker's slot is the node the command went to.
                target = {"target_nodes": redis.get_node_from_key(marker)}
            for wait in self.commands:
                pipe.execute_command(*wait, self.timeout_ms, **target)
            if isinstance(redis, RedisCluster):
                # A redirected command would be sent again on another connection, where
                # these waits would not cover it: refresh the slot map and start over.
                replies = await pipe.execute(raise_on_error=False, allow_redirections=False)
            else:
                replies = await pipe.execute(raise_on_error=False)
            reply = replies[0] if command else None
            if isinstance(reply, NoScriptError) and script is not None:
                await redis.script_load(script)
                continue
            if isinstance(redis, RedisCluster) and any(
                isinstance(r, MovedError | AskError | TryAgainError) for r in replies
            ):
                await redis.nodes_manager.initialize()
                continue
            if isinstance(reply, Exception):
                raise reply
            marked = replies[1 if command else 0]
            if isinstance(marked, Exception):
                raise marked
            self.check(table_id, replies[2 if command else 1 :])
            return reply
        raise NotDurable(table_id, self.timeout_ms, "the write kept being redirected")


async def waits_for(redis: AnyRedis, durability: Durability, waitaof: bool | None) -> Waits:
    """The waits ``durability`` needs on this server (``waitaof`` None: ask the server)."""
    if waitaof is None:
        waitaof = await server_supports_waitaof(redis)
    commands: list[tuple[Any, ...]] = []
    if durability.mode is DurabilityMode.REPLICAS:
        commands.append(("WAIT", durability.replicas))
    if waitaof:
        commands.append(("WAITAOF", 1, 0))
    return Waits(tuple(commands), durability.timeout_ms)
