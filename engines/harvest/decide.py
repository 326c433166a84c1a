"""``decide``: route a command to the rule that handles it, then run the automatic steps."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.core.errors import RuleViolation
from engines.core.rng import Rng
from engines.harvest import codes
from engines.harvest.actions import move_piece, place_worker, reuse_space
from engines.harvest.benefits import reroll_die, take_benefit
from engines.harvest.buildings import repeat_building
from engines.harvest.events import wrap
from engines.harvest.evolve import evolve
from engines.harvest.fields import field_action, plant_seed, tend_crop
from engines.harvest.flow import advance
from engines.harvest.setup import draft_order, draft_pick, keep_start
from engines.harvest.stages import STAGES, Stage, stage_of
from engines.harvest.state import HarvestState
from engines.harvest.store import purchase
from engines.harvest.sunrise import choose_sunrise
from engines.harvest.trading import trade, upgrade_seed
from engines.harvest.workshop import build, clear_land, upgrade_bucket
from proto import harvest_pb2 as pb

__all__ = ["apply_rule", "decide", "to_act"]

Handler = Callable[[HarvestState, Any, int, Rng], list[pb.Event]]


def to_act(state: HarvestState) -> tuple[int, ...]:
    """The seats that may send a command now."""
    if state.phase == "choose_start":
        return tuple(s for s in range(state.seats) if s not in state.done)
    if state.phase == "draft":
        order = draft_order(state)
        return (order[state.draft_picks],) if state.draft_picks < len(order) else ()
    if state.steps:
        return (state.steps[-1].seat,)
    return (state.turn,) if state.turn >= 0 else ()


def finish(state: HarvestState, cmd: pb.Finish, seat: int) -> list[pb.Event]:
    """End what is being resolved: a sub-action, a space's actions, a turn; or pass
    on Jaime's move. Remaining optional benefits are given up."""
    step = state.steps[-1] if state.steps else None
    if step is not None:
        if step.owed:
            raise codes.TEND_OWED(crop=step.owed)
        return [wrap(step_finished=pb.StepFinished(seat=seat))]
    if state.phase == "jaime" and state.awaiting == "move":
        return [wrap(step_finished=pb.StepFinished(seat=seat))]
    raise codes.FINISH_NOT_NOW()


def _no_rng(rule: Callable[[HarvestState, Any, int], list[pb.Event]]) -> Handler:
    return lambda state, cmd, seat, rng: rule(state, cmd, seat)


HANDLERS: dict[str, Handler] = {
    "keep_start": _no_rng(keep_start),
    "draft_pick": _no_rng(draft_pick),
    "choose_sunrise": _no_rng(choose_sunrise),
    "place_worker": _no_rng(place_worker),
    "take_benefit": take_benefit,
    "purchase": _no_rng(purchase),
    "field_action": _no_rng(field_action),
    "plant_seed": _no_rng(plant_seed),
    "tend_crop": _no_rng(tend_crop),
    "upgrade_bucket": _no_rng(upgrade_bucket),
    "clear_land": clear_land,
    "build": _no_rng(build),
    "trade": _no_rng(trade),
    "upgrade_seed": _no_rng(upgrade_seed),
    "reuse_space": _no_rng(reuse_space),
    "repeat_building": _no_rng(repeat_building),
    "reroll_die": reroll_die,
    "move_piece": _no_rng(move_piece),
    "finish": _no_rng(finish),
}


def _refused(state: HarvestState, stage: Stage) -> RuleViolation:
    """The stage's refusal; a crop owed by a Tend is named in the message."""
    return stage.refusal(crop=state.steps[-1].owed if state.steps else "")


def apply_rule(state: HarvestState, command: pb.Command, seat: int, rng: Rng) -> list[pb.Event]:
    """The command's own events (without what follows automatically), or RuleViolation."""
    stage = STAGES[stage_of(state)]
    if state.phase == "finished":
        raise _refused(state, stage)
    if seat not in to_act(state):
        raise codes.TURN_NOT_YOURS()
    kind = command.WhichOneof("kind")
    if kind is None:
        raise codes.COMMAND_EMPTY()
    if kind not in stage.commands:
        raise _refused(state, stage)
    return HANDLERS[kind](state, getattr(command, kind), seat, rng)


def decide(state: HarvestState, command: pb.Command, seat: int, rng: Rng) -> list[pb.Event]:
    """The events a command produces, followed by the automatic ones."""
    events = apply_rule(state, command, seat, rng)
    after = state
    for event in events:
        after = evolve(after, event)
    return events + advance(after, rng)
