"""The Workshop: upgrade the Bucket, Clear Land, Build a Building (all different)."""

from __future__ import annotations

from functools import cache, lru_cache

from engines.core.deck import draw_random
from engines.core.polyomino import Cell
from engines.core.rng import Rng
from engines.harvest import codes
from engines.harvest.benefits import roll_die
from engines.harvest.characters import builds_free
from engines.harvest.content import content
from engines.harvest.events import (
    cell_numbers,
    granted,
    land_cleared,
    resolved,
    resources,
    wrap,
)
from engines.harvest.rules import acting_step, bucket_track, forest_blocks, pay, payment_of
from engines.harvest.state import HarvestState, Player, Step
from proto import harvest_pb2 as pb

__all__ = [
    "BUILD_TASKS",
    "CLEAR_TASKS",
    "UPGRADE_TASKS",
    "action_price",
    "allowing",
    "build",
    "build_cost",
    "build_sites",
    "clear_land",
    "draw_building",
    "row_cost",
    "upgrade_bucket",
    "workshop_slot",
]


# The tasks that allow each Workshop action, in the order they are used up: a benefit
# that grants the action itself first, a Workshop space's "any action" last.
UPGRADE_TASKS = ("rose", "workshop")
CLEAR_TASKS = ("clear_land_no_die", "rose", "clear_land", "workshop")
BUILD_TASKS = ("build", "rose", "workshop")


def allowing(step: Step, kinds: tuple[str, ...], used: str) -> tuple[int, str]:
    """The first waiting task that allows this action: (index, kind), or (-1, "").

    A Workshop space's actions must all be different, so a ``workshop`` task used
    for the same action earlier in the step does not count.
    """
    for kind in kinds:
        for index, task in enumerate(step.tasks):
            if task.kind == kind and not (kind == "workshop" and used in step.used):
                return index, kind
    return -1, ""


def action_price(kind: str, action: str) -> int:
    """The Coins a Workshop action costs: its price at a Workshop space; nothing when a
    benefit grants it (Rose, a Farmhouse, a trade, a building's ability)."""
    return content().price(action) if kind == "workshop" else 0


def workshop_slot(state: HarvestState) -> int:
    """Clear Land: the highest empty Workshop space, or -1 (the building is discarded)."""
    for slot, building in enumerate(state.workshop):
        if not building:
            return slot
    return -1


def draw_building(state: HarvestState, rng: Rng) -> str:
    """A random building nobody has seen: the stacks and face-down Forests are one pool."""
    drawn = draw_random(set(content().buildings) - state.revealed_buildings, 1, rng)
    return drawn[0] if drawn else ""


def upgrade_bucket(state: HarvestState, cmd: pb.UpgradeBucket, seat: int) -> list[pb.Event]:
    """Upgrade Your Bucket (1 Coin): the Bucket moves up one space, at most to 10."""
    step = acting_step(state, seat)
    index, kind = allowing(step, UPGRADE_TASKS, "upgrade")
    if index < 0:
        raise codes.UPGRADE_NONE()
    player = state.players[seat]
    if bucket_track().room(player.bucket) <= 0:
        raise codes.UPGRADE_BUCKET_MAX()
    price = action_price(kind, "upgrade_bucket")
    return [
        resolved(seat, index, "upgrade" if kind == "workshop" else ""),
        *pay(state, seat, price, payment_of(cmd), "upgrade_bucket"),
        resources(seat, "upgrade_bucket", bucket=1),
    ]


def clear_land(state: HarvestState, cmd: pb.ClearLand, seat: int, rng: Rng) -> list[pb.Event]:
    """Clear Land (2 Coins): reveal a Forest tile's building into the Workshop, then roll
    the Forest Die (not when cleared by a trade, Rose, or a building's ability)."""
    step = acting_step(state, seat)
    index, kind = allowing(step, CLEAR_TASKS, "clear")
    if index < 0:
        raise codes.CLEAR_NONE()
    player = state.players[seat]
    grid = content().grid
    forest = grid.cell(cmd.forest) if 0 <= cmd.forest < grid.rows * grid.cols else (-1, -1)
    if forest not in player.forests:
        raise codes.CLEAR_NO_FOREST()
    price = action_price(kind, "clear_land")
    events = [
        resolved(seat, index, "clear" if kind == "workshop" else ""),
        *pay(state, seat, price, payment_of(cmd), "clear_land"),
        land_cleared(seat, cmd.forest, draw_building(state, rng), workshop_slot(state)),
    ]
    if kind in ("clear_land", "workshop"):
        events += roll_die(seat, rng)
    return events


def build_cost(state: HarvestState, player: Player, slot: int) -> int:
    """The Workshop row's cost; Floyd the Beaver builds for free."""
    return row_cost(slot, builds_free(player))


def row_cost(slot: int, free: bool) -> int:
    """What building from a Workshop slot costs: its row's Coins, nothing when free."""
    return 0 if free else content().workshop_slot_costs[slot]


def build_sites(player: Player) -> tuple[Cell, ...]:
    """Top-left cells of every cleared 2x2 block (crops may be built over)."""
    return _cleared_blocks(player.forests, tuple(b.cells for b in player.buildings))


@lru_cache(maxsize=4096)
def _cleared_blocks(
    forests: tuple[Cell, ...], buildings: tuple[frozenset[Cell], ...]
) -> tuple[Cell, ...]:
    # Cached: ``legal_commands`` asks once per candidate Build, and the farm rarely changes.
    blocked = forest_blocks(forests).union(*buildings)
    return tuple(top_left for top_left, block in _blocks() if blocked.isdisjoint(block))


@cache
def _blocks() -> tuple[tuple[Cell, frozenset[Cell]], ...]:
    """Every 2x2 block of the field, by its top-left cell, row by row (computed once:
    each farm's sites are the blocks clear of Forests and Buildings)."""
    grid = content().grid
    return tuple(
        ((top, left), frozenset((top + r, left + c) for r in range(2) for c in range(2)))
        for top in range(grid.rows - 1)
        for left in range(grid.cols - 1)
    )


def build(state: HarvestState, cmd: pb.Build, seat: int) -> list[pb.Event]:
    """Build a Building: pay its row's cost and place it on a cleared 2x2 block; crops
    under it are lost. Its "when built" action follows at once."""
    step = acting_step(state, seat)
    index, kind = allowing(step, BUILD_TASKS, "build")
    if index < 0:
        raise codes.BUILD_NONE()
    if not 0 <= cmd.slot < len(state.workshop) or not state.workshop[cmd.slot]:
        raise codes.BUILD_NO_BUILDING()
    player = state.players[seat]
    grid = content().grid
    site = grid.cell(cmd.cell) if 0 <= cmd.cell < grid.rows * grid.cols else (-1, -1)
    if site not in build_sites(player):
        raise codes.BUILD_NO_SITE()
    building = state.workshop[cmd.slot]
    cells = {(site[0] + r, site[1] + c) for r in range(2) for c in range(2)}
    events = [
        resolved(seat, index, "build" if kind == "workshop" else ""),
        *pay(state, seat, build_cost(state, player, cmd.slot), payment_of(cmd), "build"),
        wrap(
            building_built=pb.BuildingBuilt(
                seat=seat, building=building, slot=cmd.slot, cells=cell_numbers(cells)
            )
        ),
    ]
    tasks = content().when_built_tasks(building)
    if tasks:
        events.append(granted(seat, f"built:{building}", tasks, new_step=True))
    return events
