"""Turns: weather each turn but the first, two different actions, EndTurn; all six faces."""

from __future__ import annotations

import pytest

from engines.core.rng import Rng
from engines.core.testing import given, play_random_game
from engines.freunde.engine import ENGINE
from engines.freunde.state import ACTIONS, FreundeState
from proto import freunde_pb2 as pb
from tests.engines.freunde.positions import (
    GREEN,
    GREEN_ENCLOSURE,
    GREEN_FERTILIZER,
    PINK,
    YELLOW,
    bamboo_eaten,
    bamboo_grown,
    choose_weather,
    draw_objective,
    draw_plots,
    end_turn,
    garden,
    grow_with_rain,
    improvement_taken,
    irrigation_taken,
    move_gardener,
    move_panda_by_storm,
    objective_drawn,
    panda_moved,
    plot_at,
    plot_irrigated,
    plot_placed,
    plots_drawn,
    rain_fell,
    recorded,
    skip_weather,
    started,
    take_improvement,
    take_irrigation,
    turn,
    turn_ended,
    turn_started,
    weather_chosen,
    weather_skipped,
)

# Seat 0 drew and placed a plot by the pond and took a channel: two actions done.
TWO_ACTIONS = [
    plots_drawn(0, [GREEN[0]]),
    plot_placed(0, GREEN[0], (1, 0)),
    plot_irrigated((1, 0)),
    bamboo_grown((1, 0), "green"),
    irrigation_taken(0),
]

# Six plots around the pond: all irrigated.
RING = {
    (1, 0): GREEN[0],
    (1, -1): GREEN[1],
    (0, -1): YELLOW[0],
    (-1, 0): YELLOW[1],
    (-1, 1): PINK[0],
    (0, 1): GREEN_FERTILIZER,
}


def _weathers(legal: list[pb.Command]) -> set[int]:
    return {c.choose_weather.weather for c in legal if c.WhichOneof("kind") == "choose_weather"}


def test_the_first_turn_has_no_weather_and_the_second_round_rolls_it() -> None:
    """Turns › step 1 "except in the player's first turn"; later turns roll the die."""
    history = [*started(first=0), irrigation_taken(0), objective_drawn(0, 3)]
    passed = given(ENGINE, history).when(0, end_turn())
    passed.then(turn_ended(0), turn_started(1, 1))
    view = passed.view(None)
    assert view["to_act"] == [1] and view["board"]["round"] == 1
    assert view["board"]["weather"] == "" and view["stage"] == "actions"
    history += [*recorded(passed), irrigation_taken(1), objective_drawn(1, 4)]
    second = given(ENGINE, history).when(1, end_turn())
    second.then_starts_with(turn_ended(1), turn_started(0, 2))
    assert [e.WhichOneof("kind") for e in recorded(second)][2:] == ["weather_rolled"]
    assert recorded(second)[2].weather_rolled.seat == 0


def test_the_weather_die_has_six_equally_likely_faces() -> None:
    """Weather: sun, rain, wind, storm, clouds, question mark all come up."""
    state = given(ENGINE, started(), *turn(1), irrigation_taken(1), objective_drawn(1, 3)).state
    seen = set()
    for version in range(200):
        events = ENGINE.decide(state, end_turn(), 1, Rng(b"dice", "t", version))
        seen.add(events[-1].weather_rolled.weather)
    assert seen == {1, 2, 3, 4, 5, 6}


def test_sun_gives_a_third_action() -> None:
    """Sun: take a 3rd action (different from the other two)."""
    history = [*started(), *turn(0, weather="sun"), *TWO_ACTIONS]
    position = given(ENGINE, history)
    assert position.view(0)["board"]["actions_allowed"] == 3
    third = position.when(0, draw_objective("panda")).then(objective_drawn(0, 33))
    assert third.view(0)["board"]["actions_taken"] == ["plot", "irrigation", "objective"]
    given(ENGINE, history, recorded(third)).when(0, take_irrigation()).refused(
        "turn.no_actions_left"
    )


def test_the_sun_s_third_action_is_optional() -> None:
    """All weather effects are optional: with the sun one may still end after two actions."""
    given(ENGINE, started(), turn(0, weather="sun"), TWO_ACTIONS).when(0, end_turn()).accepted()


def test_without_wind_the_two_actions_must_differ() -> None:
    """Turns › step 2 "2 different actions"."""
    position = given(ENGINE, started(), turn(0), irrigation_taken(0))
    position.when(0, take_irrigation()).refused("turn.same_action")


def test_wind_allows_two_identical_actions() -> None:
    """Wind: may take two identical actions this turn."""
    history = [*started(), *turn(0, weather="wind"), irrigation_taken(0)]
    second = given(ENGINE, history).when(0, take_irrigation()).then(irrigation_taken(0))
    view = second.view(0)
    assert view["players"][0]["irrigation"] == 2
    assert view["board"]["actions_taken"] == ["irrigation", "irrigation"]
    given(ENGINE, history, recorded(second)).when(0, draw_plots()).refused("turn.no_actions_left")


