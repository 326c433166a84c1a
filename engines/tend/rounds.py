"""Round Structure: 12 rounds of neighbour, scoring, set-up, growth and task phases.

The automatic steps between commands live here. Round 1 skips the neighbour and set-up
phases. A phase ends when every seat is done with it (each flips its guide card); then
the next begins for everyone. After round 12 comes one more neighbour phase, then the
season 3 objective and final scoring. Within a phase each seat's own automatic steps
(:func:`engines.tend.task_phase.seat_steps`) run as soon as its commands allow.
"""

from __future__ import annotations

from engines.core.rng import Rng
from engines.tend.events import wrap
from engines.tend.evolve import RECORDERS
from engines.tend.growth import grow
from engines.tend.scoring import SCORING_ROUNDS, final_events, objective_events
from engines.tend.setup_phase import deal_row
from engines.tend.state import TendState
from engines.tend.task_phase import seat_steps
from proto import tend_pb2 as pb

__all__ = ["ROUNDS", "advance"]

ROUNDS = 12


def _began(round_: int, phase: str) -> pb.Event:
    return wrap(phase_began=pb.PhaseBegan(round=round_, phase=phase))


def _phase_over(state: TendState, rng: Rng) -> list[pb.Event]:
    """Every seat is done: what comes next."""
    if state.phase == "start":
        return [_began(1, "tasks")]
    if state.phase == "tasks":
        if state.round < ROUNDS:
            return [_began(state.round + 1, "neighbour")]
        return [_began(state.round, "final")]
    if state.phase == "final":
        after = state
        events = objective_events(state, 3)
        for event in events:
            after = RECORDERS.evolve(after, event)
        return events + final_events(after)
    events = []
    season = SCORING_ROUNDS.get(state.round)
    if season:
        events += objective_events(state, season)
    events.append(deal_row(state, rng))
    for seat in range(state.seats):
        events += grow(state, seat)
    return [*events, _began(state.round, "tasks")]


def advance(state: TendState, rng: Rng) -> list[pb.Event]:
    """The events of the next automatic step; none when a seat must choose or the game
    is over (the kit asks again after each step)."""
    if state.phase in ("", "finished"):
        return []
    if state.phase != "start":
        for seat in range(state.seats):
            events = seat_steps(state, seat, rng)
            if events:
                return events
    if all(p.done for p in state.players):
        return _phase_over(state, rng)
    return []
