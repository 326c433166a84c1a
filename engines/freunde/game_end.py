"""Completing objectives and game end: the Emperor, scores, the tie-break, shared wins.

"The first player to complete the required number of objectives triggers the final
round and receives the Emperor card, scoring 2 bonus points. The other players have a
final turn. After they finish, the highest score wins. If the score is tied, the tie
breaker is the number of points on panda objectives. If the score is still tied then
all tied players win." (When the final turn is played: turns.end_turn.)
"""

from __future__ import annotations

from typing import Any

from engines.core.game import Standing
from engines.freunde.state import FreundeState
from proto import freunde_pb2 as pb

__all__ = [
    "EMPEROR_POINTS",
    "emperor_threshold",
    "game_ended",
    "panda_points",
    "score",
    "standing",
    "winners",
]

EMPEROR_POINTS = 2
_THRESHOLDS = {2: 9, 3: 8, 4: 7}


def emperor_threshold(seats: int) -> int:
    """Game end: 9 / 8 / 7 objectives for 2 / 3 / 4 players."""
    return _THRESHOLDS[seats]


def panda_points(state: FreundeState, seat: int) -> int:
    """The tie-break: points on panda objectives."""
    return state.players[seat].points[2]


def score(state: FreundeState, seat: int) -> int:
    """Objective points, and 2 more for the Emperor."""
    return sum(state.players[seat].points) + (EMPEROR_POINTS if state.emperor == seat else 0)


def winners(state: FreundeState) -> tuple[int, ...]:
    """Highest score; then most panda points; players still tied all win."""
    ranked = {seat: (score(state, seat), panda_points(state, seat)) for seat in range(state.seats)}
    best = max(ranked.values())
    return tuple(seat for seat, key in ranked.items() if key == best)


def standing(state: FreundeState) -> Standing:
    """Scores now (final once the game is over), the winners, and where points came from."""
    scores = []
    players = []
    for seat, player in enumerate(state.players):
        plot, gardener, panda = player.points
        emperor = EMPEROR_POINTS if state.emperor == seat else 0
        scores.append(plot + gardener + panda + emperor)
        players.append(
            {
                "plot": plot,
                "gardener": gardener,
                "panda": panda,
                "emperor": emperor,
                "objectives": len(player.claimed),
            }
        )
    breakdown: dict[str, Any] = {
        "players": players,
        "emperor": state.emperor,
        "end_reason": state.end_reason,
    }
    return Standing(tuple(scores), state.winners, breakdown)


def game_ended(state: FreundeState, reason: str) -> pb.Event:
    """The final scores and winners, recorded once the last turn is over."""
    scores = [score(state, seat) for seat in range(state.seats)]
    return pb.Event(game_ended=pb.GameEnded(scores=scores, winners=winners(state), reason=reason))
