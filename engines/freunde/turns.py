"""Turns: after the actions the turn ends and the next player's begins, with its weather
(except on a player's first turn).

Also the end of the game: once the Emperor is awarded, the others each play one last
turn; the game then ends when the turn would come back to the Emperor's holder. The
table's ``round_limit`` (a safeguard, not in the rulebook) scores a stalled game.
"""

from __future__ import annotations

from engines.core.rng import Rng
from engines.freunde import codes, wire
from engines.freunde.actions import REQUIRED_ACTIONS
from engines.freunde.game_end import game_ended
from engines.freunde.gardener_and_panda import gardener_reach, panda_reach
from engines.freunde.objectives import drawable_kinds
from engines.freunde.plots import can_draw
from engines.freunde.state import ACTIONS, FreundeState
from engines.freunde.weather import roll_weather
from proto import freunde_pb2 as pb

__all__ = ["action_possible", "can_end_turn", "end_turn", "turn_ends"]


def action_possible(state: FreundeState, seat: int, action: str) -> bool:
    """Whether the action could be carried out at all in this position."""
    if action == "plot":
        return can_draw(state)
    if action == "irrigation":
        return state.supply.irrigation > 0
    if action == "gardener":
        return bool(gardener_reach(state))
    if action == "panda":
        return bool(panda_reach(state))
    return bool(drawable_kinds(state, seat))


def can_end_turn(state: FreundeState, seat: int) -> bool:
    """After the two required actions, or when no further action is possible."""
    if len(state.actions) >= REQUIRED_ACTIONS:
        return True
    opened = state.open_actions
    # A loop rather than any(): asked on every listing, and mostly stopped by the first.
    for action in ACTIONS:
        if action in opened and action_possible(state, seat, action):
            return False
    return True


_TURN_ENDED: wire.EventBytes[int] = wire.EventBytes(
    lambda seat: pb.Event(turn_ended=pb.TurnEnded(seat=seat))
)
# By seat and round.
_TURN_STARTED: wire.EventBytes[tuple[int, int]] = wire.EventBytes(
    lambda started: pb.Event(turn_started=pb.TurnStarted(seat=started[0], round=started[1]))
)


def end_turn(state: FreundeState, cmd: pb.EndTurn, seat: int, rng: Rng) -> list[pb.Event]:
    """End the turn; start the next one (with its weather after the first round) or end."""
    if not can_end_turn(state, seat):
        raise codes.TURN_ACTIONS_REMAINING()
    events = [wire.event(_TURN_ENDED[seat])]
    following = (seat + 1) % state.seats
    if state.emperor >= 0 and following == state.emperor:
        return [*events, game_ended(state, "emperor")]
    next_round = state.turn.round + (1 if following == state.first_player else 0)
    if next_round > state.round_limit:
        return [*events, game_ended(state, "round_limit")]
    events.append(wire.event(_TURN_STARTED[following, next_round]))
    if next_round > 1:
        events.append(roll_weather(following, rng))
    return events


_END = pb.EndTurn()


_ENDS = (_END,)


def turn_ends(state: FreundeState, seat: int) -> tuple[pb.EndTurn, ...]:
    """Ending the turn, once it may end."""
    return _ENDS if can_end_turn(state, seat) else ()