def test_two_actions_are_required_before_ending_the_turn() -> None:
    """EndTurn only after the required actions, or when no action is possible."""
    position = given(ENGINE, started(), turn(0), irrigation_taken(0))
    position.when(0, end_turn()).refused("turn.actions_remaining")


def test_the_turn_may_end_early_when_no_action_is_possible() -> None:
    """Nothing left to do (no plots, channels, moves, objectives): EndTurn is allowed."""
    all_channels = [irrigation_taken(1) for _ in range(20)]
    position = given(ENGINE, started(plot_stack=[]), all_channels, turn(0), objective_drawn(0, 3))
    assert ENGINE.legal_commands(position.state, 0) == [end_turn()]
    position.when(0, end_turn()).accepted()


def test_rain_grows_one_bamboo_on_an_irrigated_plot() -> None:
    """Rain: grow 1 bamboo on any irrigated plot."""
    position = given(ENGINE, started(), garden(RING, bamboo={(1, 0): 1}), turn(0, weather="rain"))
    rained = position.when(0, grow_with_rain((1, 0)))
    rained.then(rain_fell(0, (1, 0)), bamboo_grown((1, 0), "green", 1))
    view = rained.view(0)
    assert plot_at(view, 1, 0)["bamboo"] == 2 and view["stage"] == "actions"


def test_rain_on_a_fertilizer_grows_two() -> None:
    """The Gardener and the Panda: fertilizer grows 2 with Rain too."""
    position = given(ENGINE, started(), garden(RING), turn(0, weather="rain"))
    position.when(0, grow_with_rain((0, 1))).then(
        rain_fell(0, (0, 1)), bamboo_grown((0, 1), "green", 2)
    )


def test_rain_needs_an_irrigated_plot_below_height_four() -> None:
    """Rain: not on a dry plot, not past the height limit of 4."""
    plots = {**RING, (2, -1): GREEN[2]}
    position = given(ENGINE, started(), garden(plots, bamboo={(1, 0): 4}), turn(0, weather="rain"))
    position.when(0, grow_with_rain((2, -1))).refused("rain.not_irrigated")
    position.when(0, grow_with_rain((1, 0))).refused("rain.cannot_grow")


def test_storm_moves_the_panda_anywhere_and_he_eats() -> None:
    """Storm: move panda to any plot and he eats a bamboo as normal."""
    plots = {**RING, (2, -1): GREEN[2]}
    position = given(
        ENGINE, started(), garden(plots, bamboo={(1, -1): 2}), turn(1, weather="storm")
    )
    stormed = position.when(1, move_panda_by_storm((1, -1)))
    stormed.then(panda_moved(1, (1, -1), by_storm=True), bamboo_eaten(1, (1, -1), "green"))
    view = stormed.view(None)
    assert view["board"]["panda"] == [1, -1] and view["players"][1]["bamboo"]["green"] == 1
    assert view["board"]["actions_taken"] == [] and view["stage"] == "actions"


def test_storm_does_not_eat_behind_an_enclosure() -> None:
    """The panda can NOT eat bamboo from a plot with an enclosure, storm or not."""
    plots = {**RING, (1, 0): GREEN_ENCLOSURE}
    position = given(ENGINE, started(), garden(plots, bamboo={(1, 0): 2}), turn(0, weather="storm"))
    position.when(0, move_panda_by_storm((1, 0))).then(panda_moved(0, (1, 0), by_storm=True))


def test_storm_needs_a_plot() -> None:
    """Storm: "to any plot" — not the pond, not where the panda already is."""
    position = given(ENGINE, started(), garden(RING), turn(0, weather="storm"))
    position.when(0, move_panda_by_storm((0, 0))).refused("storm.not_a_plot")
    moved = given(ENGINE, started(), garden(RING), panda_moved(1, (1, 0)), turn(0, weather="storm"))
    moved.when(0, move_panda_by_storm((1, 0))).refused("storm.not_a_plot")


def test_clouds_give_an_improvement_chip_from_the_bank() -> None:
    """Clouds: take an improvement chip from the bank of 3 of each."""
    position = given(ENGINE, started(), turn(0, weather="clouds"))
    taken = position.when(0, take_improvement("enclosure")).then(improvement_taken(0, "enclosure"))
    view = taken.view(0)
    assert view["board"]["supply"]["improvements"] == {
        "watershed": 3,
        "fertilizer": 3,
        "enclosure": 2,
    }
    assert view["players"][0]["improvements"]["enclosure"] == 1
    assert view["stage"] == "actions"


def test_clouds_with_an_empty_bank_let_the_player_choose_another_weather() -> None:
    """Clouds: no chips left → choose 1 of the other 4 weathers (not clouds, not ?)."""
    bank = [improvement_taken(1, kind) for kind in ("watershed", "fertilizer", "enclosure")] * 3
    position = given(ENGINE, started(), bank, turn(0, weather="clouds"))
    assert _weathers(ENGINE.legal_commands(position.state, 0)) == {
        pb.WEATHER_SUN,
        pb.WEATHER_RAIN,
        pb.WEATHER_WIND,
        pb.WEATHER_STORM,
    }
    position.when(0, choose_weather("clouds")).refused("weather.not_allowed")
    position.when(0, take_improvement("watershed")).refused("improvement.bank_empty")
    sunny = position.when(0, choose_weather("sun")).then(weather_chosen(0, "sun"))
    view = sunny.view(0)
    assert view["board"]["weather"] == "sun" and view["stage"] == "actions"


