"""Turns: two different actions (wind: may be the same; sun: a third), then the next player.

Also the end of the game: once the Emperor is awarded, the others each play one last
turn; the game then ends when the turn would come back to the Emperor's holder.
"""

from __future__ import annotations

from engines.core.errors import RuleViolation
from engines.core.rng import Rng
from engines.freunde.endgame import game_ended
from engines.freunde.movers import gardener_moves, panda_moves
from engines.freunde.objectives import drawable_kinds
from engines.freunde.plots import has_plot_spot
from engines.freunde.state import ACTIONS, FreundeState, Phase
from engines.freunde.weather import roll_weather
from proto import freunde_pb2 as pb

__all__ = ["action_limit", "can_end_turn", "check_action", "end_turn", "may_take"]

_REQUIRED_ACTIONS = 2


def action_limit(state: FreundeState) -> int:
    """Two actions; the sun gives a third."""
    return _REQUIRED_ACTIONS + (1 if state.weather == "sun" else 0)


def action_possible(state: FreundeState, seat: int, action: str) -> bool:
    """Whether the action could be carried out at all in this position."""
    if action == "plot":
        return bool(state.plot_stack) and has_plot_spot(state)
    if action == "irrigation":
        return state.irrigation_supply > 0
    if action == "gardener":
        return bool(gardener_moves(state))
    if action == "panda":
        return bool(panda_moves(state))
    return bool(drawable_kinds(state, seat))


def _allowed_by_turn(state: FreundeState, action: str) -> bool:
    if len(state.actions) >= action_limit(state):
        return False
    return action not in state.actions or state.weather == "wind"


def check_action(state: FreundeState, action: str) -> None:
    """Turns › step 2: raise unless one more action of this kind fits in the turn."""
    if len(state.actions) >= action_limit(state):
        raise RuleViolation("turn.no_actions_left", "You have used all your actions this turn.")
    if action in state.actions and state.weather != "wind":
        raise RuleViolation(
            "turn.same_action", "Your actions must be different (unless the wind blows)."
        )


def may_take(state: FreundeState, seat: int, action: str) -> bool:
    return (
        state.phase == Phase.ACTIONS
        and _allowed_by_turn(state, action)
        and action_possible(state, seat, action)
    )


def can_end_turn(state: FreundeState, seat: int) -> bool:
    """After the two required actions, or when no further action is possible."""
    if state.phase != Phase.ACTIONS:
        return False
    if len(state.actions) >= _REQUIRED_ACTIONS:
        return True
    return not any(may_take(state, seat, action) for action in ACTIONS)


def end_turn(state: FreundeState, seat: int, rng: Rng) -> list[pb.Event]:
    """End the turn; start the next one (with its weather after the first round) or end."""
    if not can_end_turn(state, seat):
        raise RuleViolation(
            "turn.actions_remaining", "Take your two actions before ending your turn."
        )
    events = [pb.Event(turn_ended=pb.TurnEnded(seat=seat))]
    following = (seat + 1) % state.seats
    if state.emperor >= 0 and following == state.emperor:
        return [*events, game_ended(state, "emperor")]
    next_round = state.round + (1 if following == state.first_player else 0)
    if next_round > state.round_limit:
        return [*events, game_ended(state, "round_limit")]
    events.append(pb.Event(turn_started=pb.TurnStarted(seat=following, round=next_round)))
    if next_round > 1:
        events.append(roll_weather(following, rng))
    return events
