"""Completing objectives and game end: 9/8/7 objectives, the Emperor, the final round,
scores, the panda tie-break and shared wins."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engines.core.testing import given
from engines.freunde.engine import ENGINE
from proto import freunde_pb2 as pb
from tests.engines.freunde.positions import (
    GREEN,
    PANDA_2_GREEN,
    YELLOW,
    claim,
    emperor_awarded,
    end_turn,
    fed,
    game_ended,
    garden,
    irrigation_taken,
    objective_claimed,
    panda_moved,
    recorded,
    started,
    turn,
    turn_started,
    weather_skipped,
)

# Plot cards 1..12 as objectives already claimed (points from the data).
FILLER = tuple(range(1, 13))
# A green and a yellow plot by the pond, for the panda to eat from.
LARDER = {(1, 0): GREEN[0], (0, 1): YELLOW[0]}


def _two_actions(seat: int) -> list[pb.Event]:
    """``seat`` took a channel and moved the panda onto the bare green plot."""
    return [irrigation_taken(seat), panda_moved(seat, (1, 0))]


def _about_to_trigger(
    seats: int, claimed: int, seat: int = 0, earlier: Sequence[pb.Event] = ()
) -> list[pb.Event]:
    """``seat`` has ``claimed`` objectives and holds a panda card it can complete now;
    ``earlier`` happened before its turn."""
    history = [*started(seats, hands={seat: [PANDA_2_GREEN]}), *garden(LARDER)]
    history += fed(seat, (1, 0), "green", 2)
    history += [objective_claimed(seat, card) for card in FILLER[:claimed]]
    return [*history, *earlier, *turn(seat), *_two_actions(seat)]


@pytest.mark.parametrize(("seats", "needed"), [(2, 9), (3, 8), (4, 7)])
def test_the_objective_count_by_player_number_brings_the_emperor(seats: int, needed: int) -> None:
    """Game end: 2 players - 9 objectives, 3 - 8, 4 - 7; the first to get there: Emperor +2."""
    triggered = given(ENGINE, _about_to_trigger(seats, needed - 1)).when(0, claim(PANDA_2_GREEN))
    triggered.then(objective_claimed(0, PANDA_2_GREEN), emperor_awarded(0))
    view = triggered.view(None)
    assert view["board"]["emperor"] == 0 and view["players"][0]["emperor"] is True
    points = sum(c["points"] for c in view["players"][0]["claimed"])
    assert view["players"][0]["score"] == points + 2
    early = given(ENGINE, _about_to_trigger(seats, needed - 2)).when(0, claim(PANDA_2_GREEN))
    early.then(objective_claimed(0, PANDA_2_GREEN))


def test_the_emperor_is_awarded_once() -> None:
    """Only the first player to complete the count receives the Emperor."""
    history = _about_to_trigger(2, 8, seat=1, earlier=[emperor_awarded(0)])
    given(ENGINE, history).when(1, claim(PANDA_2_GREEN)).then(objective_claimed(1, PANDA_2_GREEN))


def test_the_others_play_a_final_turn_then_the_game_ends() -> None:
    """The other players have a final turn; after they finish, the game is over."""
    history = _about_to_trigger(4, 6, seat=2)
    history += recorded(given(ENGINE, history).when(2, claim(PANDA_2_GREEN)).accepted())
    order = []
    seat = 2
    while True:
        ended = given(ENGINE, history).when(seat, end_turn()).accepted()
        history += recorded(ended)
        if ended.view(None)["finished"]:
            break
        seat = ended.view(None)["to_act"][0]
        order.append(seat)
        if ended.view(None)["stage"] == "weather":
            history.append(weather_skipped(seat))
        history += _two_actions(seat)
    assert order == [3, 0, 1]
    assert [e.WhichOneof("kind") for e in recorded(ended)] == ["turn_ended", "game_ended"]
    result = recorded(ended)[-1].game_ended
    assert result.reason == "emperor" and list(result.winners) == [2]
    outcome = ENGINE.outcome(ended.state)
    assert outcome.finished and outcome.to_act == () and outcome.winners == (2,)
    assert outcome.scores[2] == ended.view(None)["players"][2]["score"]
    assert outcome.breakdown["players"][2]["emperor"] == 2


def test_nothing_is_accepted_once_the_game_is_over() -> None:
    """After the final round no seat has a move."""
    over = given(ENGINE, started(), turn(0), game_ended([0, 0], [0, 1], "emperor"))
    assert ENGINE.legal_commands(over.state, 0) == []
    assert over.view(None)["finished"] is True and over.view(None)["to_act"] == []
    over.when(0, end_turn()).refused("game.over")


def _ended(claims: Sequence[pb.Event], feeding: Sequence[pb.Event] = ()) -> pb.GameEnded:
    """End seat 1's turn in a 2-player game whose Emperor is seat 0."""
    history = [*started(), *garden(LARDER), *feeding, *claims, emperor_awarded(0)]
    history += [*turn(1), *_two_actions(1)]
    ended = given(ENGINE, history).when(1, end_turn()).accepted()
    return recorded(ended)[-1].game_ended


def test_the_highest_score_wins() -> None:
    """After they finish, the highest score wins."""
    # Seat 0: 2 (plot 1) + 2 Emperor = 4; seat 1: 5 (plot 12) + 6 (gardener 30) = 11.
    claims = [objective_claimed(0, 1), objective_claimed(1, 12), objective_claimed(1, 30)]
    ended = _ended(claims)
    assert list(ended.scores) == [4, 11] and list(ended.winners) == [1]


def test_a_tie_is_broken_on_panda_points() -> None:
    """If the score is tied, the tie breaker is the number of points on panda objectives."""
    # Seat 0: 3 (plot 4) + 2 Emperor + 3 (panda 31) = 8; seat 1: 4 (plot 9) + 4 (panda 36) = 8.
    feeding = [*fed(0, (1, 0), "green", 2), *fed(1, (0, 1), "yellow", 2)]
    claims = [objective_claimed(0, c) for c in (4, 31)] + [objective_claimed(1, c) for c in (9, 36)]
    ended = _ended(claims, feeding)
    assert list(ended.scores) == [8, 8] and list(ended.winners) == [1]


def test_a_tie_on_both_shares_the_win() -> None:
    """If the score is still tied then all tied players win."""
    # Seat 0: 2 (plot 1) + 2 Emperor + 3 panda = 7; seat 1: 4 (plot 9) + 3 panda = 7.
    feeding = [*fed(0, (1, 0), "green", 2), *fed(1, (1, 0), "green", 2)]
    claims = [objective_claimed(0, c) for c in (1, 31)] + [objective_claimed(1, c) for c in (9, 32)]
    ended = _ended(claims, feeding)
    assert list(ended.scores) == [7, 7] and list(ended.winners) == [0, 1]


def test_the_round_limit_safeguard_ends_a_stalled_game() -> None:
    """Not in the rulebook: after round_limit rounds without an Emperor the game is scored."""
    opening = [*started(first=0, round_limit=3), *garden(LARDER)]
    last = given(ENGINE, opening, turn(1, round=3), _two_actions(1)).when(1, end_turn())
    last.then(pb.Event(turn_ended=pb.TurnEnded(seat=1)), game_ended([0, 0], [0, 1], "round_limit"))
    earlier = given(ENGINE, opening, turn(1, round=2), _two_actions(1)).when(1, end_turn())
    earlier.then_starts_with(pb.Event(turn_ended=pb.TurnEnded(seat=1)), turn_started(0, 3))
