"""Buildings: Windmill's repeat and the "End Game" buildings' scoring."""

from __future__ import annotations

from collections.abc import Iterable

from engines.core.polyomino import adjacent
from engines.harvest import codes
from engines.harvest.content import TaskSpec, content
from engines.harvest.events import granted, resolved
from engines.harvest.rules import acting_step, water_track
from engines.harvest.state import Crop, HarvestState, Player
from proto import harvest_pb2 as pb

__all__ = ["crop_types", "end_game_points", "end_game_tasks", "repeat_building", "repeatable"]


def repeatable(player: Player) -> tuple[str, ...]:
    """Windmill: your previously built "when built" buildings (not the Windmill itself)."""
    c = content()
    return tuple(
        b.building
        for b in player.buildings
        if c.when_built_tasks(b.building) and b.building != "windmill"
    )


def repeat_building(state: HarvestState, cmd: pb.RepeatBuilding, seat: int) -> list[pb.Event]:
    """Windmill: gain one of your previous "when built" benefits again."""
    step = acting_step(state, seat)
    kinds = [t.kind for t in step.tasks]
    if "repeat_built" not in kinds:
        raise codes.WINDMILL_NONE()
    if cmd.building not in repeatable(state.players[seat]):
        raise codes.WINDMILL_NOT_BUILT()
    tasks = content().when_built_tasks(cmd.building)
    return [
        resolved(seat, kinds.index("repeat_built")),
        granted(seat, f"built:{cmd.building}", tasks, new_step=True),
    ]


def end_game_tasks(player: Player) -> list[TaskSpec]:
    """Game End 1: each "End Game" building on the farm, resolved in the player's order."""
    c = content()
    return [
        (f"end:{b.building}", 1)
        for b in player.buildings
        if (rule := c.end_game_rule(b.building)) is not None and rule[0] != "points"
    ]


def crop_types(crops: Iterable[Crop]) -> set[str]:
    """The Crop types growing: a Bush counts only while it carries a Blueberry."""
    types: set[str] = set()
    for crop in crops:
        if crop.kind != "bush":
            types.add(crop.kind)
        if crop.berry:
            types.add("blueberry")
    return types


def end_game_points(state: HarvestState, seat: int, building: str) -> int:
    """ "End Game" Buildings: the points one building scores now."""
    c = content()
    rule = c.end_game_rule(building)
    if rule is None:
        return 0
    kind, per = rule
    player = state.players[seat]
    if kind == "coins_pairs":
        return player.coins // 2
    if kind == "adjacent_crop_types":
        cells = next(b.cells for b in player.buildings if b.building == building)
        return per * len(crop_types(x for x in player.crops if adjacent(cells, x.cells)))
    if kind == "planted_crop_types":
        return per * len(crop_types(player.crops))
    if kind == "seed_types":
        return per * sum(1 for n in player.seeds if n > 0)
    if kind == "end_game_buildings":
        return per * sum(1 for b in player.buildings if c.end_game_rule(b.building))
    if kind == "full_bucket":
        return per if water_track(player).room(player.water) == 0 else 0
    if kind == "fertilizer":
        return per * player.fertilizer
    if kind == "forests":
        return per * len(player.forests)
    return 0
