"""Turn flow as data: the stage a table is in, and the commands each stage accepts.

``decide`` refuses a command its stage does not list (with the stage's own code and
message), and ``legal_commands`` generates candidates stage by stage from the same
table, so the two read one definition.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.harvest import codes
from engines.harvest.codes import Refusal
from engines.harvest.state import HarvestState

__all__ = ["STAGES", "Stage", "stage_of"]


@dataclass(frozen=True, slots=True)
class Stage:
    """What may happen now: the command kinds accepted, and how others are refused."""

    commands: frozenset[str]
    refusal: Refusal


_STEP = frozenset(
    {
        "take_benefit",
        "purchase",
        "field_action",
        "plant_seed",
        "tend_crop",
        "upgrade_bucket",
        "clear_land",
        "build",
        "trade",
        "upgrade_seed",
        "reuse_space",
        "repeat_building",
        "reroll_die",
        "finish",
    }
)

STAGES: dict[str, Stage] = {
    "choose_start": Stage(frozenset({"keep_start"}), codes.START_CHOOSE_FIRST),
    "draft": Stage(frozenset({"draft_pick"}), codes.DRAFT_PICK_FIRST),
    "choose_sunrise": Stage(frozenset({"choose_sunrise"}), codes.SUNRISE_CHOOSE_FIRST),
    "place": Stage(frozenset({"place_worker"}), codes.PLACE_FIRST),
    "move": Stage(frozenset({"move_piece", "finish"}), codes.MOVE_FIRST),
    "plant": Stage(frozenset({"plant_seed", "finish"}), codes.PLANT_IN_PROGRESS),
    "tend": Stage(frozenset({"tend_crop", "finish"}), codes.TEND_IN_PROGRESS),
    "owed": Stage(frozenset({"tend_crop"}), codes.TEND_OWED),
    "step": Stage(_STEP, codes.STEP_NOT_NOW),
    "waiting": Stage(frozenset(), codes.TURN_NOT_YOURS),
    "finished": Stage(frozenset(), codes.GAME_OVER),
}


def stage_of(state: HarvestState) -> str:
    """The stage of the table (a key of ``STAGES``)."""
    if state.phase == "finished":
        return "finished"
    if state.phase in ("choose_start", "draft"):
        return state.phase
    if state.steps:
        top = state.steps[-1]
        return "owed" if top.owed else top.mode or "step"
    if state.phase == "sunrise" and state.awaiting == "choose":
        return "choose_sunrise"
    if state.phase == "actions" and state.awaiting == "place":
        return "place"
    if state.phase == "jaime" and state.awaiting == "move":
        return "move"
    return "waiting"
