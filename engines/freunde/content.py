"""The printed components, read once from ``data/`` (rulebook › Tile/Objective distribution)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engines.core.hexgrid import Hex

__all__ = ["OBJECTIVES", "TILES", "Objective", "Tile"]

_DATA = Path(__file__).parent / "data"


@dataclass(frozen=True, slots=True)
class Tile:
    """A plot tile: its colour and the improvement printed on it ("none" if blank)."""

    id: int
    colour: str
    improvement: str


@dataclass(frozen=True, slots=True)
class Objective:
    """An objective card. Only the fields of its kind are meaningful.

    plot: ``cells`` of (dq, dr, colour) as drawn on the card.
    gardener: ``count`` bamboos of exactly ``height`` on ``colour`` plots with
    ``improvement`` ("none", a kind, or "any").
    panda: ``bamboo`` to give back, a (green, yellow, pink) triple.
    """

    id: int
    kind: str
    name: str
    points: int
    cells: tuple[tuple[Hex, str], ...] = ()
    colour: str = ""
    height: int = 0
    count: int = 0
    improvement: str = ""
    bamboo: tuple[int, int, int] = (0, 0, 0)


def _load(name: str) -> Any:
    return json.loads((_DATA / name).read_text(encoding="utf-8"))


def _tile(entry: dict[str, Any]) -> Tile:
    return Tile(entry["id"], entry["colour"], entry["improvement"])


def _objective(entry: dict[str, Any]) -> Objective:
    need = entry.get("bamboo", {})
    return Objective(
        id=entry["id"],
        kind=entry["kind"],
        name=entry["name"],
        points=entry["points"],
        cells=tuple(((q, r), colour) for q, r, colour in entry.get("cells", ())),
        colour=entry.get("colour", ""),
        height=entry.get("height", 0),
        count=entry.get("count", 0),
        improvement=entry.get("improvement", ""),
        bamboo=(need.get("green", 0), need.get("yellow", 0), need.get("pink", 0)),
    )


TILES: dict[int, Tile] = {t["id"]: _tile(t) for t in _load("tiles.json")["plots"]}
OBJECTIVES: dict[int, Objective] = {
    o["id"]: _objective(o) for o in _load("objectives.json")["objectives"]
}
