"""Plots (draw 3, place 1, 2 under the stack) and irrigation channels."""

from __future__ import annotations

import pytest

from engines.core import hexgrid
from engines.core.testing import given, play_random_game
from engines.freunde.engine import ENGINE
from engines.freunde.plots import can_place_at
from engines.freunde.state import POND, FreundeState
from tests.engines.freunde.positions import (
    GREEN,
    GREEN_WATERSHED,
    PINK,
    YELLOW,
    bamboo_grown,
    draw_plots,
    garden,
    irrigation_placed,
    irrigation_taken,
    place_irrigation,
    place_plot,
    plot_at,
    plot_irrigated,
    plot_placed,
    plots_drawn,
    recorded,
    reserve,
    started,
    take_irrigation,
    turn,
)


def test_drawing_plots_shows_three_to_the_drawer_only() -> None:
    """Plots: draw 3 plot tiles; only the drawing seat sees which."""
    drawn = given(ENGINE, started(), turn(0)).when(0, draw_plots())
    drawn.then(plots_drawn(0, [1, 2, 3]))
    assert drawn.view(0)["stage"] == "plot"
    assert [t["tile"] for t in drawn.view(0)["private"]["drawn_plots"]] == [1, 2, 3]
    assert drawn.view(1)["private"]["drawn_plots"] == []
    assert drawn.view(None)["board"]["drawn_plots"] == [None, None, None]
    assert list(ENGINE.redact(recorded(drawn)[0], 1).plots_drawn.tiles) == [0, 0, 0]


def test_placing_one_plot_puts_the_other_two_under_the_stack() -> None:
    """Plots: place one; the other two go back under the deck, in the order drawn."""
    history = [*started(plot_stack=[1, 2, 3, 4]), *turn(0), plots_drawn(0, [1, 2, 3])]
    placed = given(ENGINE, history).when(0, place_plot(2, (1, 0)))
    placed.then_starts_with(plot_placed(0, 2, (1, 0), returned=2))
    view = placed.view(None)
    assert view["stage"] == "actions" and view["board"]["drawn_plots"] == []
    assert view["board"]["decks"]["plots"] == 3
    # The next draw takes what was under them, then the two that went back.
    later = [*history, *recorded(placed), *turn(1)]
    given(ENGINE, later).when(1, draw_plots()).then(plots_drawn(1, [4, 1, 3]))


def test_a_plot_by_the_pond_is_irrigated_and_grows_a_bamboo() -> None:
    """Irrigation: the 6 plots around the pond are irrigated; first irrigation grows one."""
    position = given(ENGINE, started(), turn(0), plots_drawn(0, [1, 2, 3]))
    placed = position.when(0, place_plot(1, (0, -1)))
    placed.then(
        plot_placed(0, 1, (0, -1), returned=2),
        plot_irrigated((0, -1)),
        bamboo_grown((0, -1), "green"),
    )
    assert plot_at(placed.view(1), 0, -1) == {
        "q": 0,
        "r": -1,
        "tile": 1,
        "colour": "green",
        "improvement": "none",
        "bamboo": 1,
        "irrigated": True,
    }
    assert placed.view(None)["board"]["supply"]["bamboo"]["green"] == 35


def test_a_plot_must_touch_the_pond_or_two_plots() -> None:
    """Plots: adjacent to the pond or to 2 existing plots."""
    plots = {(1, 0): GREEN[0], (1, -1): GREEN[1]}
    position = given(ENGINE, started(), garden(plots), turn(0), plots_drawn(0, [3, 4, 5]))
    position.when(0, place_plot(3, (3, 0))).refused("plot.not_adjacent")
    position.when(0, place_plot(3, (1, 0))).refused("plot.occupied")
    position.when(0, place_plot(3, (0, 0))).refused("plot.occupied")
    position.when(0, place_plot(9, (0, 1))).refused("plot.not_drawn")
    # Beside (1,0) and (1,-1), not the pond: placed, and dry.
    placed = position.when(0, place_plot(3, (2, -1))).then(plot_placed(0, 3, (2, -1), returned=2))
    assert plot_at(placed.view(0), 2, -1)["irrigated"] is False


