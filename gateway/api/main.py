"""Every router of the API, collected in one place."""

from __future__ import annotations

from fastapi import APIRouter

from gateway.api.routes import (
    commands,
    events,
    games,
    health,
    history,
    me,
    notifications,
    seats,
    tables,
    webhooks,
)

__all__ = ["api_router", "ops_router"]

# Each resource router carries the /v1 prefix itself, so route templates (in metrics and
# logs) are the full paths.
api_router = APIRouter()
api_router.include_router(games.router)
api_router.include_router(tables.router)
api_router.include_router(seats.router)
api_router.include_router(me.router)
api_router.include_router(notifications.router)
api_router.include_router(webhooks.router)
api_router.include_router(commands.router)
api_router.include_router(events.router)
api_router.include_router(history.router)

ops_router = APIRouter()
ops_router.include_router(health.router)
