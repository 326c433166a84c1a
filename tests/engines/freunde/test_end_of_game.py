"""Completing objectives and game end: 9/8/7 objectives, the Emperor, the final round,
scores, the panda tie-break and shared wins."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engines.freunde.engine import ENGINE
from engines.freunde.state import FreundeState, Phase
from proto import freunde_pb2 as pb
from tests.engines.freunde.given import (
    PANDA_2_GREEN,
    after,
    game,
    hand,
    refused,
    reserve,
    turn,
    when,
)

END = pb.Command(end_turn=pb.EndTurn())
CLAIM = pb.Command(claim_objective=pb.ClaimObjective(card=PANDA_2_GREEN))

# Plot cards 1..15 and gardener cards 16..30 as already-claimed filler (points from the data).
FILLER = tuple(range(1, 13))


def _about_to_trigger(seats: int, claimed: int, seat: int = 0) -> FreundeState:
    """``seat`` has ``claimed`` objectives and holds a panda card it can complete now."""
    state = hand(game(seats), seat, [PANDA_2_GREEN])
    state = replace(
        state,
        claimed=tuple(FILLER[:claimed] if s == seat else () for s in range(seats)),
    )
    return reserve(turn(state, seat, actions=("plot", "panda")), seat, bamboo=(2, 0, 0))


@pytest.mark.parametrize(("seats", "needed"), [(2, 9), (3, 8), (4, 7)])
def test_the_objective_count_by_player_number_brings_the_emperor(seats: int, needed: int) -> None:
    """Game end: 2 players - 9 objectives, 3 - 8, 4 - 7; the first to get there: Emperor +2."""
    state = _about_to_trigger(seats, needed - 1)
    events = when(state, 0, CLAIM)
    assert events[-1] == pb.Event(emperor_awarded=pb.EmperorAwarded(seat=0, points=2))
    state = after(state, events)
    view = ENGINE.view(state, None)
    assert view["emperor"] == 0 and view["players"][0]["emperor"] is True
    points = sum(c["points"] for c in view["players"][0]["claimed"])
    assert view["players"][0]["score"] == points + 2
    early = _about_to_trigger(seats, needed - 2)
    assert [e.WhichOneof("kind") for e in when(early, 0, CLAIM)] == ["objective_claimed"]


def test_the_emperor_is_awarded_once() -> None:
    """Only the first player to complete the count receives the Emperor."""
    state = replace(_about_to_trigger(2, 8, seat=1), emperor=0)
    assert [e.WhichOneof("kind") for e in when(state, 1, CLAIM)] == ["objective_claimed"]


def test_the_others_play_a_final_turn_then_the_game_ends() -> None:
    """The other players have a final turn; after they finish, the game is over."""
    state = after(_about_to_trigger(4, 6, seat=2), [])
    state = after(state, when(state, 2, CLAIM))
    order = []
    for _ in range(4):
        events = when(state, state.turn, END)
        state = after(state, events)
        if state.phase != Phase.FINISHED:
            order.append(state.turn)
            state = turn(state, state.turn, actions=("plot", "panda"), round=state.round)
    assert order == [3, 0, 1]
    assert [e.WhichOneof("kind") for e in events] == ["turn_ended", "game_ended"]
    ended = events[-1].game_ended
    assert ended.reason == "emperor" and list(ended.winners) == [2]
    outcome = ENGINE.outcome(state)
    assert outcome.finished and outcome.to_act == () and outcome.winners == (2,)
    assert outcome.scores[2] == ENGINE.view(state, None)["players"][2]["score"]
    assert outcome.breakdown["players"][2]["emperor"] == 2


def test_nothing_is_accepted_once_the_game_is_over() -> None:
    """After the final round no seat has a move."""
    state = replace(turn(game(), 0), phase=Phase.FINISHED)
    assert ENGINE.legal_commands(state, 0) == []
    assert refused(state, 0, END) == "game.finished"


def _ended(state: FreundeState) -> pb.GameEnded:
    """End seat 1's turn in a 2-player game whose Emperor is seat 0."""
    state = turn(replace(state, emperor=0), 1, actions=("plot", "panda"))
    return when(state, 1, END)[-1].game_ended


def test_the_highest_score_wins() -> None:
    """After they finish, the highest score wins."""
    state = replace(game(), claimed=((1,), (12, 30)))  # 2 (+2 Emperor) against 5 + 6
    ended = _ended(state)
    assert list(ended.scores) == [4, 11] and list(ended.winners) == [1]


def test_a_tie_is_broken_on_panda_points() -> None:
    """If the score is tied, the tie breaker is the number of points on panda objectives."""
    # Seat 0: 3 (plot 4) + 2 Emperor + 3 panda = 8; seat 1: 4 (plot 9) + 4 (panda 36) = 8.
    state = replace(game(), claimed=((4, 31), (9, 36)))
    ended = _ended(state)
    assert list(ended.scores) == [8, 8] and list(ended.winners) == [1]


def test_a_tie_on_both_shares_the_win() -> None:
    """If the score is still tied then all tied players win."""
    # Seat 0: 2 (plot 1) + 2 Emperor + 3 panda = 7; seat 1: 4 (plot 9) + 3 panda = 7.
    state = replace(game(), claimed=((1, 31), (9, 32)))
    ended = _ended(state)
    assert list(ended.scores) == [7, 7] and list(ended.winners) == [0, 1]


def test_the_round_limit_safeguard_ends_a_stalled_game() -> None:
    """Not in the rulebook: after round_limit rounds without an Emperor the game is scored."""
    state = turn(game(2, first=0, round_limit=3), 1, actions=("plot", "panda"), round=3)
    events = when(state, 1, END)
    assert events[-1].game_ended.reason == "round_limit"
    earlier = turn(game(2, first=0, round_limit=3), 1, actions=("plot", "panda"), round=2)
    assert when(earlier, 1, END)[1] == pb.Event(turn_started=pb.TurnStarted(seat=0, round=3))