def test_a_printed_watershed_irrigates_its_plot_wherever_it_lies() -> None:
    """Improvements › watershed: irrigated for plots and gardening, grows on arrival."""
    plots = {(1, 0): GREEN[0], (1, -1): GREEN[1]}
    position = given(ENGINE, started(), garden(plots), turn(0), plots_drawn(0, [GREEN_WATERSHED]))
    position.when(0, place_plot(GREEN_WATERSHED, (2, -1))).then(
        plot_placed(0, GREEN_WATERSHED, (2, -1)),
        plot_irrigated((2, -1)),
        bamboo_grown((2, -1), "green"),
    )


def test_a_short_stack_draws_what_is_left_and_an_empty_one_none() -> None:
    """Plots: with fewer than 3 left, draw them all; with none, no plot action."""
    short = given(ENGINE, started(plot_stack=[5, 6]), turn(0))
    short.when(0, draw_plots()).then(plots_drawn(0, [5, 6]))
    empty = given(ENGINE, started(plot_stack=[]), turn(0))
    empty.when(0, draw_plots()).refused("plot.stack_empty")


def test_the_plot_choice_comes_before_anything_else() -> None:
    """A drawn set of plots waits for its placement."""
    position = given(ENGINE, started(), turn(0), plots_drawn(0, [1, 2, 3]))
    refusal = position.when(0, take_irrigation()).refused("command.not_now")
    assert refusal.message == "Place one of the plots you drew first."


def test_the_irrigation_action_takes_a_channel_into_the_reserve() -> None:
    """Irrigation: take a channel and add it to your reserve."""
    taken = given(ENGINE, started(), turn(0)).when(0, take_irrigation()).then(irrigation_taken(0))
    view = taken.view(None)
    assert view["players"][0]["irrigation"] == 1 and view["board"]["supply"]["irrigation"] == 19
    all_taken = [irrigation_taken(1) for _ in range(20)]
    given(ENGINE, started(), all_taken, turn(0)).when(0, take_irrigation()).refused(
        "irrigation.supply_empty"
    )


# (1,0) and (1,-1) by the pond; (2,-1) beside both; (3,-1) further out.
CHANNEL_GARDEN = {
    (1, 0): GREEN[0],
    (1, -1): YELLOW[0],
    (2, -1): PINK[0],
    (3, -1): PINK[1],
    (2, 0): GREEN[1],
}


def test_a_channel_from_the_pond_corner_irrigates_both_sides_once() -> None:
    """Irrigation channels: traced back to the pond; each plot watered first time grows."""
    # The side between (1,0) and (1,-1) starts at the pond's corner; both are already
    # irrigated by the pond, so nothing grows.
    position = given(ENGINE, started(), garden(CHANNEL_GARDEN), reserve(0, irrigation=1), turn(0))
    position.when(0, place_irrigation((1, 0), (1, -1))).then(irrigation_placed(0, (1, 0), (1, -1)))
    # The side between (1,0) and (2,-1) meets that channel's outer corner.
    laid = garden(CHANNEL_GARDEN, channels=[((1, -1), (1, 0))])
    position = given(ENGINE, started(), laid, reserve(0, irrigation=2), turn(0))
    watered = position.when(0, place_irrigation((2, -1), (1, 0)))
    watered.then(
        irrigation_placed(0, (2, -1), (1, 0)),
        plot_irrigated((2, -1)),
        bamboo_grown((2, -1), "pink"),
    )
    view = watered.view(None)
    assert plot_at(view, 2, -1)["irrigated"] and plot_at(view, 2, -1)["bamboo"] == 1
    assert view["players"][0]["irrigation"] == 1
    assert [[1, 0], [2, -1]] in view["board"]["channels"]


def test_a_channel_must_join_the_network() -> None:
    """Irrigation channels must always connect to the pond directly or via channels."""
    position = given(ENGINE, started(), garden(CHANNEL_GARDEN), reserve(0, irrigation=1), turn(0))
    position.when(0, place_irrigation((2, -1), (3, -1))).refused("irrigation.not_connected")


def test_a_channel_goes_between_two_tiles_once() -> None:
    """Irrigation channels lie between two plots; one per side; from the reserve."""
    laid = garden(CHANNEL_GARDEN, channels=[((1, -1), (1, 0))])
    position = given(ENGINE, started(), laid, reserve(0, irrigation=1), turn(0))
    position.when(0, place_irrigation((1, 0), (1, -1))).refused("irrigation.occupied")
    position.when(0, place_irrigation((3, -1), (4, -1))).refused("irrigation.not_between_plots")
    position.when(0, place_irrigation((1, 0), (3, -1))).refused("irrigation.not_between_plots")
    empty = given(ENGINE, started(), laid, turn(0))
    empty.when(0, place_irrigation((2, -1), (1, 0))).refused("irrigation.none_in_reserve")