def test_the_question_mark_chooses_any_of_the_five_weathers() -> None:
    """Question mark: choose any 1 of the 5 types of weather."""
    history = [*started(), *turn(0, weather="question")]
    position = given(ENGINE, history)
    assert _weathers(ENGINE.legal_commands(position.state, 0)) == {1, 2, 3, 4, 5}
    position.when(0, choose_weather("question")).refused("weather.not_allowed")
    cloudy = position.when(0, choose_weather("clouds")).then(weather_chosen(0, "clouds"))
    view = cloudy.view(0)
    assert view["board"]["weather"] == "clouds" and view["stage"] == "weather"
    given(ENGINE, history, recorded(cloudy)).when(0, take_improvement("fertilizer")).then(
        improvement_taken(0, "fertilizer")
    )


@pytest.mark.parametrize("weather", ["rain", "storm", "clouds", "question"])
def test_every_weather_may_be_declined(weather: str) -> None:
    """All weather effects are optional: SkipWeather moves on to the actions."""
    skipped = given(ENGINE, started(), turn(0, weather=weather)).when(0, skip_weather())
    skipped.then(weather_skipped(0))
    assert skipped.view(0)["stage"] == "actions"


def test_weather_comes_before_the_actions() -> None:
    """Turns: step 1 (weather) before step 2 (actions); the refusal says what it waits for."""
    position = given(ENGINE, started(), turn(0, weather="rain"))
    refusal = position.when(0, take_irrigation()).refused("command.not_now")
    assert refusal.message == "Deal with this turn's weather first."
    position.when(0, end_turn()).refused("command.not_now")


def test_weather_commands_need_their_weather() -> None:
    """Each weather command belongs to its face; ChooseWeather only to ? and empty clouds."""
    rainy = given(ENGINE, started(), garden(RING), turn(0, weather="rain"))
    rainy.when(0, choose_weather("sun")).refused("weather.no_choice")
    rainy.when(0, move_panda_by_storm((1, 0))).refused("weather.not_storm")
    rainy.when(0, take_improvement("watershed")).refused("weather.not_clouds")
    stormy = given(ENGINE, started(), garden(RING), turn(0, weather="storm"))
    stormy.when(0, grow_with_rain((1, 0))).refused("weather.not_rain")


def test_weather_commands_wait_for_their_phase() -> None:
    """Once the weather is dealt with, weather commands are refused."""
    position = given(ENGINE, started(), turn(0, weather="sun"))
    refusal = position.when(0, skip_weather()).refused("command.not_now")
    assert refusal.message == "That is not possible at this point of your turn."


def test_only_the_player_to_act_may_send_commands() -> None:
    """Commands from a seat not to act are refused, and it has no legal commands."""
    position = given(ENGINE, started(), turn(0))
    assert ENGINE.legal_commands(position.state, 1) == []
    position.when(1, take_irrigation()).refused("turn.not_yours")


def test_an_empty_command_is_refused() -> None:
    """A command naming no move has a stable code too."""
    given(ENGINE, started(), turn(0)).when(0, pb.Command()).refused("command.empty")


def test_a_hex_must_be_named() -> None:
    """A hex left out is refused rather than read as the pond."""
    position = given(ENGINE, started(), garden(RING), turn(0))
    refusal = position.when(0, pb.Command(move_gardener=pb.MoveGardener())).refused(
        "command.missing_field"
    )
    assert refusal.message == "Say which hex (to)."
    position.when(0, move_gardener((1, 0))).accepted()


def test_nothing_before_set_up() -> None:
    """Before the set-up events the game takes no command from anyone."""
    position = given(ENGINE)
    assert position.view(None)["stage"] == "setup" and position.view(None)["to_act"] == []
    position.when(0, end_turn()).refused("turn.not_yours")


def _open_actions_checked_while_playing(seats: int, index: int) -> int:
    """Play a random game, checking the turn's open actions before each command against
    the rule read afresh; how many times an action was closed."""
    closed = 0

    def check(state: FreundeState) -> None:
        nonlocal closed
        limit = 3 if state.weather == "sun" else 2
        fitting = {
            action
            for action in ACTIONS
            if len(state.actions) < limit
            and (action not in state.actions or state.weather == "wind")
        }
        assert state.open_actions == fitting
        closed += len(fitting) < len(ACTIONS)

    play_random_game(ENGINE, seats, index, invariants=check)
    return closed


@pytest.mark.parametrize("seats", [2, 4])
def test_the_open_actions_kept_beside_the_turn_follow_the_actions_and_the_weather(
    seats: int,
) -> None:
    """``FreundeState.open_actions`` (what listings read) is kept by the recorders: at every step
    of random games it is the actions of which one more fits (Turns › step 2; sun, wind)."""
    assert sum(_open_actions_checked_while_playing(seats, index) for index in range(2))
