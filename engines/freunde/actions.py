"""Turns › step 2: "Performing 2 different actions" — the sun adds a third, the wind
allows two identical ones.

Every action's rule (plots, irrigation, gardener, panda, objective) first asks
:func:`check_action` whether one more action of its kind fits in the turn.
"""

from __future__ import annotations

from engines.freunde import codes
from engines.freunde.state import FreundeState

__all__ = ["REQUIRED_ACTIONS", "action_limit", "check_action", "fits_in_turn"]

REQUIRED_ACTIONS = 2


# Two actions; the sun gives a third.
_LIMITS = {"sun": REQUIRED_ACTIONS + 1}


def action_limit(state: FreundeState) -> int:
    """How many actions the turn allows."""
    return _LIMITS.get(state.turn.weather, REQUIRED_ACTIONS)


def fits_in_turn(state: FreundeState, action: str) -> bool:
    """Whether one more ``action`` fits: actions left, and different unless windy."""
    turn = state.turn
    taken = turn.actions
    # action_limit, read here directly: every listing asks this for each action.
    if len(taken) >= _LIMITS.get(turn.weather, REQUIRED_ACTIONS):
        return False
    return action not in taken or turn.weather == "wind"


def check_action(state: FreundeState, action: str) -> None:
    """Raise unless one more action of this kind fits in the turn."""
    turn = state.turn
    taken = turn.actions
    if len(taken) >= action_limit(state):
        raise codes.TURN_NO_ACTIONS_LEFT()
    if action in taken and turn.weather != "wind":
        raise codes.TURN_SAME_ACTION()