def test_a_channel_beside_the_pond_is_allowed_but_waters_nothing_new() -> None:
    """The online game allows a channel beside the pond: a wasted move."""
    position = given(ENGINE, started(), garden(CHANNEL_GARDEN), reserve(0, irrigation=1), turn(0))
    position.when(0, place_irrigation((0, 0), (1, 0))).then(irrigation_placed(0, (0, 0), (1, 0)))


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
    position = given(ENGINE, started(), garden(plots), reserve(0, irrigation=1), turn(0))
    assert plot_at(position.view(0), 2, -1)["irrigated"]
    position.when(0, place_irrigation((2, -1), (3, -2))).refused("irrigation.not_connected")


def test_channels_are_free_actions_at_any_time_of_the_turn() -> None:
    """Placing a channel from the reserve does not use up an action."""
    history = [*started(), *garden(CHANNEL_GARDEN), *reserve(0, irrigation=1), *turn(0)]
    history += [irrigation_taken(0)]  # one action taken this turn
    placed = given(ENGINE, history).when(0, place_irrigation((1, 0), (1, -1))).accepted()
    assert placed.view(0)["board"]["actions_taken"] == ["irrigation"]
    assert placed.view(0)["players"][0]["irrigation"] == 1


def test_free_actions_are_allowed_while_choosing_a_plot() -> None:
    """Channels, chips and claims at any time of the turn, even between draw and placement."""
    history = [*started(), *garden(CHANNEL_GARDEN), *reserve(0, irrigation=1), *turn(0)]
    history += [plots_drawn(0, [6, 7, 8])]
    placed = given(ENGINE, history).when(0, place_irrigation((1, 0), (1, -1))).accepted()
    view = placed.view(0)
    assert view["stage"] == "plot" and view["players"][0]["irrigation"] == 0


def _spots_checked_while_playing(seats: int, index: int) -> int:
    """Play a random game, checking the garden's open spots before each command against
    the rule asked afresh of every empty hex beside a tile; how many spots were open
    away from the pond."""
    away_from_pond = 0

    def check(state: FreundeState) -> None:
        nonlocal away_from_pond
        garden = state.garden
        near = {n for h in garden.tiles for n in hexgrid.neighbours(h)} - garden.tiles
        assert garden.spots == tuple(sorted(h for h in near if can_place_at(state, h)))
        away_from_pond += sum(hexgrid.distance(h, POND) > 1 for h in garden.spots)

    play_random_game(ENGINE, seats, index, invariants=check)
    return away_from_pond


@pytest.mark.parametrize("seats", [2, 4])
def test_the_open_spots_kept_in_the_garden_are_where_a_plot_may_go(seats: int) -> None:
    """``Garden.spots`` (what listings read) is kept by the recorder of a placed plot: at
    every step of random games it is every empty hex beside the pond or two plots."""
    assert sum(_spots_checked_while_playing(seats, index) for index in range(2))


def _open_sides_checked_while_playing(seats: int, index: int) -> int:
    """Play a random game, checking the garden's open sides before each command against
    every side between two tiles asked afresh (free, and an end corner on the pond or a
    channel); how many channels had been placed."""
    channels = 0

    def check(state: FreundeState) -> None:
        nonlocal channels
        garden = state.garden
        corners = {v for e in garden.channels for v in hexgrid.edge_vertices(e)}
        sides = {
            hexgrid.edge(h, n)
            for h in garden.tiles
            for n in hexgrid.neighbours(h)
            if n in garden.tiles
        }
        joining = [
            side
            for side in sides - garden.channels
            if any(POND in v or v in corners for v in hexgrid.edge_vertices(side))
        ]
        assert garden.open_sides == tuple(sorted(joining))
        channels += len(garden.channels)

    play_random_game(ENGINE, seats, index, invariants=check)
    return channels


@pytest.mark.parametrize("seats", [2, 4])
def test_the_open_sides_kept_in_the_garden_are_where_a_channel_may_go(seats: int) -> None:
    """``Garden.open_sides`` (what listings read) is kept by the recorders of a placed plot
    or channel: at every step of random games it is every free side between two tiles
    with an end corner on the pond or a channel (Irrigation channels)."""
    assert sum(_open_sides_checked_while_playing(seats, index) for index in range(2))
