"""Scoring Phase and Final Scoring.

At the start of rounds 6 and 10, and after the neighbour phase that follows round 12,
every player scores the objective of the season just ended. Final scoring adds the
three objectives, the three cargo stalls, the badges (the seasoned explorer doubles one:
the engine doubles the most valuable, the only sensible choice) and the neighbour
bonuses. The highest total wins; ties are shared.
"""

from __future__ import annotations

from engines.tend.cargo import stall_scores
from engines.tend.content import content
from engines.tend.events import wrap
from engines.tend.measures import measure
from engines.tend.neighbours import track_points
from engines.tend.state import FinalScore, Player, TendState
from proto import tend_pb2 as pb

__all__ = [
    "SCORING_ROUNDS",
    "badge_points",
    "final_events",
    "final_score",
    "objective_events",
    "objective_points",
    "running_total",
]

SCORING_ROUNDS = {6: 1, 10: 2}
"""The round whose scoring phase scores a season's objective."""


def objective_points(player: Player, objective_id: str) -> int:
    objective = content().objectives[objective_id]
    return measure(player, objective.measure) // objective.every * objective.points


def objective_events(state: TendState, season: int) -> list[pb.Event]:
    objective = state.objectives[season - 1]
    points = [objective_points(p, objective) for p in state.players]
    scored = pb.ObjectiveScored(season=season, objective=objective, points=points)
    return [wrap(objective_scored=scored)]


def badge_points(player: Player) -> tuple[int, str]:
    """The badges' points and the badge the seasoned explorer doubles ("" none)."""
    features = content().features
    values = sorted(((features[b].points, b) for b in player.badges), reverse=True)
    total = sum(points for points, _ in values)
    if player.explorer and values:
        return total + values[0][0], values[0][1]
    return total, ""


def final_score(state: TendState, seat: int) -> FinalScore:
    player = state.players[seat]
    stalls = stall_scores(player)
    badges, doubled = badge_points(player)
    neighbour = track_points(state, seat)
    objectives = tuple(player.objectives) + (0,) * (3 - len(player.objectives))
    total = sum(objectives) + sum(stalls) + badges + neighbour
    return FinalScore(seat, total, objectives, stalls, badges, neighbour, doubled)


def running_total(state: TendState, seat: int) -> int:
    """What the seat would score if the game ended now (objectives scored so far)."""
    return final_score(state, seat).total


def final_events(state: TendState) -> list[pb.Event]:
    scores = [final_score(state, seat) for seat in range(state.seats)]
    best = max(s.total for s in scores)
    finished = pb.GameFinished(
        scores=[
            pb.FinalScore(
                seat=s.seat,
                total=s.total,
                objectives=s.objectives,
                stalls=s.stalls,
                badges=s.badges,
                neighbour=s.neighbour,
                doubled=s.doubled,
            )
            for s in scores
        ],
        winners=[s.seat for s in scores if s.total == best],
    )
    return [wrap(game_finished=finished)]
