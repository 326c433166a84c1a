"""The Solo Challenge Almanac: a solo game's set-up changes and its goal, judged at Game End.

The rulebook sends solo players to the Almanac "for challenges and specific setup related
to challenges" without printing it; the challenges are reconstructed content
(``data/challenges.json``), chosen with the table option ``challenge``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.harvest import codes
from engines.harvest.buildings import crop_types
from engines.harvest.content import Challenge, Goal, content
from engines.harvest.state import HarvestState

__all__ = ["NO_CHALLENGE", "challenge_result", "chosen_challenge", "goal_met", "measure"]

NO_CHALLENGE = "none"


def chosen_challenge(seats: int, options: Mapping[str, Any]) -> Challenge | None:
    """Game Setup: "If you are playing solo, visit the Solo Challenge Almanac": the
    challenge the table chose, or ``None``; a challenge needs exactly one player."""
    name = options.get("challenge", NO_CHALLENGE)
    if name == NO_CHALLENGE:
        return None
    challenge = content().challenge(name)
    if challenge is None:
        raise codes.CHALLENGE_UNKNOWN()
    if seats != 1:
        raise codes.CHALLENGE_SOLO()
    return challenge


def measure(state: HarvestState, seat: int, name: str) -> int:
    """What a goal counts at Game End: the final score, Buildings on the farm, Forests
    left, Blueberry Bushes, different Crop types growing."""
    player = state.players[seat]
    if name == "score":
        return state.final[seat].total
    if name == "buildings":
        return len(player.buildings)
    if name == "forests":
        return len(player.forests)
    if name == "bushes":
        return sum(1 for crop in player.crops if crop.kind == "bush")
    if name == "crop_types":
        return len(crop_types(player.crops))
    raise ValueError(f"no such challenge measure: {name}")


def goal_met(goal: Goal, value: int) -> bool:
    return (goal.at_least is None or value >= goal.at_least) and (
        goal.at_most is None or value <= goal.at_most
    )


def challenge_result(state: HarvestState) -> dict[str, Any] | None:
    """A finished challenge game: each goal with what was reached, and whether all are met."""
    challenge = content().challenge(state.challenge)
    if challenge is None or not state.final:
        return None
    goals = []
    for goal in challenge.goals:
        value = measure(state, 0, goal.measure)
        bound = {"at_least": goal.at_least} if goal.at_least is not None else {}
        bound |= {"at_most": goal.at_most} if goal.at_most is not None else {}
        goals.append(
            {"measure": goal.measure, **bound, "value": value, "met": goal_met(goal, value)}
        )
    return {
        "id": challenge.id,
        "title": challenge.title,
        "met": all(g["met"] for g in goals),
        "goals": goals,
    }
