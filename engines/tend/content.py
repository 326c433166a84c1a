"""Tend's content, loaded once from ``data/*.json`` into frozen dataclasses.

The rulebook names every part of the sheets and cards but prints almost none of their
contents, so most of it is reconstructed (``RULES.md`` says what and why). Rules code
reads content only through :func:`content`, so the real components can be dropped in
as data. Every entry of the data files carries its ``source``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engines.core.polyomino import Cell, Grid, Shape, normalize

__all__ = [
    "DATA",
    "TASKS",
    "Animal",
    "Card",
    "Condition",
    "Content",
    "Crop",
    "DieKind",
    "Effect",
    "Face",
    "Feature",
    "Good",
    "Manifest",
    "NeighbourCard",
    "Objective",
    "Option",
    "Rate",
    "ScratchArea",
    "ScratchHalf",
    "Square",
    "Stall",
    "Table",
    "content",
]

DATA = Path(__file__).parent / "data"

TASKS: tuple[str, ...] = ("tend", "chop", "mine", "fish")
"""The four main tasks (rulebook: Tasks & Actions)."""


@dataclass(frozen=True, slots=True)
class Good:
    """A resource. ``coins`` is ``None`` when the commissary does not list it (it can be
    neither sold nor shipped); ``shape`` is its cargo polyomino."""

    id: str
    type: str
    coins: int | None
    shape: Shape

    @property
    def listed(self) -> bool:
        return self.coins is not None


@dataclass(frozen=True, slots=True)
class Face:
    """One face of a farming die: its number, the goods a white symbol harvests, and what
    happens to the die after a harvest (``""`` stays, ``"reset"`` to 1, ``"return"``)."""

    value: int
    harvest: tuple[str, ...]
    then: str


@dataclass(frozen=True, slots=True)
class DieKind:
    """A colour of farming dice: a crop's or an animal's."""

    id: str
    kind: str
    size: str
    count: int
    colour: str
    faces: tuple[Face, ...]

    def face(self, value: int) -> Face:
        return self.faces[value - 1]


@dataclass(frozen=True, slots=True)
class Crop:
    """A crop: planted as a ``size`` x ``size`` die on tilled soil (a trellis under it
    when ``trellis``)."""

    id: str
    size: int
    trellis: bool
    die: str


@dataclass(frozen=True, slots=True)
class Animal:
    """An animal: a ``size`` x ``size`` die inside a fenced pen."""

    id: str
    size: int
    die: str


@dataclass(frozen=True, slots=True)
class Rate:
    """Groundskeeping: one ``good`` draws ``tilled`` soil or ``fence`` squares."""

    good: str
    tilled: int
    fence: int


@dataclass(frozen=True, slots=True)
class Effect:
    """One thing a card, a sheet row or a track gives.

    ``kind`` is one of: ``task`` (``name`` the task or ``any``, ``bonus`` extra actions),
    ``good`` (``amount`` of ``name``), ``coins``, ``tilled``, ``fence``, ``trellis``
    (``amount`` marks to draw), ``area`` (fishing area ``name`` unlocked), ``tool`` (+1
    action for task ``name``), ``rod`` (rod ``name``), ``lure``, ``energy`` (``amount``
    charges), ``animal`` (``name`` bought), ``ability`` (``name``), ``buyback``, ``explorer``.
    """

    kind: str
    name: str = ""
    amount: int = 1
    bonus: int = 0


Option = tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class Condition:
    """What a conditional card asks before its bottom half: a fishing area unlocked, or a
    measure of the player's sheets at least ``at_least``."""

    measure: str
    at_least: int
    area: str = ""


@dataclass(frozen=True, slots=True)
class Card:
    """A task card. ``top`` and ``bottom`` are the options of each half (an "or" gives
    several); ``condition`` is ``None`` on a basic card."""

    id: str
    name: str
    deck: str
    advanced: bool
    top: tuple[Option, ...]
    condition: Condition | None
    bottom: tuple[Option, ...]


