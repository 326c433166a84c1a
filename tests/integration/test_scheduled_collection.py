"""The gateway collects its young generation on a clock while it serves (services.heap):
its lifespan, against a real Redis, runs the collector and stops it at shutdown."""

from __future__ import annotations

import asyncio

import pytest

from gateway.app import create_app
from gateway.settings import Settings

pytestmark = [pytest.mark.anyio, pytest.mark.integration]


def _collectors() -> list[asyncio.Task[object]]:
    return [t for t in asyncio.all_tasks() if t.get_name() == "collect_on_schedule"]


async def test_the_gateway_collects_on_its_clock_while_it_serves(redis_url: str) -> None:
    app = create_app(Settings(redis_url=redis_url))
    async with app.router.lifespan_context(app):
        running = _collectors()
        assert len(running) == 1 and not running[0].done()
    assert running[0].cancelled()
    assert _collectors() == []
