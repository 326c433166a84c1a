"""Harvest's content, loaded once from ``data/*.json``.

Rules code reads spaces, tiles, crops and buildings only through this module, so the
real components can be dropped in as data. Every entry carries its ``source``
(``rulebook`` or ``reconstructed``); RULES.md explains each reconstruction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from engines.core.polyomino import Cell, Grid, Shape, normalize

__all__ = [
    "Challenge",
    "Content",
    "CropInfo",
    "Goal",
    "Space",
    "TaskSpec",
    "content",
]

DATA = Path(__file__).parent / "data"

TaskSpec = tuple[str, int]


@dataclass(frozen=True, slots=True)
class Space:
    """An action space on the Town Board."""

    id: str
    section: str
    value: int
    cost: int
    cost_is_round: bool
    always_open: bool
    tasks: tuple[TaskSpec, ...]
    market: str
    market_space: int


@dataclass(frozen=True, slots=True)
class CropInfo:
    """A seed/crop type: prices, costs, shape and rewards."""

    name: str
    price: int
    fertilizer: int
    water: int
    spread: int
    points: int
    harvest_fertilizer: int
    shape: Shape
    supply: int


@dataclass(frozen=True, slots=True)
class Goal:
    """A solo challenge's goal: a Game End ``measure`` at least or at most a number."""

    measure: str
    at_least: int | None = None
    at_most: int | None = None


@dataclass(frozen=True, slots=True)
class Challenge:
    """A Solo Challenge Almanac entry: set-up changes and the goals to meet.

    ``start`` changes the starting goods (signed, from the usual start); ``forests`` and
    ``workshop_slots`` replace the usual Forest tiles and filled Workshop spaces when set.
    """

    id: str
    title: str
    text: str
    start: tuple[tuple[str, int], ...]
    forests: tuple[Cell, ...] | None
    workshop_slots: tuple[int, ...] | None
    goals: tuple[Goal, ...]


