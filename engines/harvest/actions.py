"""Action Phase: placing Player Pieces, and the abilities that re-use action spaces."""

from __future__ import annotations

from engines.harvest import codes
from engines.harvest.content import Space, content
from engines.harvest.events import granted, resolved, worker_placed, wrap
from engines.harvest.rules import (
    acting_step,
    is_open,
    pay,
    payment_of,
    space_cost,
    space_named,
    space_tasks,
)
from engines.harvest.state import HarvestState
from proto import harvest_pb2 as pb

__all__ = ["move_piece", "place_worker", "reuse_space", "reuse_task", "space_in_play"]


def space_in_play(state: HarvestState, space_id: str) -> Space:
    space = space_named(state, space_id)
    if space is None:
        raise codes.SPACE_UNKNOWN()
    return space


def _visit(state: HarvestState, seat: int, space: Space, payment: pb.Payment) -> list[pb.Event]:
    source = f"space:{space.id}"
    return [
        *pay(state, seat, space_cost(state, space), payment, source),
        granted(seat, source, space_tasks(state, space), new_step=True),
    ]


def place_worker(state: HarvestState, cmd: pb.PlaceWorker, seat: int) -> list[pb.Event]:
    """Action Phase: put a piece on an Open action space, pay its cost, take its actions."""
    space = space_in_play(state, cmd.space)
    if not is_open(state, space):
        raise codes.SPACE_CLOSED()
    visit = _visit(state, seat, space, payment_of(cmd))
    return [worker_placed(seat, space.id), *visit]


def reuse_space(state: HarvestState, cmd: pb.ReuseSpace, seat: int) -> list[pb.Event]:
    """Backyard Shed (any 2-action space, closed or not) and Printing Press (a space
    holding one of your pieces, paying its cost again)."""
    step = acting_step(state, seat)
    space = space_in_play(state, cmd.space)
    index = reuse_task(state, seat, space)
    if index < 0:
        kinds = {t.kind for t in step.tasks}
        raise codes.REUSE_WRONG_SPACE() if kinds & REUSES else codes.REUSE_NONE()
    return [resolved(seat, index), *_visit(state, seat, space, payment_of(cmd))]


REUSES = frozenset({"two_space", "repeat_space"})


def reuse_task(state: HarvestState, seat: int, space: Space) -> int:
    """The waiting task that lets the seat use ``space`` again, or -1: Backyard Shed's
    for a 2-action space, Printing Press's for a space holding one of its pieces."""
    kinds = [t.kind for t in state.steps[-1].tasks]
    if "two_space" in kinds and space.id in content().two_action_spaces:
        return kinds.index("two_space")
    if "repeat_space" in kinds and (space.id, seat) in state.placements:
        return kinds.index("repeat_space")
    return -1


def move_piece(state: HarvestState, cmd: pb.MovePiece, seat: int) -> list[pb.Event]:
    """Jaime the Rabbit: after all placements, move one piece to an Open space and act."""
    if (cmd.from_space, seat) not in state.placements:
        raise codes.MOVE_NO_PIECE()
    target = space_in_play(state, cmd.to_space)
    if target.id == cmd.from_space:
        raise codes.MOVE_SAME_SPACE()
    if not is_open(state, target):
        raise codes.SPACE_CLOSED()
    moved = wrap(
        piece_moved=pb.PieceMoved(seat=seat, from_space=cmd.from_space, to_space=target.id)
    )
    return [moved, *_visit(state, seat, target, payment_of(cmd))]