@dataclass(frozen=True, slots=True)
class Feature:
    """A grid of spaces on a sheet, each showing a good (``coin``, a good id, or
    ``<type>:any``). Lined grids unlock row by row (``rewards[row]``); unlined ones when
    every space is crossed (``rewards[0]``). Badge projects also earn ``points`` at two
    rows. Spaces are numbered row by row across the whole grid."""

    id: str
    sheet: str
    group: str
    lined: bool
    rows: tuple[tuple[str, ...], ...]
    rewards: tuple[Option, ...]
    points: int = 0

    @property
    def spaces(self) -> tuple[str, ...]:
        return tuple(icon for row in self.rows for icon in row)

    def row_of(self, space: int) -> int:
        """The row holding space number ``space``."""
        for row, icons in enumerate(self.rows):
            if space < len(icons):
                return row
            space -= len(icons)
        raise IndexError(space)

    def row_spaces(self, row: int) -> range:
        start = sum(len(r) for r in self.rows[:row])
        return range(start, start + len(self.rows[row]))


@dataclass(frozen=True, slots=True)
class Stall:
    """A stall of the cargo manifest: its columns and the points per box of each type
    (types not named score the manifest's default)."""

    first_col: int
    last_col: int
    scores: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class Manifest:
    """The cargo manifest grid, its stalls, and the bonus task beside each row."""

    grid: Grid
    stalls: tuple[Stall, ...]
    default_score: int
    row_tasks: tuple[str, ...]

    def stall_of(self, cell: Cell) -> int:
        for index, stall in enumerate(self.stalls):
            if stall.first_col <= cell[1] <= stall.last_col:
                return index
        raise ValueError(f"column {cell[1]} is in no stall")


@dataclass(frozen=True, slots=True)
class Table:
    """A fishing table or the geode card: rows are the white die 2-6, columns the black
    die 2-6; ``""`` is an empty square."""

    id: str
    grid: tuple[tuple[str, ...], ...]

    def at(self, white: int, black: int) -> str:
        return self.grid[white - 2][black - 2]


@dataclass(frozen=True, slots=True)
class Square:
    """What a scratched square holds: ``amount`` of a good (or a ``geode``), a level
    arrow, extra actions and coins (``amount`` is 1 for a good unless it shows more, 0
    on a square without a good)."""

    good: str = ""
    level: bool = False
    actions: int = 0
    coins: int = 0
    amount: int = 0

    def __post_init__(self) -> None:
        if self.good and not self.amount:
            object.__setattr__(self, "amount", 1)


@dataclass(frozen=True, slots=True)
class ScratchHalf:
    """One half of the woods or the mine: squares every card has, and a pool from which
    each card draws a few more."""

    fixed: tuple[Square, ...]
    pool: tuple[Square, ...]


@dataclass(frozen=True, slots=True)
class ScratchArea:
    """The woods or the mine of the scratch-off card."""

    id: str
    task: str
    level_track: str
    unlocks: str
    top: ScratchHalf
    bottom: ScratchHalf


@dataclass(frozen=True, slots=True)
class Objective:
    """A season objective: ``points`` for every ``every`` of ``measure``."""

    id: str
    season: int
    name: str
    measure: str
    points: int
    every: int


@dataclass(frozen=True, slots=True)
class NeighbourCard:
    """A neighbour card: the goods asked for (either one) and the boxes a gift crosses."""

    id: str
    goods: tuple[str, ...]
    bonus: int


@dataclass(frozen=True, slots=True)
class Content:
    """Everything the rules read from the data files."""

    goods: Mapping[str, Good]
    types: tuple[str, ...]
    dice: Mapping[str, DieKind]
    dice_sizes: Mapping[str, int]
    farm: Grid
    start_tilled: frozenset[Cell]
    start_fences: frozenset[Cell]
    crops: Mapping[str, Crop]
    animals: Mapping[str, Animal]
    groundskeeping: Mapping[str, Rate]
    till: int
    rods: Mapping[str, Shape]
    areas: tuple[str, ...]
    features: Mapping[str, Feature]
    abilities: Mapping[str, Mapping[str, Any]]
    level_start: int
    level_rewards: Mapping[str, tuple[str, ...]]
    neighbour_tracks: Mapping[str, tuple[str, ...]]
    manifest: Manifest
    tables: Mapping[str, Table]
    geode: Table
    scratch: Grid
    top_rows: int
    scratch_costs: tuple[int, int]
    rocks_per_half: int
    variable_per_half: int
    scratch_areas: Mapping[str, ScratchArea]
    cards: Mapping[str, Card]
    decks: Mapping[str, tuple[str, ...]]
    objectives: Mapping[str, Objective]
    measures: tuple[str, ...]
    neighbour_cards: Mapping[str, NeighbourCard]

    def good(self, good: str) -> Good:
        return self.goods[good]

    def matches(self, icon: str, good: str) -> bool:
        """Whether a sheet space showing ``icon`` takes ``good``."""
        if icon == good:
            return True
        kind, _, rest = icon.partition(":")
        return rest == "any" and good in self.goods and self.goods[good].type == kind

    def season_objectives(self, season: int) -> tuple[str, ...]:
        return tuple(o.id for o in self.objectives.values() if o.season == season)


