"""The Fields: Plant, Tend and Harvest, each one Field Action."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, lru_cache

from engines.core.errors import RuleViolation
from engines.core.polyomino import Cell, Shape, adjacent, normalize, orientations, placements
from engines.harvest import codes
from engines.harvest.characters import extra_field_action, plant_discount
from engines.harvest.content import content
from engines.harvest.events import cell_numbers, cells_of, granted, resolved, resources, wrap
from engines.harvest.rules import (
    acting_step,
    empty_cells,
    fertilizer_track,
    field_cells,
    seed_count,
    supply_left,
)
from engines.harvest.state import HarvestState, Player, Step
from proto import harvest_pb2 as pb

__all__ = [
    "FIELD_KINDS",
    "field_action",
    "harvest",
    "owed_spots",
    "plant_cost",
    "plant_seed",
    "planting_spots",
    "plants_free",
    "tend_crop",
    "tend_refusal",
    "tending_spots",
    "tends_free",
]

FIELD_KINDS = ("plant", "tend", "harvest")


def piece_of(seed: str) -> str:
    """A planted Blueberry seed is a Blueberry Bush tile."""
    return "bush" if seed == "blueberry" else seed


def plant_cost(player: Player, seed: str) -> int:
    """Plant: the seed's Fertilizer cost (Penny the Pig: 1 fewer, at least 0)."""
    return max(0, content().crop(seed).fertilizer - plant_discount(player))


@cache
def tile_orientations(seed: str) -> frozenset[Shape]:
    """Plant: "Crops may be oriented in any direction" (computed once per Seed)."""
    return frozenset(orientations(content().crop(seed).shape))


def planting_spots(player: Player, seed: str) -> tuple[Shape, ...]:
    """Every orientation and position of the seed's tile on empty field spaces."""
    return _placements(content().crop(seed).shape, empty_cells(player))


@lru_cache(maxsize=4096)
def _placements(shape: Shape, free: frozenset[Cell]) -> tuple[Shape, ...]:
    # Cached: listed on every planting step, and a farm changes a few times a round.
    # The spots on the empty spaces are those of the whole field lying on them, in the
    # same order: filtering them is cheaper than placing the shape again.
    return tuple([spot for spot in _field_placements(shape) if spot <= free])


@cache
def _field_placements(shape: Shape) -> tuple[Shape, ...]:
    """Every position of the shape on the whole field (computed once per shape)."""
    return placements(shape, field_cells())


def tending_spots(player: Player, crop: str) -> tuple[Shape, ...]:
    """Tend: empty spaces for a new tile touching a planted crop of that type.

    Blueberries do not spread: each Bush without a Blueberry is a spot.
    """
    if crop == "blueberry":
        return tuple(c.cells for c in player.crops if c.kind == "bush" and not c.berry)
    planted = [c.cells for c in player.crops if c.kind == crop]
    if not planted:
        return ()
    grown = frozenset().union(*planted)
    spots = _placements(content().crop(crop).shape, empty_cells(player))
    return tuple(s for s in spots if adjacent(s, grown))


def field_action(state: HarvestState, cmd: pb.FieldAction, seat: int) -> list[pb.Event]:
    """The Fields: take one Field Action. Mick the Badger gets one more, once a turn."""
    step = acting_step(state, seat)
    kinds = [t.kind for t in step.tasks]
    if "field" not in kinds:
        raise codes.FIELD_NONE()
    if cmd.kind not in FIELD_KINDS:
        raise codes.FIELD_UNKNOWN()
    events = [resolved(seat, kinds.index("field"))]
    player = state.players[seat]
    if extra_field_action(player) and state.phase in ("actions", "jaime") and not player.mick_used:
        events.append(granted(seat, "mick", [("field", 1)], new_step=False))
    if cmd.kind == "harvest":
        return events + harvest(state, seat)
    events.append(granted(seat, cmd.kind, [], new_step=True, mode=cmd.kind))
    return events


def _index(step: Step, kind: str) -> int:
    return [t.kind for t in step.tasks].index(kind)


def plants_free(step: Step) -> bool | None:
    """How the seat may plant now: paying Fertilizer (``False``: a Plant action), without
    it (``True``: the Silo), or not at all (``None``)."""
    if step.mode == "plant":
        return False
    if "plant_free" in step.kinds:
        return True
    return None


def tends_free(step: Step) -> bool | None:
    """How the seat may tend now: paying Water (``False``: a Tend action), without it
    (``True``: the Weather Vane), or not at all (``None``)."""
    if step.mode == "tend":
        return False
    if "tend_free" in step.kinds:
        return True
    return None


def tend_refusal(state: HarvestState, seat: int, crop: str, free: bool) -> RuleViolation | None:
    """Why the crop cannot be tended now, wherever it would grow (``None``: it can): its
    Water, and a tile of it left in the Supply."""
    if not free and state.players[seat].water < content().crop(crop).water:
        return codes.TEND_NO_WATER()
    if supply_left(state, "berry" if crop == "blueberry" else crop) < 1:
        return codes.SUPPLY_EMPTY(piece=crop)
    return None


