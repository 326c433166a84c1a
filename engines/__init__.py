"""The registry of games: ``engines.get("freunde")`` returns that game's engine.

Each game lives in ``engines/<game>/engine.py`` and exposes ``ENGINE``. A game whose
package is not present yet is simply not listed by :func:`available`.
"""

from __future__ import annotations

import importlib
from typing import Any

from engines.core.contract import Engine

__all__ = ["GAMES", "UnknownGame", "available", "get"]

GAMES: tuple[str, ...] = ("freunde", "harvest", "tend", "bardwood")


class UnknownGame(LookupError):
    """No engine by that name is installed."""


def get(game: str) -> Engine[Any, Any, Any]:
    """The engine for ``game``; raises :class:`UnknownGame`."""
    if game not in GAMES:
        raise UnknownGame(game)
    try:
        module = importlib.import_module(f"engines.{game}.engine")
    except ModuleNotFoundError as missing:
        if missing.name in (f"engines.{game}", f"engines.{game}.engine"):
            raise UnknownGame(game) from None
        raise
    engine: Engine[Any, Any, Any] = module.ENGINE
    return engine


def available() -> list[str]:
    """The games whose engines are present, in registry order."""
    found = []
    for game in GAMES:
        try:
            get(game)
        except UnknownGame:
            continue
        found.append(game)
    return found
