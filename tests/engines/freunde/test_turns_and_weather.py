"""Turns: weather each turn but the first, two different actions, EndTurn; all six faces."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engines.core.rng import Rng
from engines.freunde.engine import ENGINE
from engines.freunde.state import Phase
from proto import freunde_pb2 as pb
from tests.engines.freunde.given import (
    GREEN,
    GREEN_ENCLOSURE,
    GREEN_FERTILIZER,
    PINK,
    YELLOW,
    H,
    after,
    cell,
    game,
    garden,
    refused,
    turn,
    when,
)

END = pb.Command(end_turn=pb.EndTurn())
SKIP = pb.Command(skip_weather=pb.SkipWeather())
TAKE_IRRIGATION = pb.Command(take_irrigation=pb.TakeIrrigation())
DRAW_PLOTS = pb.Command(draw_plots=pb.DrawPlots())


def _choose(weather: pb.Weather.ValueType) -> pb.Command:
    return pb.Command(choose_weather=pb.ChooseWeather(weather=weather))


def _ring() -> dict[tuple[int, int], int]:
    """Six plots around the pond: all irrigated."""
    return {
        (1, 0): GREEN[0],
        (1, -1): GREEN[1],
        (0, -1): YELLOW[0],
        (-1, 0): YELLOW[1],
        (-1, 1): PINK[0],
        (0, 1): GREEN_FERTILIZER,
    }


def test_the_first_turn_has_no_weather_and_the_second_round_rolls_it() -> None:
    """Turns › step 1 "except in the player's first turn"; later turns roll the die."""
    state = turn(game(), 0, actions=("plot", "irrigation"), round=1)
    events = when(state, 0, END)
    assert [e.WhichOneof("kind") for e in events] == ["turn_ended", "turn_started"]
    state = after(state, events)
    assert state.turn == 1 and state.round == 1 and state.weather == ""
    state = turn(state, 1, actions=("plot", "irrigation"), round=1)
    events = when(state, 1, END)
    kinds = [e.WhichOneof("kind") for e in events]
    assert kinds == ["turn_ended", "turn_started", "weather_rolled"]
    assert events[1].turn_started == pb.TurnStarted(seat=0, round=2)
    assert events[2].weather_rolled.seat == 0


def test_the_weather_die_has_six_equally_likely_faces() -> None:
    """Weather: sun, rain, wind, storm, clouds, question mark all come up."""
    state = turn(game(), 1, actions=("plot", "irrigation"))
    seen = set()
    for version in range(200):
        events = ENGINE.decide(state, END, 1, Rng(b"dice", "t", version))
        seen.add(events[-1].weather_rolled.weather)
    assert seen == {1, 2, 3, 4, 5, 6}


def test_sun_gives_a_third_action() -> None:
    """Sun: take a 3rd action (different from the other two)."""
    state = turn(game(), 0, weather="sun", actions=("plot", "irrigation"))
    assert ENGINE.view(state, 0)["actions_allowed"] == 3
    events = when(
        state, 0, pb.Command(draw_objective=pb.DrawObjective(kind=pb.OBJECTIVE_KIND_PANDA))
    )
    assert events[0].objective_drawn.kind == 3
    after_third = after(state, events)
    assert refused(after_third, 0, TAKE_IRRIGATION) == "turn.no_actions_left"


def test_the_sun_s_third_action_is_optional() -> None:
    """All weather effects are optional: with the sun one may still end after two actions."""
    state = turn(game(), 0, weather="sun", actions=("plot", "irrigation"))
    assert END in ENGINE.legal_commands(state, 0)


def test_without_wind_the_two_actions_must_differ() -> None:
    """Turns › step 2 "2 different actions"."""
    state = turn(game(), 0, actions=("irrigation",))
    assert refused(state, 0, TAKE_IRRIGATION) == "turn.same_action"


def test_wind_allows_two_identical_actions() -> None:
    """Wind: may take two identical actions this turn."""
    state = turn(game(), 0, weather="wind", actions=("irrigation",))
    events = when(state, 0, TAKE_IRRIGATION)
    state = after(state, events)
    assert state.irrigation_reserve[0] == 1 and state.actions == ("irrigation", "irrigation")
    assert refused(state, 0, DRAW_PLOTS) == "turn.no_actions_left"


def test_two_actions_are_required_before_ending_the_turn() -> None:
    """EndTurn only after the required actions, or when no action is possible."""
    state = turn(game(), 0, actions=("irrigation",))
    assert refused(state, 0, END) == "turn.actions_remaining"


def test_the_turn_may_end_early_when_no_action_is_possible() -> None:
    """Nothing left to do (no plots, channels, moves, objectives): EndTurn is allowed."""
    state = replace(turn(game(), 0, actions=("objective",)), plot_stack=(), irrigation_supply=0)
    assert ENGINE.legal_commands(state, 0) == [END]


def test_rain_grows_one_bamboo_on_an_irrigated_plot() -> None:
    """Rain: grow 1 bamboo on any irrigated plot."""
    state = turn(
        garden(game(), _ring(), bamboo={(1, 0): 1}), 0, weather="rain", phase=Phase.WEATHER
    )
    events = when(state, 0, pb.Command(grow_with_rain=pb.GrowWithRain(at=H(1, 0))))
    assert events == [
        pb.Event(rain_fell=pb.RainFell(seat=0, at=H(1, 0))),
        pb.Event(bamboo_grown=pb.BambooGrown(at=H(1, 0), colour=pb.COLOUR_GREEN, sections=1)),
    ]
    state = after(state, events)
    assert cell(state, 1, 0)["bamboo"] == 2 and state.phase == Phase.ACTIONS


def test_rain_on_a_fertilizer_grows_two() -> None:
    """The Gardener and the Panda: fertilizer grows 2 with Rain too."""
    state = turn(garden(game(), _ring()), 0, weather="rain", phase=Phase.WEATHER)
    events = when(state, 0, pb.Command(grow_with_rain=pb.GrowWithRain(at=H(0, 1))))
    assert events[1].bamboo_grown.sections == 2


def test_rain_needs_an_irrigated_plot_below_height_four() -> None:
    """Rain: not on a dry plot, not past the height limit of 4."""
    plots = {**_ring(), (2, -1): GREEN[2]}
    state = turn(garden(game(), plots, bamboo={(1, 0): 4}), 0, weather="rain", phase=Phase.WEATHER)
    assert refused(state, 0, pb.Command(grow_with_rain=pb.GrowWithRain(at=H(2, -1)))) == (
        "rain.not_irrigated"
    )
    assert refused(state, 0, pb.Command(grow_with_rain=pb.GrowWithRain(at=H(1, 0)))) == (
        "rain.cannot_grow"
    )


def test_storm_moves_the_panda_anywhere_and_he_eats() -> None:
    """Storm: move panda to any plot and he eats a bamboo as normal."""
    plots = {**_ring(), (2, -1): GREEN[2]}
    state = turn(
        garden(game(), plots, bamboo={(1, -1): 2}), 1, weather="storm", phase=Phase.WEATHER
    )
    events = when(state, 1, pb.Command(move_panda_by_storm=pb.MovePandaByStorm(at=H(1, -1))))
    assert events == [
        pb.Event(panda_moved=pb.PandaMoved(seat=1, to=H(1, -1), by_storm=True)),
        pb.Event(bamboo_eaten=pb.BambooEaten(seat=1, at=H(1, -1), colour=pb.COLOUR_GREEN)),
    ]
    state = after(state, events)
    view = ENGINE.view(state, None)
    assert view["panda"] == [1, -1] and view["players"][1]["bamboo"]["green"] == 1
    assert state.actions == () and state.phase == Phase.ACTIONS


def test_storm_does_not_eat_behind_an_enclosure() -> None:
    """The panda can NOT eat bamboo from a plot with an enclosure, storm or not."""
    plots = {**_ring(), (1, 0): GREEN_ENCLOSURE}
    state = turn(garden(game(), plots, bamboo={(1, 0): 2}), 0, weather="storm", phase=Phase.WEATHER)
    events = when(state, 0, pb.Command(move_panda_by_storm=pb.MovePandaByStorm(at=H(1, 0))))
    assert [e.WhichOneof("kind") for e in events] == ["panda_moved"]


def test_storm_needs_a_plot() -> None:
    """Storm: "to any plot" — not the pond, not where the panda already is."""
    state = turn(garden(game(), _ring()), 0, weather="storm", phase=Phase.WEATHER)
    assert refused(state, 0, pb.Command(move_panda_by_storm=pb.MovePandaByStorm(at=H(0, 0)))) == (
        "storm.not_a_plot"
    )


def test_clouds_give_an_improvement_chip_from_the_bank() -> None:
    """Clouds: take an improvement chip from the bank of 3 of each."""
    state = turn(game(), 0, weather="clouds", phase=Phase.WEATHER)
    take = pb.Command(take_improvement=pb.TakeImprovement(improvement=pb.IMPROVEMENT_ENCLOSURE))
    events = when(state, 0, take)
    state = after(state, events)
    view = ENGINE.view(state, 0)
    assert view["supply"]["improvements"]["enclosure"] == 2
    assert view["players"][0]["improvements"]["enclosure"] == 1
    assert state.phase == Phase.ACTIONS


def test_clouds_with_an_empty_bank_let_the_player_choose_another_weather() -> None:
    """Clouds: no chips left → choose 1 of the other 4 weathers (not clouds, not ?)."""
    state = replace(
        turn(game(), 0, weather="clouds", phase=Phase.WEATHER), improvement_bank=(0, 0, 0)
    )
    legal = ENGINE.legal_commands(state, 0)
    chosen = {c.choose_weather.weather for c in legal if c.WhichOneof("kind") == "choose_weather"}
    assert chosen == {pb.WEATHER_SUN, pb.WEATHER_RAIN, pb.WEATHER_WIND, pb.WEATHER_STORM}
    assert refused(state, 0, _choose(pb.WEATHER_CLOUDS)) == "weather.not_allowed"
    take = pb.Command(take_improvement=pb.TakeImprovement(improvement=pb.IMPROVEMENT_WATERSHED))
    assert refused(state, 0, take) == "improvement.bank_empty"
    state = after(state, when(state, 0, _choose(pb.WEATHER_SUN)))
    assert state.weather == "sun" and state.phase == Phase.ACTIONS


def test_the_question_mark_chooses_any_of_the_five_weathers() -> None:
    """Question mark: choose any 1 of the 5 types of weather."""
    state = turn(game(), 0, weather="question", phase=Phase.WEATHER)
    legal = ENGINE.legal_commands(state, 0)
    chosen = {c.choose_weather.weather for c in legal if c.WhichOneof("kind") == "choose_weather"}
    assert chosen == {1, 2, 3, 4, 5}
    assert refused(state, 0, _choose(pb.WEATHER_QUESTION)) == "weather.not_allowed"
    state = after(state, when(state, 0, _choose(pb.WEATHER_CLOUDS)))
    assert state.weather == "clouds" and state.phase == Phase.WEATHER
    take = pb.Command(take_improvement=pb.TakeImprovement(improvement=pb.IMPROVEMENT_FERTILIZER))
    assert take in ENGINE.legal_commands(state, 0)


@pytest.mark.parametrize("weather", ["rain", "storm", "clouds", "question"])
def test_every_weather_may_be_declined(weather: str) -> None:
    """All weather effects are optional: SkipWeather moves on to the actions."""
    state = turn(game(), 0, weather=weather, phase=Phase.WEATHER)
    events = when(state, 0, SKIP)
    assert events == [pb.Event(weather_skipped=pb.WeatherSkipped(seat=0))]
    assert after(state, events).phase == Phase.ACTIONS


def test_weather_comes_before_the_actions() -> None:
    """Turns: step 1 (weather) before step 2 (actions)."""
    state = turn(game(), 0, weather="rain", phase=Phase.WEATHER)
    assert refused(state, 0, TAKE_IRRIGATION) == "turn.weather_pending"
    assert refused(state, 0, END) == "turn.weather_pending"


def test_weather_commands_need_their_weather() -> None:
    """Each weather command belongs to its face; ChooseWeather only to ? and empty clouds."""
    state = turn(garden(game(), _ring()), 0, weather="rain", phase=Phase.WEATHER)
    assert refused(state, 0, _choose(pb.WEATHER_SUN)) == "weather.no_choice"
    storm = pb.Command(move_panda_by_storm=pb.MovePandaByStorm(at=H(1, 0)))
    assert refused(state, 0, storm) == "weather.not_storm"
    take = pb.Command(take_improvement=pb.TakeImprovement(improvement=pb.IMPROVEMENT_WATERSHED))
    assert refused(state, 0, take) == "weather.not_clouds"
    rainy = turn(garden(game(), _ring()), 0, weather="storm", phase=Phase.WEATHER)
    rain = pb.Command(grow_with_rain=pb.GrowWithRain(at=H(1, 0)))
    assert refused(rainy, 0, rain) == "weather.not_rain"


def test_weather_commands_wait_for_their_phase() -> None:
    """Once the weather is dealt with, weather commands are refused."""
    state = turn(game(), 0, weather="sun")
    assert refused(state, 0, SKIP) == "turn.not_now"


def test_only_the_player_to_act_may_send_commands() -> None:
    """Commands from a seat not to act are refused, and it has no legal commands."""
    state = turn(game(), 0)
    assert ENGINE.legal_commands(state, 1) == []
    assert refused(state, 1, TAKE_IRRIGATION) == "turn.not_your_turn"


def test_an_empty_command_is_refused() -> None:
    """A command naming no move has a stable code too."""
    assert refused(turn(game(), 0), 0, pb.Command()) == "command.empty"


def test_a_hex_must_be_named() -> None:
    """A hex left out is refused rather than read as the pond."""
    state = turn(garden(game(), _ring()), 0)
    assert refused(state, 0, pb.Command(move_gardener=pb.MoveGardener())) == (
        "command.missing_field"
    )


def test_nothing_before_set_up() -> None:
    """Before the set-up events the game takes no command."""
    state = ENGINE.initial_state()
    assert refused(state, 0, END) == "game.not_started"