def owed_spots(state: HarvestState, seat: int, owed: str) -> tuple[Shape, ...]:
    """Where a crop the Tend still owes may go (none when the Supply is out of it)."""
    if supply_left(state, owed) < 1:
        return ()
    return tending_spots(state.players[seat], owed)


def plant_seed(state: HarvestState, cmd: pb.PlantSeed, seat: int) -> list[pb.Event]:
    """Plant: one seed from your supply onto empty field spaces, paying its Fertilizer.

    The Silo plants one seed without Fertilizer.
    """
    step = acting_step(state, seat)
    free = plants_free(step)
    if free is None:
        raise codes.PLANT_NOT_NOW()
    events = [resolved(seat, _index(step, "plant_free"))] if free else []
    if cmd.seed not in content().seeds:
        raise codes.PLANT_UNKNOWN_SEED()
    player = state.players[seat]
    if seed_count(player, cmd.seed) < 1:
        raise codes.PLANT_NO_SEED()
    cells = cells_of(_checked_cells(cmd.cells))
    if normalize(cells) not in tile_orientations(cmd.seed):
        raise codes.PLANT_BAD_SHAPE()
    if not cells <= empty_cells(player):
        raise codes.PLANT_NOT_EMPTY()
    cost = 0 if free else plant_cost(player, cmd.seed)
    if player.fertilizer < cost:
        raise codes.PLANT_NO_FERTILIZER()
    return [
        *events,
        resources(seat, "plant", fertilizer=-cost, **{cmd.seed: -1}),
        wrap(
            crop_placed=pb.CropPlaced(seat=seat, crop=piece_of(cmd.seed), cells=cell_numbers(cells))
        ),
    ]


def _checked_cells(numbers: Iterable[int]) -> list[int]:
    """Field cells, each once, in increasing order: one spelling per placement, so
    ``legal_commands`` can list exactly what is accepted."""
    grid = content().grid
    cells = list(numbers)
    if any(not 0 <= n < grid.rows * grid.cols for n in cells):
        raise codes.FIELD_BAD_CELLS()
    if cells != sorted(set(cells)):
        raise codes.FIELD_CELLS_ORDER()
    return cells


def tend_crop(state: HarvestState, cmd: pb.TendCrop, seat: int) -> list[pb.Event]:
    """Tend: pay the crop's Water and grow a matching crop beside it (Strawberries: two;
    Blueberries: one on a bare Bush). The Weather Vane tends once without Water."""
    step = acting_step(state, seat)
    player = state.players[seat]
    cells = cells_of(_checked_cells(cmd.cells))
    if step.owed:
        return _place_owed(state, step.owed, cmd.crop, cells, seat)
    free = tends_free(step)
    if free is None:
        raise codes.TEND_NOT_NOW()
    events = [resolved(seat, _index(step, "tend_free"))] if free else []
    if cmd.crop not in content().seeds:
        raise codes.TEND_UNKNOWN_CROP()
    crop = content().crop(cmd.crop)
    refused = tend_refusal(state, seat, cmd.crop, free)
    if refused is not None:
        raise refused
    cost = 0 if free else crop.water
    if cells not in tending_spots(player, cmd.crop):
        raise codes.TEND_BAD_SPOT()
    owed = cmd.crop if crop.spread > 1 else ""
    paid = [resources(seat, "tend", water=-cost)] if cost else []
    placed = pb.CropPlaced(seat=seat, crop=cmd.crop, cells=cell_numbers(cells), owed=owed)
    return [*events, *paid, wrap(crop_placed=placed)]


def _place_owed(
    state: HarvestState, owed: str, crop: str, cells: frozenset[tuple[int, int]], seat: int
) -> list[pb.Event]:
    """Tend › Reminder: a crop with no legal field space goes back to the Supply."""
    if crop != owed:
        raise codes.TEND_OWED(crop=owed)
    spots = owed_spots(state, seat, owed)
    if not cells:
        if spots:
            raise codes.TEND_OWED_HAS_SPACE(crop=owed)
        return [wrap(crop_returned=pb.CropReturned(seat=seat, crop=owed))]
    if cells not in spots:
        raise codes.TEND_BAD_SPOT()
    return [wrap(crop_placed=pb.CropPlaced(seat=seat, crop=owed, cells=cell_numbers(cells)))]


def harvest(state: HarvestState, seat: int) -> list[pb.Event]:
    """Harvest: every crop comes off (Bushes stay); points per crop, Fertilizer per
    Wheat, and 1 Coin per different crop type harvested."""
    c = content()
    player = state.players[seat]
    picked = [x.kind for x in player.crops if x.kind != "bush"]
    picked += ["blueberry" for x in player.crops if x.berry]
    points = sum(c.crop(k).points for k in picked)
    fertilizer = sum(c.crop(k).harvest_fertilizer for k in picked)
    fertilizer = min(fertilizer, fertilizer_track().room(player.fertilizer))
    events = [wrap(crops_harvested=pb.CropsHarvested(seat=seat))]
    if picked:
        events.append(
            resources(seat, "harvest", points=points, fertilizer=fertilizer, coins=len(set(picked)))
        )
    return events
