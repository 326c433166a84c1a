"""Plots (draw 3, place 1, 2 under the stack) and irrigation channels."""

from __future__ import annotations

from dataclasses import replace

from engines.freunde.engine import ENGINE
from engines.freunde.state import Phase
from proto import freunde_pb2 as pb
from tests.engines.freunde.given import (
    GREEN,
    GREEN_WATERSHED,
    PINK,
    YELLOW,
    H,
    after,
    cell,
    game,
    garden,
    refused,
    reserve,
    turn,
    when,
)

DRAW_PLOTS = pb.Command(draw_plots=pb.DrawPlots())
TAKE_IRRIGATION = pb.Command(take_irrigation=pb.TakeIrrigation())


def _place(tile: int, q: int, r: int) -> pb.Command:
    return pb.Command(place_plot=pb.PlacePlot(tile=tile, at=H(q, r)))


def _channel(a: tuple[int, int], b: tuple[int, int]) -> pb.Command:
    return pb.Command(place_irrigation=pb.PlaceIrrigation(a=H(*a), b=H(*b)))


def test_drawing_plots_shows_three_to_the_drawer_only() -> None:
    """Plots: draw 3 plot tiles; only the drawing seat sees which."""
    state = turn(game(), 0)
    events = when(state, 0, DRAW_PLOTS)
    assert events == [pb.Event(plots_drawn=pb.PlotsDrawn(seat=0, tiles=[1, 2, 3]))]
    state = after(state, events)
    assert state.phase == Phase.PLOT
    assert [t["tile"] for t in ENGINE.view(state, 0)["you"]["drawn_plots"]] == [1, 2, 3]
    assert ENGINE.view(state, 1)["you"]["drawn_plots"] == []
    assert ENGINE.view(state, None)["drawn_plot_count"] == 3
    assert ENGINE.redact(events[0], 1).plots_drawn.tiles == [0, 0, 0]


def test_placing_one_plot_puts_the_other_two_under_the_stack() -> None:
    """Plots: place one; the other two go back under the deck."""
    state = after(turn(game(), 0), [pb.Event(plots_drawn=pb.PlotsDrawn(seat=0, tiles=[1, 2, 3]))])
    events = when(state, 0, _place(2, 1, 0))
    assert events[0] == pb.Event(
        plot_placed=pb.PlotPlaced(seat=0, tile=2, at=H(1, 0), colour=pb.COLOUR_GREEN, returned=2)
    )
    state = after(state, events)
    assert state.plot_stack[-2:] == (1, 3) and len(state.plot_stack) == 26
    assert state.phase == Phase.ACTIONS and state.drawn_plots == ()


def test_a_plot_by_the_pond_is_irrigated_and_grows_a_bamboo() -> None:
    """Irrigation: the 6 plots around the pond are irrigated; first irrigation grows one."""
    state = after(turn(game(), 0), [pb.Event(plots_drawn=pb.PlotsDrawn(seat=0, tiles=[1, 2, 3]))])
    events = when(state, 0, _place(1, 0, -1))
    assert [e.WhichOneof("kind") for e in events] == [
        "plot_placed",
        "plot_irrigated",
        "bamboo_grown",
    ]
    state = after(state, events)
    assert cell(state, 0, -1) == {
        "q": 0,
        "r": -1,
        "tile": 1,
        "colour": "green",
        "improvement": "none",
        "bamboo": 1,
        "irrigated": True,
    }
    assert ENGINE.view(state, None)["supply"]["bamboo"]["green"] == 35


def test_a_plot_must_touch_the_pond_or_two_plots() -> None:
    """Plots: adjacent to the pond or to 2 existing plots."""
    plots = {(1, 0): GREEN[0], (1, -1): GREEN[1]}
    state = garden(game(), plots)
    state = replace(turn(state, 0, phase=Phase.PLOT, actions=("plot",)), drawn_plots=(3, 4, 5))
    assert refused(state, 0, _place(3, 3, 0)) == "plot.not_adjacent"
    assert refused(state, 0, _place(3, 1, 0)) == "plot.occupied"
    assert refused(state, 0, _place(9, 0, 1)) == "plot.not_drawn"
    events = when(state, 0, _place(3, 2, -1))  # beside (1,0) and (1,-1), not the pond
    assert [e.WhichOneof("kind") for e in events] == ["plot_placed"]
    assert cell(after(state, events), 2, -1)["irrigated"] is False


def test_a_printed_watershed_irrigates_its_plot_wherever_it_lies() -> None:
    """Improvements › watershed: irrigated for plots and gardening, grows on arrival."""
    plots = {(1, 0): GREEN[0], (1, -1): GREEN[1]}
    state = garden(game(), plots)
    state = replace(
        turn(state, 0, phase=Phase.PLOT, actions=("plot",)), drawn_plots=(GREEN_WATERSHED,)
    )
    events = when(state, 0, _place(GREEN_WATERSHED, 2, -1))
    assert [e.WhichOneof("kind") for e in events] == [
        "plot_placed",
        "plot_irrigated",
        "bamboo_grown",
    ]


def test_a_short_stack_draws_what_is_left_and_an_empty_one_none() -> None:
    """Plots: with fewer than 3 left, draw them all; with none, no plot action."""
    state = replace(turn(game(), 0), plot_stack=(5, 6))
    assert when(state, 0, DRAW_PLOTS)[0].plots_drawn.tiles == [5, 6]
    empty = replace(state, plot_stack=())
    assert refused(empty, 0, DRAW_PLOTS) == "plot.stack_empty"


def test_the_plot_choice_comes_before_anything_else() -> None:
    """A drawn set of plots waits for its placement."""
    state = after(turn(game(), 0), [pb.Event(plots_drawn=pb.PlotsDrawn(seat=0, tiles=[1, 2, 3]))])
    assert refused(state, 0, TAKE_IRRIGATION) == "turn.plot_pending"


