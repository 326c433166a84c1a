"""Taking simple benefits: gains, the Forest Die, Remi's choice, end-game buildings."""

from __future__ import annotations

from functools import cache

from engines.core.dice import Die
from engines.core.rng import Rng
from engines.harvest import codes
from engines.harvest.buildings import end_game_points
from engines.harvest.content import content
from engines.harvest.events import die_rolled, granted, resolved, resources
from engines.harvest.rules import acting_step, gain
from engines.harvest.state import HarvestState, Task
from proto import harvest_pb2 as pb

__all__ = ["SIMPLE", "is_simple", "options_for", "reroll_die", "roll_die", "take_benefit"]

SIMPLE = frozenset(
    {
        "coin",
        "water",
        "fertilizer",
        "points",
        "fill_bucket",
        "upgrade_bucket",
        "reroll",
        "water_or_fertilizer",
        "remi",
        "roll_die",
    }
)


def is_simple(task: Task) -> bool:
    return (
        task.kind in SIMPLE
        or task.kind.startswith("seed:")
        or task.kind.startswith("die:")
        or task.kind.startswith("end:")
    )


def options_for(task: Task) -> tuple[str, ...]:
    """The choices a benefit offers (``""``: none to make)."""
    if task.kind == "water_or_fertilizer":
        return ("water", "fertilizer")
    if task.kind == "remi":
        return ("again", "coin")
    return ("",)


@cache
def forest_die() -> Die[int]:
    """Components › Forest Die: its faces, by their index in the die's data."""
    return Die(tuple(range(len(content().die_faces))))


def roll_die(seat: int, rng: Rng, again: bool = False) -> list[pb.Event]:
    """Roll the Forest Die and "gain the benefit rolled": the face's benefit opens a step
    of its own, taken (or re-rolled, or given up) before anything else; a re-roll
    (``again``) puts the new face in that same step."""
    face = forest_die().roll(rng)
    return [
        die_rolled(seat, face),
        granted(seat, "forest_die", [(f"die:{face}", 1)], new_step=not again),
    ]


def take_benefit(state: HarvestState, cmd: pb.TakeBenefit, seat: int, rng: Rng) -> list[pb.Event]:
    """Sunrise Phase 2 / Icon Reference: take one waiting benefit, in the order you choose."""
    step = acting_step(state, seat)
    index, option = cmd.task, cmd.option
    if not 0 <= index < len(step.tasks):
        raise codes.BENEFIT_UNKNOWN()
    task = step.tasks[index]
    if not is_simple(task):
        raise codes.BENEFIT_NEEDS_ACTION()
    if option not in options_for(task):
        raise codes.BENEFIT_BAD_OPTION()
    done = resolved(seat, index)
    kind = task.kind
    if kind == "water_or_fertilizer":
        return [done, *gain(state, seat, option, 1, "space")]
    if kind == "remi":
        if option == "coin":
            return [done, resources(seat, "remi", coins=1)]
        benefit = content().sunrise_tile(state.players[seat].sunrise)[1]
        return [done, granted(seat, "remi", [benefit], new_step=False)]
    if kind == "roll_die":
        return [done, *roll_die(seat, rng)]
    if kind.startswith("die:"):
        face = content().die_faces[int(kind.removeprefix("die:"))]
        return [done, *(e for k, a in face for e in gain(state, seat, k, a, "forest_die"))]
    if kind.startswith("end:"):
        building = kind.removeprefix("end:")
        rule = content().end_game_rule(building)
        if rule is not None and rule[0] == "field_action":
            return [done, granted(seat, f"end:{building}", [("field", 1)], new_step=False)]
        points = end_game_points(state, seat, building)
        return [done, *([resources(seat, f"end:{building}", points=points)] if points else [])]
    return [done, *gain(state, seat, kind, task.amount, step.source)]


def reroll_die(state: HarvestState, cmd: pb.RerollDie, seat: int, rng: Rng) -> list[pb.Event]:
    """Farmhouse: re-roll the Forest Die once (one re-roll each round)."""
    step = acting_step(state, seat)
    if not 0 <= cmd.task < len(step.tasks) or not step.tasks[cmd.task].kind.startswith("die:"):
        raise codes.REROLL_NO_ROLL()
    if state.players[seat].rerolls < 1:
        raise codes.REROLL_NONE_LEFT()
    return [
        resources(seat, "reroll", rerolls=-1),
        resolved(seat, cmd.task),
        *roll_die(seat, rng, again=True),
    ]