@dataclass(frozen=True)
class Content:
    """Everything the rules read from the data files."""

    spaces: tuple[Space, ...]
    sections: tuple[str, ...]
    two_action_spaces: tuple[str, ...]
    workshop_slot_costs: tuple[int, ...]
    workshop_setup_slots: tuple[int, ...]
    prices: tuple[tuple[str, int], ...]
    trade_costs: tuple[tuple[str, int], ...]
    trade_actions: tuple[tuple[str, tuple[TaskSpec, ...]], ...]
    rounds: int
    pieces: int
    grid: Grid
    forests: tuple[Cell, ...]
    start_coins: int
    start_water: int
    start_bucket: int
    start_fertilizer: int
    start_seeds: tuple[int, ...]
    max_fertilizer: int
    max_bucket: int
    building_points: int
    seeds: tuple[str, ...]
    crops: tuple[CropInfo, ...]
    bush_supply: int
    sunrise: tuple[tuple[int, int, TaskSpec], ...]
    farmhouses: tuple[tuple[str, tuple[TaskSpec, ...]], ...]
    first_game: tuple[tuple[str, str], ...]
    characters: tuple[str, ...]
    character_rules: tuple[tuple[str, dict[str, Any]], ...]
    die_faces: tuple[tuple[TaskSpec, ...], ...]
    gairy_tiles: tuple[tuple[int, str, str], ...]
    market_large: tuple[tuple[str, tuple[tuple[int, tuple[TaskSpec, ...]], ...]], ...]
    market_small: tuple[tuple[str, tuple[tuple[int, tuple[TaskSpec, ...]], ...]], ...]
    market_board_large: tuple[str, tuple[tuple[int, tuple[TaskSpec, ...]], ...]]
    market_board_small: tuple[str, tuple[tuple[int, tuple[TaskSpec, ...]], ...]]
    market_stack: int
    buildings: tuple[str, ...]
    when_built: tuple[tuple[str, tuple[TaskSpec, ...]], ...]
    end_game: tuple[tuple[str, str, int], ...]
    building_values: tuple[tuple[str, int], ...]
    challenges: tuple[Challenge, ...]

    # Lookups by name, built once (the rules ask them on every command).

    @cached_property
    def _prices(self) -> dict[str, int]:
        return dict(self.prices)

    @cached_property
    def _crops(self) -> dict[str, CropInfo]:
        return {crop.name: crop for crop in self.crops}

    @cached_property
    def _sunrise(self) -> dict[int, tuple[int, TaskSpec]]:
        return {tile: (coins, benefit) for tile, coins, benefit in self.sunrise}

    @cached_property
    def _farmhouses(self) -> dict[str, tuple[TaskSpec, ...]]:
        return dict(self.farmhouses)

    @cached_property
    def _characters(self) -> dict[str, dict[str, Any]]:
        return dict(self.character_rules)

    @cached_property
    def _gairy(self) -> dict[int, tuple[str, str]]:
        return {tile: (section, arrow) for tile, section, arrow in self.gairy_tiles}

    @cached_property
    def _market_tiles(self) -> dict[str, tuple[tuple[int, tuple[TaskSpec, ...]], ...]]:
        every = (*self.market_large, *self.market_small)
        return dict((*every, self.market_board_large, self.market_board_small))

    @cached_property
    def _when_built(self) -> dict[str, tuple[TaskSpec, ...]]:
        return dict(self.when_built)

    @cached_property
    def _end_game(self) -> dict[str, tuple[str, int]]:
        return {name: (kind, per) for name, kind, per in self.end_game}

    @cached_property
    def _building_values(self) -> dict[str, int]:
        return dict(self.building_values)

    def price(self, item: str) -> int:
        """A fixed Coin price: a General Store item, or a Workshop action."""
        return self._prices[item]

    def crop(self, name: str) -> CropInfo:
        return self._crops[name]

    def sunrise_tile(self, number: int) -> tuple[int, TaskSpec]:
        return self._sunrise[number]

    def farmhouse_tasks(self, farmhouse: str) -> tuple[TaskSpec, ...]:
        return self._farmhouses[farmhouse]

    def character(self, name: str) -> dict[str, Any]:
        return self._characters.get(name, {})

    def gairy_tile(self, number: int) -> tuple[str, str]:
        return self._gairy[number]

    def market_tile(self, tile: str) -> tuple[tuple[int, tuple[TaskSpec, ...]], ...]:
        return self._market_tiles[tile]

    def when_built_tasks(self, building: str) -> tuple[TaskSpec, ...]:
        return self._when_built.get(building, ())

    def end_game_rule(self, building: str) -> tuple[str, int] | None:
        return self._end_game.get(building)

    def building_value(self, building: str) -> int:
        return self._building_values.get(building, self.building_points)

    def challenge(self, challenge_id: str) -> Challenge | None:
        for challenge in self.challenges:
            if challenge.id == challenge_id:
                return challenge
        return None


