"""Turn flow as data: the stage a table is in, who may act, and what each stage takes.

The kit's ``decide`` refuses a command its stage does not take (``command.not_now``,
with the stage's own sentence), and ``legal_commands`` lists candidates stage by stage
from the same table, so the two read one definition. A stage lists its command kinds
in the order ``legal_commands`` lists them.
"""

from __future__ import annotations

from engines.core.flow import Flow, Stage
from engines.harvest.legal import step_offers
from engines.harvest.setup import draft_order
from engines.harvest.state import HarvestState

__all__ = ["FLOW", "stage_of", "to_act"]

# Everything a player may do while resolving a step (a space's actions, a benefit,
# a "when built" action, Sunrise benefits).
STEP_COMMANDS = (
    "take_benefit",
    "reroll_die",
    "purchase",
    "field_action",
    "upgrade_bucket",
    "clear_land",
    "build",
    "trade",
    "upgrade_seed",
    "reuse_space",
    "repeat_building",
    "plant_seed",
    "tend_crop",
    "finish",
)


def to_act(state: HarvestState) -> tuple[int, ...]:
    """The seats that may send a command now: every seat still choosing its Character
    and Farmhouse (at once), the drafting seat, or the seat resolving or taking its turn."""
    if state.phase == "choose_start":
        return tuple(s for s in range(state.seats) if s not in state.done)
    if state.phase == "draft":
        order = draft_order(state)
        return (order[state.draft_picks],) if state.draft_picks < len(order) else ()
    if state.steps:
        return (state.steps[-1].seat,)
    return (state.turn,) if state.turn >= 0 else ()


def stage_of(state: HarvestState) -> str:
    """The stage of an unfinished table (a name of ``FLOW``'s stages)."""
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


def _owed(state: HarvestState) -> str:
    return f"Place the tended {state.steps[-1].owed} first."


FLOW: Flow[HarvestState] = Flow(
    stages=(
        Stage("choose_start", ("keep_start",), "Keep a Character and a Farmhouse first."),
        Stage("draft", ("draft_pick",), "Pick from the draft first."),
        Stage("choose_sunrise", ("choose_sunrise",), "Choose a Sunrise tile first."),
        Stage("place", ("place_worker",), "Place a Player Piece first."),
        Stage("move", ("move_piece", "finish"), "Move a Player Piece, or pass."),
        Stage("plant", ("plant_seed", "finish"), "Finish your plant action first."),
        Stage("tend", ("tend_crop", "finish"), "Finish your tend action first."),
        Stage("owed", ("tend_crop",), _owed),
        Stage(
            "step", STEP_COMMANDS, "That is not one of the actions waiting.", offered=step_offers
        ),
        Stage("waiting", (), "Nobody may act now."),
    ),
    stage_of=stage_of,
    to_act=to_act,
    finished=lambda state: state.phase == "finished",
)
