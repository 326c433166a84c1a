"""Fishing: cast in an unlocked area, roll the dice once, catch one fish per action.

The black die picks the column and the white die the row of the area's table; a 1 is
wild (any column or row of its colour). A rod widens the catch area around the square
where the dice meet; with both rods unlocked only one is used per task. A lure (only one
can be unlocked) and an energy bar each add a fishing action. No square is caught twice
in one task, and an empty square catches nothing.
"""

from __future__ import annotations

from collections.abc import Iterator

from engines.core.rng import Rng
from engines.tend import codes
from engines.tend.chopping_and_mining import roll, wild_squares
from engines.tend.content import content
from engines.tend.events import gained, wrap
from engines.tend.state import Player, TendState
from proto import tend_pb2 as pb

__all__ = [
    "aim",
    "aim_candidates",
    "aims",
    "cast",
    "cast_candidates",
    "catch",
    "catch_area",
    "catch_candidates",
    "catchable",
    "open_areas",
]


def open_areas(player: Player) -> list[str]:
    """The pond, and every area unlocked since."""
    return [a for a in content().areas if a == "pond" or a in player.areas]


def cast(state: TendState, cmd: pb.Cast, seat: int, rng: Rng) -> list[pb.Event]:
    """Choose an unlocked area and roll the black and white dice (once per task)."""
    if cmd.area not in content().areas:
        raise codes.AREA_LOCKED(area=cmd.area or "that")
    if cmd.area not in open_areas(state.players[seat]):
        raise codes.AREA_LOCKED(area=cmd.area)
    black, white = roll(rng)
    return [wrap(line_cast=pb.LineCast(seat=seat, area=cmd.area, black=black, white=white))]


def cast_candidates(state: TendState, seat: int) -> Iterator[pb.Cast]:
    for area in open_areas(state.players[seat]):
        yield pb.Cast(area=area)


def aims(player: Player) -> list[tuple[int, str]]:
    """Every (square where the dice meet, rod) the cast allows."""
    task = player.task
    if task is None or not task.area:
        return []
    rods = list(player.rods) or [""]
    return [(square, rod) for square in wild_squares(task.black, task.white) for rod in rods]


def aim(state: TendState, cmd: pb.Aim, seat: int) -> list[pb.Event]:
    """Fix where the dice meet (a wild 1 leaves a choice) and which rod to use."""
    player = state.players[seat]
    if (cmd.rod and cmd.rod not in player.rods) or (not cmd.rod and player.rods):
        raise codes.ROD_LOCKED()
    if (cmd.square, cmd.rod) not in aims(player):
        raise codes.AIM_WRONG()
    return [wrap(aimed=pb.Aimed(seat=seat, square=cmd.square, rod=cmd.rod))]


def aim_candidates(state: TendState, seat: int) -> Iterator[pb.Aim]:
    for square, rod in aims(state.players[seat]):
        yield pb.Aim(square=square, rod=rod)


def catch_area(player: Player) -> list[int]:
    """The squares the aimed rod reaches (just the aimed square without a rod)."""
    task = player.task
    if task is None or task.centre < 0:
        return []
    row, col = divmod(task.centre, 5)
    shape = content().rods[task.rod] if task.rod else frozenset({(0, 0)})
    return sorted(
        (row + dr) * 5 + (col + dc) for dr, dc in shape if 0 <= row + dr < 5 and 0 <= col + dc < 5
    )


def _fish_at(player: Player, square: int) -> str:
    assert player.task is not None
    return content().tables[player.task.area].grid[square // 5][square % 5]


def catchable(player: Player) -> list[int]:
    """Squares of the catch area holding a fish not yet caught this task."""
    task = player.task
    if task is None:
        return []
    return [s for s in catch_area(player) if s not in task.caught and _fish_at(player, s)]


def catch(state: TendState, cmd: pb.Catch, seat: int) -> list[pb.Event]:
    """Spend a fishing action to catch the fish on a square of the catch area."""
    player = state.players[seat]
    task = player.task
    assert task is not None
    if cmd.square not in catch_area(player):
        raise codes.CATCH_OUTSIDE()
    if cmd.square in task.caught:
        raise codes.CATCH_TWICE()
    fish = _fish_at(player, cmd.square)
    if not fish:
        raise codes.CATCH_EMPTY()
    if task.actions < 1:
        raise codes.ACTIONS_SHORT(cost=1, left=task.actions)
    return [
        wrap(actions_changed=pb.ActionsChanged(seat=seat, delta=-1, reason="catch")),
        wrap(fish_caught=pb.FishCaught(seat=seat, square=cmd.square, good=fish)),
        gained(seat, [fish], task.area),
    ]


def catch_candidates(state: TendState, seat: int) -> Iterator[pb.Catch]:
    player = state.players[seat]
    if player.task is not None and player.task.actions >= 1:
        for square in catchable(player):
            yield pb.Catch(square=square)
