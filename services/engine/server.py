"""Run one game's engine service: gRPC (engine, health, reflection) and the command consumer.

``serve()`` starts ``grpc.aio`` on ``host:port``, marks the service SERVING once Redis
answers, runs the async-path consumer beside it, and on SIGTERM/SIGINT marks itself
NOT_SERVING, stops taking calls, lets running calls finish within a grace period, stops
the consumer after its current command and closes Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

import engines
from proto import engine_pb2, engine_pb2_grpc
from services.config import Settings
from services.engine.consumer import CommandConsumer, ConsumerSettings
from services.engine.host import TableHost
from services.engine.servicer import EngineServicer
from services.eventstore import RECONNECT_RETRY, EventStore, connect, is_redis_trouble
from services.logs import get_logger
from services.shutdown import stop_on_signals

__all__ = ["EngineService", "serve"]

SERVICE_NAME = engine_pb2.DESCRIPTOR.services_by_name["Engine"].full_name
_GRACE_S = 5.0

log = get_logger("engine.server")


@dataclass
class EngineService:
    """A started service: its gRPC server, bound port and consumer task."""

    server: grpc.aio.Server
    port: int
    host: TableHost
    health: health.aio.HealthServicer
    consumer: CommandConsumer | None
    stop_consuming: asyncio.Event = field(default_factory=asyncio.Event)
    consumer_task: asyncio.Task[None] | None = None
    watch_task: asyncio.Task[None] | None = None

    async def stop(self, grace: float = _GRACE_S) -> None:
        """Refuse new calls, finish running ones, stop the consumer, close Redis."""
        if self.watch_task is not None:
            self.watch_task.cancel()
        await self.health.enter_graceful_shutdown()
        self.stop_consuming.set()
        await self.server.stop(grace)
        if self.consumer_task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(self.consumer_task, timeout=grace + 5)
        await self.host.store.redis.aclose()


async def start(
    game: str,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    settings: Settings | None = None,
    consume: bool = True,
    consumer_settings: ConsumerSettings | None = None,
) -> EngineService:
    """Start the service for ``game`` (port 0: any free one, see ``.port``)."""
    settings = settings or Settings()
    if not settings.redis_url:
        raise RuntimeError("REDIS_URL is not set")
    redis = await connect(settings.redis_url, retry=RECONNECT_RETRY)
    await redis.ping()
    store = EventStore(redis, shards=settings.shards, durability=settings.durability)
    table_host = TableHost(
        store,
        engines.get(game),
        snapshot_every=settings.snapshot_every,
        conflict_retries=settings.conflict_retries,
        cache_size=settings.tables_held,
    )
    server = grpc.aio.server()
    engine_pb2_grpc.add_EngineServicer_to_server(EngineServicer(table_host), server)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), server
    )
    bound = server.add_insecure_port(f"{host}:{port}")
    if bound == 0:
        raise RuntimeError(f"cannot listen on {host}:{port}")
    await server.start()
    for name in ("", SERVICE_NAME):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    consumer = None
    if consume:
        consumer = CommandConsumer(
            redis,
            table_host,
            settings.shards,
            consumer_settings
            or ConsumerSettings(
                lease_ms=settings.lease_ms,
                max_deliveries=settings.max_deliveries,
                retry_delay_ms=settings.retry_delay_ms,
                dead_letters_max=settings.dead_letters_max,
            ),
        )
    service = EngineService(server, bound, table_host, health_servicer, consumer)
    service.watch_task = asyncio.create_task(
        _watch_redis(redis, health_servicer, settings.health_every_s), name="redis-watch"
    )
    if consumer is not None:
        service.consumer_task = asyncio.create_task(
            _consume_forever(consumer, service.stop_consuming), name="command-consumer"
        )
    log.info("engine.listening", game=game, address=f"{host}:{bound}", shards=settings.shards)
    return service


async def _watch_redis(redis: Any, servicer: health.aio.HealthServicer, every_s: float) -> None:
    """Report the Engine service NOT_SERVING while Redis does not answer.

    Only the named service flips: the overall status ("") stays SERVING, so a liveness
    probe does not restart a process that would not fare better after a restart, while a
    readiness probe for ``boardwright.v1.Engine`` takes it out of rotation.
    """
    serving = True
    while True:
        await asyncio.sleep(every_s)
        try:
            await asyncio.wait_for(redis.ping(), timeout=every_s)
            answers = True
        except Exception as trouble:
            # The wait_for's TimeoutError is an OSError: a Redis that does not answer.
            if not is_redis_trouble(trouble):
                raise
            answers = False
        if answers != serving:
            serving = answers
            status = health_pb2.HealthCheckResponse.SERVING
            if not serving:
                status = health_pb2.HealthCheckResponse.NOT_SERVING
            await servicer.set(SERVICE_NAME, status)
            log.warning("engine.redis_reachable" if serving else "engine.redis_unreachable")


async def _consume_forever(consumer: CommandConsumer, stop: asyncio.Event) -> None:
    """Keep the consumer running through Redis hiccups; a bug in one round is logged."""
    while not stop.is_set():
        try:
            await consumer.run(stop)
        except asyncio.CancelledError:
            raise
        except Exception as trouble:
            if is_redis_trouble(trouble):
                # Redis restarting, failing over or stopped first on Ctrl-C: wait and go on.
                log.warning("consumer.redis_unavailable", error=str(trouble))
            else:
                log.exception("consumer.crashed")
            await asyncio.sleep(1)


async def serve(game: str, host: str, port: int, settings: Settings | None = None) -> None:
    """Run until SIGTERM or SIGINT, then shut down gracefully."""
    service = await start(game, host=host, port=port, settings=settings)
    stopping = stop_on_signals()
    waiters: list[asyncio.Future[Any]] = [asyncio.create_task(stopping.wait())]
    if service.consumer_task is not None:
        waiters.append(service.consumer_task)
    await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
    log.info("engine.stopping", game=game)
    await service.stop()
    log.info("engine.stopped", game=game)