def _load(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def _cells(raw: Sequence[Sequence[int]]) -> frozenset[Cell]:
    return frozenset((int(r), int(c)) for r, c in raw)


def _effect(raw: Mapping[str, Any]) -> Effect:
    """One effect of the data files' vocabulary (``{"task": "chop", "bonus": 1}``, ...)."""
    for kind in ("task", "area", "tool", "rod", "animal", "ability"):
        if kind in raw:
            return Effect(kind, str(raw[kind]), bonus=int(raw.get("bonus", 0)))
    if "good" in raw:
        return Effect("good", str(raw["good"]), int(raw.get("count", 1)))
    for kind in ("coins", "tilled", "fence", "trellis", "energy", "lure", "buyback", "explorer"):
        if kind in raw:
            return Effect(kind, amount=int(raw[kind]))
    raise ValueError(f"unknown effect {raw!r}")


def _option(raw: Sequence[Mapping[str, Any]]) -> Option:
    return tuple(_effect(e) for e in raw)


def _feature(raw: Mapping[str, Any], sheet: str, group: str, lined: bool) -> Feature:
    rows = tuple(tuple(str(icon) for icon in row) for row in raw["rows"])
    rewards: tuple[Option, ...]
    if "medals" in raw:
        rewards = tuple((Effect("good", str(m)),) for m in raw["medals"])
    else:
        rewards = (_option(raw["reward"]),) * (len(rows) if lined else 1)
    return Feature(
        id=str(raw["id"]),
        sheet=sheet,
        group=group,
        lined=lined,
        rows=rows,
        rewards=rewards,
        points=int(raw.get("points", 0)),
    )


def _features(farm: Mapping[str, Any], cargo: Mapping[str, Any]) -> dict[str, Feature]:
    found: list[Feature] = [
        _feature(f, "farm", str(f["group"]), bool(f["lined"])) for f in farm["features"]
    ]
    found += [_feature(p, "cargo", "special", False) for p in cargo["special_projects"]]
    found += [_feature(p, "cargo", "badge", True) for p in cargo["badge_projects"]]
    for name, lined in (("intern_program", True), ("buyback", True), ("seasoned_explorer", False)):
        found.append(_feature({"id": name, **cargo[name]}, "cargo", name, lined))
    return {f.id: f for f in found}


def _square(raw: Mapping[str, Any]) -> Square:
    return Square(
        good=str(raw.get("good", "")),
        level=bool(raw.get("level", False)),
        actions=int(raw.get("actions", 0)),
        coins=int(raw.get("coins", 0)),
        amount=int(raw.get("amount", 0)),
    )


def _half(raw: Mapping[str, Any]) -> ScratchHalf:
    fixed = tuple(_square(s) for s in raw["fixed"] for _ in range(int(s.get("count", 1))))
    return ScratchHalf(fixed, tuple(_square(s) for s in raw["pool"]))


def _table(raw: Mapping[str, Any], name: str) -> Table:
    return Table(name, tuple(tuple(g or "" for g in row) for row in raw["grid"]))


def _card(raw: Mapping[str, Any], deck: str) -> Card:
    condition = None
    if "condition" in raw:
        cond = raw["condition"]
        condition = Condition(
            measure=str(cond.get("measure", "")),
            at_least=int(cond.get("at_least", 0)),
            area=str(cond.get("area", "")),
        )
    return Card(
        id=str(raw["id"]),
        name=str(raw["name"]),
        deck=deck,
        advanced=bool(raw["advanced"]),
        top=tuple(_option(o) for o in raw["top"]),
        condition=condition,
        bottom=tuple(_option(o) for o in raw.get("bottom", ())),
    )


@cache
def content() -> Content:
    """The game's content (read once per process)."""
    goods_raw = _load("commissary.json")
    dice_raw = _load("dice.json")
    farm = _load("farm.json")
    cargo = _load("cargo.json")
    fishing = _load("fishing.json")
    scratch = _load("scratch.json")
    tasks = _load("tasks.json")
    objectives = _load("objectives.json")
    neighbours = _load("neighbours.json")

    goods = {
        g["id"]: Good(g["id"], g["type"], int(g["coins"]), normalize(_cells(g["shape"])))
        for g in goods_raw["goods"]
    }
    goods.update({g["id"]: Good(g["id"], "", None, frozenset()) for g in goods_raw["unlisted"]})
    manifest = cargo["manifest"]
    decks = {
        deck: tuple(str(c["id"]) for c in tasks[deck])
        for deck in ("starter", "season_1", "season_2", "season_3")
    }
    return Content(
        goods=goods,
        types=tuple(goods_raw["types"]),
        dice={
            d["id"]: DieKind(
                id=d["id"],
                kind=d["kind"],
                size=d["size"],
                count=int(d["count"]),
                colour=d["colour"],
                faces=tuple(
                    Face(
                        int(f["value"]),
                        tuple(str(g) for g in f.get("harvest", ())),
                        str(f.get("then", "")),
                    )
                    for f in d["faces"]
                ),
            )
            for d in dice_raw["dice"]
        },
        dice_sizes={k: int(v) for k, v in dice_raw["sizes"].items()},
        farm=Grid(int(farm["area"]["rows"]), int(farm["area"]["cols"])),
        start_tilled=_cells(farm["area"]["start_tilled"]),
        start_fences=_cells(farm["area"]["start_fences"]),
        crops={
            c["id"]: Crop(c["id"], int(c["size"]), bool(c["trellis"]), c["die"])
            for c in farm["crops"]
        },
        animals={a["id"]: Animal(a["id"], int(a["size"]), a["die"]) for a in farm["animals"]},
        groundskeeping={
            r["good"]: Rate(r["good"], int(r["tilled"]), int(r["fence"]))
            for r in farm["groundskeeping"]
        },
        till=int(farm["till"]),
        rods={r["id"]: frozenset(_cells(r["shape"])) for r in farm["fishing"]["rods"]},
        areas=tuple(farm["fishing"]["areas"]),
        features=_features(farm, cargo),
        abilities={k: dict(v) for k, v in cargo["abilities"].items()},
        level_start=int(farm["levels"]["start"]),
        level_rewards={t: tuple(farm["levels"][t]) for t in ("chop", "mine")},
        neighbour_tracks={s: tuple(farm["neighbour_tracks"][s]) for s in ("left", "right")},
        manifest=Manifest(
            grid=Grid(int(manifest["rows"]), int(manifest["cols"])),
            stalls=tuple(
                Stall(int(s["cols"][0]), int(s["cols"][1]), dict(s["scores"]))
                for s in manifest["stalls"]
            ),
            default_score=int(manifest["default_score"]),
            row_tasks=tuple(manifest["row_tasks"]),
        ),
        tables={t["id"]: _table(t, t["id"]) for t in fishing["tables"]},
        geode=_table(fishing["geode"], "geode"),
        scratch=Grid(int(scratch["rows"]), int(scratch["cols"])),
        top_rows=int(scratch["top_rows"]),
        scratch_costs=(int(scratch["costs"]["top"]), int(scratch["costs"]["bottom"])),
        rocks_per_half=int(scratch["rocks_per_half"]),
        variable_per_half=int(scratch["variable_per_half"]),
        scratch_areas={
            a["id"]: ScratchArea(
                a["id"],
                a["task"],
                a["level_track"],
                a["unlocks"],
                _half(a["top"]),
                _half(a["bottom"]),
            )
            for a in scratch["areas"]
        },
        cards={
            c["id"]: _card(c, deck)
            for deck in ("starter", "season_1", "season_2", "season_3")
            for c in tasks[deck]
        },
        decks=decks,
        objectives={
            o["id"]: Objective(
                o["id"],
                int(o["season"]),
                o["name"],
                o["measure"],
                int(o["points"]),
                int(o.get("every", 1)),
            )
            for o in objectives["objectives"]
        },
        measures=tuple(objectives["measures"]),
        neighbour_cards={
            n["id"]: NeighbourCard(n["id"], tuple(n["goods"]), int(n["bonus"]))
            for n in neighbours["cards"]
        },
    )
