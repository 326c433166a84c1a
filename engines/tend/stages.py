"""Tend's flow as data: the table's phase, and each seat's own step within it.

The table is in one phase at a time (keeping the first neighbour cards, the task phase,
a neighbour phase, the final neighbour phase), and in every phase all seats act at
once, each at its own pace. So the flow has two levels, both tables of data read by
``decide`` and ``legal_commands`` alike:

- ``FLOW`` (the kit's :class:`~engines.core.flow.Flow`): the phase, which command kinds
  it may take at all, and which seats may act (those not yet done);
- ``STEPS``: where one seat stands in the phase (using what it gained, choosing a card,
  performing a chop task...), the kinds that step takes and the sentence a player reads
  when it sends another. :func:`seat_move` wraps each move so its rule and its
  candidates both go through this table.

A few moves are free at any moment of a seat's phase: spending this turn's coins and
putting a bought animal in a pen; moving an animal is offered between tasks and while
tending (the only times the farm's space matters).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from google.protobuf.message import Message

from engines.core import codes as shared
from engines.core.flow import Flow, Stage
from engines.core.game import Move
from engines.tend.state import TendState
from engines.tend.task_phase import awaiting_half, waiting_task

__all__ = ["FLOW", "STEPS", "Step", "seat_move", "step_of"]

FREE: tuple[str, ...] = ("spend", "place_animal")
USES: tuple[str, ...] = ("spend", "sell", "ship", "gift", "groundskeep", "draw", "discard")


@dataclass(frozen=True, slots=True)
class Step:
    """Where one seat stands: the command kinds it takes and what it waits for."""

    commands: tuple[str, ...]
    waiting_for: str


STEPS: dict[str, Step] = {
    "keep_neighbours": Step(
        ("keep_neighbours",), "Keep two of the four neighbour cards you drew, one a side."
    ),
    "resolve": Step(
        (*USES, "crack_geode", "place_animal"),
        "Use what you gained first: spend, sell, ship, gift or groundskeep it.",
    ),
    "choose_option": Step(
        ("choose_option", "finish", *FREE), "Choose one of the card's options, or skip that half."
    ),
    "choose_task": Step(("choose_task", *FREE), "Choose which task to perform."),
    "tend": Step(
        ("plant", "water", "till", "use_energy", "finish", *FREE, "move_animal"),
        "Plant, water or till, or finish tending.",
    ),
    "chop": Step(("chop", "use_energy", "finish", *FREE), "Chop a square, or finish chopping."),
    "mine": Step(("mine", "use_energy", "finish", *FREE), "Mine a square, or finish mining."),
    "cast": Step(
        ("cast", "use_energy", "finish", *FREE), "Choose where to fish, or finish fishing."
    ),
    "aim": Step(("aim", *FREE), "Say where your dice meet and which rod you use."),
    "catch": Step(("catch", "use_energy", "finish", *FREE), "Catch a fish, or finish fishing."),
    "choose_card": Step(
        ("choose_card", "finish", *FREE, "move_animal"),
        "Choose a task card to resolve, or finish your task phase.",
    ),
    "gifts": Step(("take_gift", *FREE), "Take a good from each card your neighbours gifted you."),
    "keep_neighbour": Step(("keep_neighbour", *FREE), "Keep one of the neighbour cards you drew."),
    "neighbour_free": Step(
        ("discard_neighbour", "finish", *FREE, "move_animal"),
        "Replace neighbour cards if you like, then finish your neighbour phase.",
    ),
    "done": Step(("call_time",), "You are done for this phase: wait for the others."),
    "waiting": Step((), "You are done for this phase: wait for the others."),
}


def _task_step(state: TendState, seat: int) -> str:
    task = state.players[seat].task
    assert task is not None
    if task.kind != "fish":
        return task.kind
    if not task.area:
        return "cast"
    return "aim" if task.centre < 0 else "catch"


def step_of(state: TendState, seat: int) -> str:
    """The step seat ``seat`` is at (a key of ``STEPS``)."""
    player = state.players[seat]
    if state.phase == "start":
        return "waiting" if player.done else "keep_neighbours"
    if player.done:
        timer = state.round_timer and state.phase == "tasks"
        return "done" if timer else "waiting"
    if player.pending or player.geodes:
        return "resolve"
    if player.task is not None:
        return _task_step(state, seat)
    waiting = waiting_task(player)
    if waiting is not None:
        return "choose_task"
    if awaiting_half(state, player):
        return "choose_option"
    if state.phase == "tasks":
        return "choose_card"
    if player.gifts:
        return "gifts"
    if player.drawn:
        return "keep_neighbour"
    return "neighbour_free"


def seat_move(kind: str, move: Move[TendState]) -> Move[TendState]:
    """``move`` taken only at the steps that list ``kind`` (refused with the step's
    sentence elsewhere), its candidates listed only there."""
    rule = move.rule

    def _check(state: TendState, seat: int) -> None:
        step = STEPS[step_of(state, seat)]
        if kind not in step.commands:
            raise shared.COMMAND_NOT_NOW(waiting_for=step.waiting_for)

    def checked(state: TendState, body: Message, seat: int, *rng: object) -> object:
        _check(state, seat)
        return rule(state, body, seat, *rng)

    def listed(state: TendState, seat: int) -> Iterable[Message]:
        if kind not in STEPS[step_of(state, seat)].commands:
            return ()
        return move.candidates(state, seat)

    return Move(checked, listed, draws=move.draws, exact=move.exact)  # type: ignore[arg-type]


def _to_act(state: TendState) -> tuple[int, ...]:
    return tuple(s for s in range(state.seats) if STEPS[step_of(state, s)].commands)


def _kinds(*steps: str) -> tuple[str, ...]:
    kinds: list[str] = []
    for step in steps:
        kinds += [k for k in STEPS[step].commands if k not in kinds]
    return tuple(kinds)


_WORK = ("resolve", "choose_option", "choose_task", "tend", "chop", "mine", "cast", "aim", "catch")
_NEIGHBOUR = (*_WORK, "gifts", "keep_neighbour", "neighbour_free")

FLOW: Flow[TendState] = Flow(
    stages=(
        Stage("setup", (), "The table is not set up yet."),
        Stage("start", _kinds("keep_neighbours"), STEPS["keep_neighbours"].waiting_for),
        Stage("tasks", _kinds(*_WORK, "choose_card", "done"), "Resolve your task cards."),
        Stage("neighbour", _kinds(*_NEIGHBOUR), "Finish your neighbour phase."),
        Stage("final", _kinds(*_NEIGHBOUR), "Finish the last neighbour phase."),
    ),
    stage_of=lambda state: state.phase or "setup",
    to_act=_to_act,
    finished=lambda state: state.phase == "finished",
)
