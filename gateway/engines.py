"""The gateway's view of the games: gRPC stubs to each engine service, and the rules
module of each game (for its Command type, its options and local redaction).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

import engines
from engines.core.contract import Engine
from gateway.batching import CommandBatcher
from gateway.errors import ApiError
from proto import engine_pb2_grpc

__all__ = ["GameBackend", "GameBackends"]


@dataclass(frozen=True, slots=True)
class GameBackend:
    """One game: its rules, the stub of its engine service and the batcher its commands
    go through."""

    game: str
    address: str
    engine: Engine[Any, Any, Any]
    channel: grpc.aio.Channel
    stub: engine_pb2_grpc.EngineStub
    health: health_pb2_grpc.HealthStub
    commands: CommandBatcher


class GameBackends:
    """Every game this gateway offers, keyed by name."""

    def __init__(self, addrs: dict[str, str], timeout: float) -> None:
        self.timeout = timeout
        self._games: dict[str, GameBackend] = {}
        for game, address in addrs.items():
            try:
                engine = engines.get(game)
            except engines.UnknownGame:
                continue
            channel = grpc.aio.insecure_channel(address)
            stub = engine_pb2_grpc.EngineStub(channel)
            self._games[game] = GameBackend(
                game=game,
                address=address,
                engine=engine,
                channel=channel,
                stub=stub,
                health=health_pb2_grpc.HealthStub(channel),
                commands=CommandBatcher(stub),
            )

    def names(self) -> list[str]:
        return list(self._games)

    def all(self) -> list[GameBackend]:
        return list(self._games.values())

    def get(self, game: str) -> GameBackend:
        """The backend of ``game``; 404 ``game.not_found`` when it is not offered here."""
        backend = self._games.get(game)
        if backend is None:
            raise ApiError(
                404,
                "game.not_found",
                f"No game {game!r} here.",
                {"games": ",".join(self._games)},
            )
        return backend

    async def serving(self, backend: GameBackend) -> tuple[bool, str]:
        """Whether the engine service answers its standard health check."""
        try:
            reply = await backend.health.Check(
                health_pb2.HealthCheckRequest(service=""), timeout=min(self.timeout, 2.0)
            )
        except grpc.aio.AioRpcError as failed:
            return False, failed.code().name
        ok = reply.status == health_pb2.HealthCheckResponse.SERVING
        return ok, health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)

    async def close(self) -> None:
        for backend in self._games.values():
            await backend.channel.close()
