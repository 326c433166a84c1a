"""Every router of the API, collected in one place, in the order their routes are matched
(and listed in the OpenAPI document)."""

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
    pages,
    pictures,
    seats,
    tables,
    webhooks,
)

__all__ = ["ROUTERS"]

# Each resource router carries the /v1 prefix itself, so route templates (in metrics and
# logs) are the full paths. The last two: probes and metrics (operations), then pages for
# people (the replay page), outside the API's schema.
ROUTERS: tuple[APIRouter, ...] = (
    games.router,
    tables.router,
    seats.router,
    me.router,
    notifications.router,
    webhooks.router,
    commands.router,
    events.router,
    history.router,
    pictures.router,
    health.router,
    pages.router,
)
