"""Tasks & Actions: how many actions a task has, energy bars, and when a task is over.

A task starts with 1 action, +1 for its upgraded tool (hatchet, pickaxe, farm tools; a
lure for fishing) when the upgrade was unlocked before the task began (tools are not
retroactive), plus any extra actions its card shows. Once per task a player may cross a
charge of an unlocked energy bar for +1 action; each bar holds two charges.
"""

from __future__ import annotations

from collections.abc import Iterator

from engines.tend import codes
from engines.tend.chopping_and_mining import scratch_options
from engines.tend.events import wrap
from engines.tend.fishing import catchable
from engines.tend.state import Player, TendState, Waiting
from engines.tend.tending import tend_possible
from proto import tend_pb2 as pb

__all__ = [
    "can_continue",
    "starting_actions",
    "task_began",
    "use_energy",
    "use_energy_candidates",
]


def starting_actions(player: Player, task: str, bonus: int) -> int:
    """1, +1 for the task's upgrade, + the card's extra actions."""
    upgraded = player.lure if task == "fish" else task in player.tools
    return 1 + int(upgraded) + bonus


def task_began(state: TendState, seat: int, waiting: Waiting, task: str) -> pb.Event:
    actions = starting_actions(state.players[seat], task, waiting.bonus)
    began = pb.TaskBegan(seat=seat, task=task, actions=actions, source=waiting.source)
    return wrap(task_began=began)


def _energy_ready(player: Player) -> bool:
    task = player.task
    return task is not None and not task.energy_used and any(c > 0 for _, c in player.energy)


def can_continue(state: TendState, seat: int) -> bool:
    """Whether the task in hand can still do anything (with an energy charge if one may
    be used); a task that cannot is over."""
    player = state.players[seat]
    task = player.task
    if task is None:
        return False
    budget = task.actions + int(_energy_ready(player))
    if budget <= 0:
        return False
    if task.kind == "tend":
        return tend_possible(state, seat)
    if task.kind in ("chop", "mine"):
        return any(cost <= budget for _, cost in scratch_options(player, task.kind))
    if task.kind == "fish":
        return task.centre < 0 or bool(catchable(player))
    return False


def use_energy(state: TendState, cmd: pb.UseEnergy, seat: int) -> list[pb.Event]:
    """Energy Bars: cross a charge for +1 action, once per task."""
    player = state.players[seat]
    if player.task is not None and player.task.energy_used:
        raise codes.ENERGY_USED()
    if player.charges(cmd.bar) < 1:
        raise codes.ENERGY_EMPTY()
    return [
        wrap(energy_used=pb.EnergyUsed(seat=seat, bar=cmd.bar)),
        wrap(actions_changed=pb.ActionsChanged(seat=seat, delta=1, reason="energy")),
    ]


def use_energy_candidates(state: TendState, seat: int) -> Iterator[pb.UseEnergy]:
    player = state.players[seat]
    if _energy_ready(player):
        for bar, charges in player.energy:
            if charges > 0:
                yield pb.UseEnergy(bar=bar)
