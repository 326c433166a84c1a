"""Turn flow as data: the stage a table is in, and the commands each stage accepts.

``decide`` refuses a command its stage does not list (with the stage's own code and
message), and ``legal_commands`` generates candidates stage by stage from the same
table, so the two read one definition.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.harvest.state import HarvestState

__all__ = ["STAGES", "Stage", "stage_of"]


@dataclass(frozen=True, slots=True)
class Stage:
    """What may happen now: the command kinds accepted, and how others are refused."""

    commands: frozenset[str]
    code: str
    message: str


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
    "choose_start": Stage(
        frozenset({"keep_start"}), "start.choose_first", "Keep a Character and a Farmhouse first."
    ),
    "draft": Stage(frozenset({"draft_pick"}), "draft.pick_first", "Pick from the draft first."),
    "choose_sunrise": Stage(
        frozenset({"choose_sunrise"}), "sunrise.choose_first", "Choose a Sunrise tile first."
    ),
    "place": Stage(frozenset({"place_worker"}), "place.first", "Place a Player Piece first."),
    "move": Stage(
        frozenset({"move_piece", "finish"}), "move.first", "Move a Player Piece, or pass."
    ),
    "plant": Stage(
        frozenset({"plant_seed", "finish"}), "plant.in_progress", "Finish your plant action first."
    ),
    "tend": Stage(
        frozenset({"tend_crop", "finish"}), "tend.in_progress", "Finish your tend action first."
    ),
    "owed": Stage(frozenset({"tend_crop"}), "tend.owed", "Place the tended crop first."),
    "step": Stage(_STEP, "step.not_now", "That is not one of the actions waiting."),
    "waiting": Stage(frozenset(), "turn.not_yours", "Nobody may act right now."),
    "finished": Stage(frozenset(), "game.over", "The game is over."),
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