def _load(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def _tasks(raw: list[list[Any]]) -> tuple[TaskSpec, ...]:
    return tuple((str(kind), int(amount)) for kind, amount in raw)


def _market(entry: dict[str, Any]) -> tuple[str, tuple[tuple[int, tuple[TaskSpec, ...]], ...]]:
    return entry["id"], tuple((int(s["cost"]), _tasks(s["tasks"])) for s in entry["spaces"])


def _challenge(entry: dict[str, Any]) -> Challenge:
    setup = entry["setup"]
    forests = setup.get("forests")
    slots = setup.get("workshop_slots")
    return Challenge(
        id=entry["id"],
        title=entry["title"],
        text=entry["text"],
        start=tuple((str(k), int(v)) for k, v in setup.get("start", {}).items()),
        forests=None if forests is None else tuple((int(r), int(c)) for r, c in forests),
        workshop_slots=None if slots is None else tuple(int(s) for s in slots),
        goals=tuple(
            Goal(g["measure"], g.get("at_least"), g.get("at_most")) for g in entry["goals"]
        ),
    )


@cache
def content() -> Content:
    """The game's content (read once per process)."""
    town = _load("town.json")
    farm = _load("farm.json")
    crops = _load("crops.json")
    sunrise = _load("sunrise.json")
    farmhouses = _load("farmhouses.json")
    characters = _load("characters.json")
    die = _load("forest_die.json")
    gairy = _load("gairy.json")
    market = _load("market.json")
    buildings = _load("buildings.json")["buildings"]
    challenges = _load("challenges.json")["challenges"]
    seeds = tuple(crops["seeds"])
    return Content(
        spaces=tuple(
            Space(
                id=s["id"],
                section=s["section"],
                value=int(s["value"]),
                cost=int(s.get("cost", 0)),
                cost_is_round=bool(s.get("cost_is_round", False)),
                always_open=bool(s["always_open"]),
                tasks=_tasks(s.get("tasks", [])),
                market=s.get("market", ""),
                market_space=int(s.get("market_space", 0)),
            )
            for s in town["spaces"]
        ),
        sections=tuple(town["sections"]),
        two_action_spaces=tuple(town["two_action_spaces"]),
        workshop_slot_costs=tuple(town["workshop_slot_costs"]),
        workshop_setup_slots=tuple(town["workshop_setup_slots"]),
        prices=tuple((k, int(v)) for k, v in town["prices"].items()),
        trade_costs=tuple((k, int(v)) for k, v in town["trade_costs"].items()),
        trade_actions=tuple((k, _tasks(v)) for k, v in town["trade_actions"].items()),
        rounds=int(town["rounds"]),
        pieces=int(town["pieces_per_player"]),
        grid=Grid(int(farm["rows"]), int(farm["cols"])),
        forests=tuple((int(r), int(c)) for r, c in farm["forests"]),
        start_coins=int(farm["start"]["coins"]),
        start_water=int(farm["start"]["water"]),
        start_bucket=int(farm["start"]["bucket"]),
        start_fertilizer=int(farm["start"]["fertilizer"]),
        start_seeds=tuple(int(farm["start"]["seeds"].get(s, 0)) for s in seeds),
        max_fertilizer=int(farm["max_fertilizer"]),
        max_bucket=int(farm["max_bucket"]),
        building_points=int(farm["building_points"]),
        seeds=seeds,
        crops=tuple(
            CropInfo(
                name=name,
                price=int(c["price"]),
                fertilizer=int(c["fertilizer"]),
                water=int(c["water"]),
                spread=int(c["spread"]),
                points=int(c["points"]),
                harvest_fertilizer=int(c["harvest_fertilizer"]),
                shape=normalize((int(r), int(col)) for r, col in c["shape"]),
                supply=int(c["supply"]),
            )
            for name in seeds
            for c in [crops["crops"][name]]
        ),
        bush_supply=int(crops["crops"]["blueberry"]["bush_supply"]),
        sunrise=tuple(
            (int(t["number"]), int(t["coins"]), (str(t["benefit"][0]), int(t["benefit"][1])))
            for t in sunrise["tiles"]
        ),
        farmhouses=tuple((f["id"], _tasks(f["tasks"])) for f in farmhouses["farmhouses"]),
        first_game=tuple((c["character"], c["farmhouse"]) for c in farmhouses["first_game"]),
        characters=tuple(c["id"] for c in characters["characters"]),
        character_rules=tuple((c["id"], c) for c in characters["characters"]),
        die_faces=tuple(_tasks(face["tasks"]) for face in die["faces"]),
        gairy_tiles=tuple((int(t["number"]), t["section"], t["arrow"]) for t in gairy["tiles"]),
        market_large=tuple(_market(t) for t in market["large"]),
        market_small=tuple(_market(t) for t in market["small"]),
        market_board_large=_market(market["board"]["large"]),
        market_board_small=_market(market["board"]["small"]),
        market_stack=int(market["stack"]),
        buildings=tuple(b["id"] for b in buildings),
        when_built=tuple(
            (b["id"], _tasks(b["when_built"])) for b in buildings if "when_built" in b
        ),
        end_game=tuple(
            (b["id"], b["end_game"], int(b.get("per", 0))) for b in buildings if "end_game" in b
        ),
        building_values=tuple(
            (b["id"], int(b["points"])) for b in buildings if b.get("end_game") == "points"
        ),
        challenges=tuple(_challenge(c) for c in challenges),
    )
