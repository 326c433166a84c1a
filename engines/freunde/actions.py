"""Turns › step 2: "Performing 2 different actions" — the sun adds a third, the wind
allows two identical ones.

Every action's rule (plots, irrigation, gardener, panda, objective) first asks
:func:`check_action` whether one more action of its kind fits in the turn; listings read
``FreundeState.open_actions``, the answer for each action that the recorders keep.
"""

from __future__ import annotations

import functools

from engines.freunde import codes
from engines.freunde.state import ACTIONS, FreundeState

__all__ = ["REQUIRED_ACTIONS", "action_limit", "check_action", "open_actions"]

REQUIRED_ACTIONS = 2


# Two actions; the sun gives a third.
_LIMITS = {"sun": REQUIRED_ACTIONS + 1}


def action_limit(state: FreundeState) -> int:
    """How many actions the turn allows."""
    return _LIMITS.get(state.weather, REQUIRED_ACTIONS)


@functools.lru_cache(maxsize=256)
def open_actions(taken: tuple[str, ...], weather: str) -> frozenset[str]:
    """The actions of which one more fits in a turn that took ``taken`` under ``weather``:
    actions left, and different unless windy. The recorders keep the answer in
    ``FreundeState.open_actions``, which every listing reads for each action."""
    if len(taken) >= _LIMITS.get(weather, REQUIRED_ACTIONS):
        return frozenset()
    return frozenset(a for a in ACTIONS if a not in taken or weather == "wind")


def check_action(state: FreundeState, action: str) -> None:
    """Raise unless one more action of this kind fits in the turn."""
    taken = state.actions
    if len(taken) >= action_limit(state):
        raise codes.TURN_NO_ACTIONS_LEFT()
    if action in taken and state.weather != "wind":
        raise codes.TURN_SAME_ACTION()