def test_the_irrigation_action_takes_a_channel_into_the_reserve() -> None:
    """Irrigation: take a channel and add it to your reserve."""
    state = turn(game(), 0)
    events = when(state, 0, TAKE_IRRIGATION)
    assert events == [pb.Event(irrigation_taken=pb.IrrigationTaken(seat=0))]
    view = ENGINE.view(after(state, events), None)
    assert view["players"][0]["irrigation"] == 1 and view["supply"]["irrigation"] == 19
    assert refused(replace(state, irrigation_supply=0), 0, TAKE_IRRIGATION) == (
        "irrigation.supply_empty"
    )


def _garden_for_channels() -> dict[tuple[int, int], int]:
    # (1,0) and (1,-1) by the pond; (2,-1) beside both; (3,-1) further out.
    return {
        (1, 0): GREEN[0],
        (1, -1): YELLOW[0],
        (2, -1): PINK[0],
        (3, -1): PINK[1],
        (2, 0): GREEN[1],
    }


def test_a_channel_from_the_pond_corner_irrigates_both_sides_once() -> None:
    """Irrigation channels: traced back to the pond; each plot watered first time grows."""
    state = reserve(turn(garden(game(), _garden_for_channels()), 0), 0, irrigation=1)
    # The side between (1,0) and (1,-1) starts at the pond's corner.
    events = when(state, 0, _channel((1, 0), (1, -1)))
    assert events == [
        pb.Event(irrigation_placed=pb.IrrigationPlaced(seat=0, a=H(1, 0), b=H(1, -1)))
    ]
    state = reserve(
        turn(garden(game(), _garden_for_channels(), channels=[((1, -1), (1, 0))]), 0),
        0,
        irrigation=2,
    )
    # The side between (1,0) and (2,-1) meets that channel's outer corner.
    events = when(state, 0, _channel((2, -1), (1, 0)))
    assert [e.WhichOneof("kind") for e in events] == [
        "irrigation_placed",
        "plot_irrigated",
        "bamboo_grown",
    ]
    assert events[1].plot_irrigated.at == H(2, -1)
    state = after(state, events)
    assert cell(state, 2, -1)["irrigated"] and cell(state, 2, -1)["bamboo"] == 1
    assert ENGINE.view(state, None)["players"][0]["irrigation"] == 1
    assert [[2, -1], [1, 0]] in ENGINE.view(state, None)["channels"] or (
        [[1, 0], [2, -1]] in ENGINE.view(state, None)["channels"]
    )


def test_a_channel_must_join_the_network() -> None:
    """Irrigation channels must always connect to the pond directly or via channels."""
    state = reserve(turn(garden(game(), _garden_for_channels()), 0), 0, irrigation=1)
    assert refused(state, 0, _channel((2, -1), (3, -1))) == "irrigation.not_connected"


def test_a_channel_goes_between_two_tiles_once() -> None:
    """Irrigation channels lie between two plots; one per side; from the reserve."""
    state = reserve(
        turn(garden(game(), _garden_for_channels(), channels=[((1, -1), (1, 0))]), 0),
        0,
        irrigation=1,
    )
    assert refused(state, 0, _channel((1, 0), (1, -1))) == "irrigation.occupied"
    assert refused(state, 0, _channel((3, -1), (4, -1))) == "irrigation.not_between_plots"
    assert refused(state, 0, _channel((1, 0), (3, -1))) == "irrigation.not_between_plots"
    empty = reserve(state, 0, irrigation=0)
    assert refused(empty, 0, _channel((2, -1), (1, 0))) == "irrigation.none_in_reserve"


def test_a_channel_beside_the_pond_is_allowed_but_waters_nothing_new() -> None:
    """The online game allows a channel beside the pond: a wasted move."""
    state = reserve(turn(garden(game(), _garden_for_channels()), 0), 0, irrigation=1)
    events = when(state, 0, _channel((0, 0), (1, 0)))
    assert [e.WhichOneof("kind") for e in events] == ["irrigation_placed"]


def test_a_watershed_is_no_source_for_channels() -> None:
    """A watershed irrigates its plot but not for placing irrigation channels."""
    plots = {
        (1, 0): GREEN[0],
        (1, -1): YELLOW[0],
        (2, -1): GREEN_WATERSHED,
        (3, -1): PINK[0],
        (3, -2): PINK[1],
        (2, -2): GREEN[1],
    }
    state = reserve(turn(garden(game(), plots), 0), 0, irrigation=1)
    assert cell(state, 2, -1)["irrigated"]
    assert refused(state, 0, _channel((2, -1), (3, -2))) == "irrigation.not_connected"


def test_channels_are_free_actions_at_any_time_of_the_turn() -> None:
    """Placing a channel from the reserve does not use up an action."""
    state = reserve(
        turn(garden(game(), _garden_for_channels()), 0, actions=("plot", "panda")), 0, irrigation=1
    )
    state = after(state, when(state, 0, _channel((1, 0), (1, -1))))
    assert state.actions == ("plot", "panda")


def test_free_actions_are_allowed_while_choosing_a_plot() -> None:
    """Channels, chips and claims at any time of the turn, even between draw and placement."""
    state = reserve(turn(garden(game(), _garden_for_channels()), 0), 0, irrigation=1)
    top = list(state.plot_stack[:3])
    state = after(state, [pb.Event(plots_drawn=pb.PlotsDrawn(seat=0, tiles=top))])
    events = when(state, 0, _channel((1, 0), (1, -1)))
    state = after(state, events)
    assert state.phase == Phase.PLOT and state.irrigation_reserve[0] == 0
