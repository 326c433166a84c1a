"""``GET /v1/games``: which games this gateway offers."""

from __future__ import annotations

from functools import cache
from typing import Any

from fastapi import APIRouter

import engines
from engines.core.contract import Engine, TableConfig
from engines.core.messages import to_json
from engines.core.play import Table
from gateway.api.deps import GatewayDep
from gateway.schemas.responses import GameOut, GamesOut, OptionOut

__all__ = ["example_command", "router"]

router = APIRouter(prefix="/v1", tags=["games"])


@cache
def _example(game: str) -> dict[str, Any] | None:
    engine = engines.get(game)
    table = Table.create(
        engine, TableConfig("example", engine.info.min_seats), seed=b"example-seed-0123"
    )
    outcome = engine.outcome(table.state)
    for seat in outcome.to_act:
        legal = engine.legal_commands(table.state, seat)
        if legal:
            return to_json(legal[0])
    return None


def example_command(game: str, engine: Engine[Any, Any, Any]) -> dict[str, Any] | None:
    """A command the game accepts at its first turn, built from its own ``Command``
    message, for the docs; ``None`` if the game offers none at that point."""
    try:
        return _example(game)
    except Exception:  # an example is a nicety; a game bug must not break the docs
        return None


@router.get("/games", response_model=GamesOut, summary="Games, seat counts and options")
async def list_games(gateway: GatewayDep) -> GamesOut:
    games = []
    for backend in gateway.backends.all():
        info = backend.engine.info
        games.append(
            GameOut(
                game=backend.game,
                title=info.title,
                min_seats=info.min_seats,
                max_seats=info.max_seats,
                options=[
                    OptionOut(
                        name=o.name,
                        kind=o.kind,
                        default=o.default,
                        description=o.description,
                        choices=list(o.choices),
                    )
                    for o in info.options
                ],
                example_command=example_command(backend.game, backend.engine),
            )
        )
    return GamesOut(games=games)
