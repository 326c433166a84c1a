"""Every router of the API, collected in one place, in the order their routes are listed in
the OpenAPI document (and matched, but for the busiest)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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

__all__ = ["BUSIEST", "ROUTERS"]

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

# The endpoints of the busiest routes, a command and a view read: matched before all others
# (Starlette tries each route's pattern in turn, and the command's came 25th: 5% of the
# gateway's CPU per command). No other route matches their paths, so matching them first
# changes nothing else.
BUSIEST: tuple[Callable[..., Any], ...] = (commands.send_command, tables.table_view)
