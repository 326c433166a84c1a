"""Probes and metrics."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from gateway.api.deps import GatewayDep
from gateway.schemas.responses import HealthOut
from services.eventstore import is_redis_trouble

__all__ = ["router"]

router = APIRouter(tags=["operations"])


@router.get("/healthz", response_model=HealthOut, summary="Liveness: the process answers")
async def healthz() -> HealthOut:
    return HealthOut(status="ok")


@router.get(
    "/readyz",
    response_model=HealthOut,
    responses={503: {"model": HealthOut}},
    summary="Readiness: Redis and every engine service answer",
)
async def readyz(gateway: GatewayDep) -> JSONResponse:
    checks: dict[str, str] = {}
    try:
        # A paused Redis accepts the connection and never answers: wait a second, not the
        # client's socket timeout.
        answered = await asyncio.wait_for(
            gateway.store.ping(), gateway.settings.ready_timeout_seconds
        )
        checks["redis"] = "ok" if answered else "no reply"
    except TimeoutError:
        checks["redis"] = "no answer within the ready timeout"
    except Exception as down:
        if not is_redis_trouble(down):
            raise
        checks["redis"] = type(down).__name__
    for backend in gateway.backends.all():
        ok, status = await gateway.backends.serving(backend)
        checks[f"engine:{backend.game}"] = "ok" if ok else status
    ready = all(value == "ok" for value in checks.values())
    body = HealthOut(status="ready" if ready else "not ready", checks=checks)
    return JSONResponse(status_code=200 if ready else 503, content=body.model_dump())


_METRICS_EXAMPLE = (
    "# HELP bw_gateway_commands_total Commands submitted over HTTP, by game and outcome.\n"
    "# TYPE bw_gateway_commands_total counter\n"
    'bw_gateway_commands_total{game="harvest",outcome="accepted"} 241.0\n'
)


@router.get(
    "/metrics",
    summary="Prometheus metrics",
    response_class=Response,
    responses={
        200: {
            "description": "The Prometheus text exposition format",
            "content": {"text/plain": {"schema": {"type": "string"}, "example": _METRICS_EXAMPLE}},
        }
    },
)
async def metrics(gateway: GatewayDep) -> Response:
    gateway.metrics.record_live(
        gateway.live.counts(), gateway.players_live.counts(), gateway.streams.open
    )
    # A Redis hiccup must not fail the scrape: the gateway's own figures still count.
    try:
        gateway.metrics.record_projector_lag(await gateway.store.projector_lag())
    except Exception as trouble:
        if not is_redis_trouble(trouble):
            raise
    return Response(generate_latest(gateway.metrics.registry), media_type=CONTENT_TYPE_LATEST)
