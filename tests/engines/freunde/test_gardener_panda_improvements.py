"""The Gardener and the Panda (straight lines, growing, eating) and Improvements."""

from __future__ import annotations

from dataclasses import replace

from engines.freunde.engine import ENGINE
from proto import freunde_pb2 as pb
from tests.engines.freunde.given import (
    GREEN,
    GREEN_ENCLOSURE,
    GREEN_FERTILIZER,
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


def _gardener(q: int, r: int) -> pb.Command:
    return pb.Command(move_gardener=pb.MoveGardener(to=H(q, r)))


def _panda(q: int, r: int) -> pb.Command:
    return pb.Command(move_panda=pb.MovePanda(to=H(q, r)))


def _chip(improvement: pb.Improvement.ValueType, q: int, r: int) -> pb.Command:
    return pb.Command(place_improvement=pb.PlaceImprovement(improvement=improvement, at=H(q, r)))


def _grown(q: int, r: int, colour: pb.Colour.ValueType, sections: int = 1) -> pb.Event:
    return pb.Event(bamboo_grown=pb.BambooGrown(at=H(q, r), colour=colour, sections=sections))


# A line east of the pond: (1,0) (2,0) green, a gap at (3,0), (4,0) beyond it.
# Around (1,0): (1,-1) green irrigated, (2,-1) green dry, (0,1) yellow irrigated.
LINE = {
    (1, 0): GREEN[0],
    (2, 0): GREEN[1],
    (4, 0): GREEN[2],
    (3, -1): GREEN[3],
    (4, -1): YELLOW[1],
    (1, -1): GREEN[4],
    (2, -1): YELLOW[2],
    (0, 1): YELLOW[0],
}


def test_the_gardener_moves_in_a_straight_line_and_never_over_a_gap() -> None:
    """Gardener: any number of tiles in a straight line, can not jump over gaps."""
    state = turn(garden(game(), LINE), 0)
    legal = ENGINE.legal_commands(state, 0)
    assert _gardener(2, 0) in legal
    assert refused(state, 0, _gardener(4, 0)) == "gardener.not_straight_line"
    assert refused(state, 0, _gardener(2, -1)) == "gardener.not_straight_line"
    assert refused(state, 0, _gardener(0, 0)) == "gardener.not_straight_line"


def test_the_gardener_grows_his_plot_and_the_irrigated_neighbours_of_its_colour() -> None:
    """The gardener grows bamboo on his plot and adjacent irrigated plots of the same colour."""
    state = turn(garden(game(), LINE, channels=[((1, 0), (2, -1))]), 0)
    # The channel waters (2,-1), which is yellow: another colour, so it does not grow.
    events = when(state, 0, _gardener(1, 0))
    assert events == [
        pb.Event(gardener_moved=pb.GardenerMoved(seat=0, to=H(1, 0))),
        _grown(1, 0, pb.COLOUR_GREEN),
        _grown(1, -1, pb.COLOUR_GREEN),
    ]
    state = after(state, events)
    assert ENGINE.view(state, None)["gardener"] == [1, 0]
    assert cell(state, 0, 1)["bamboo"] == 0  # yellow: another colour
    assert cell(state, 2, 0)["bamboo"] == 0  # green but not irrigated
    assert state.actions == ("gardener",)


def test_fertilizer_grows_two_and_no_stalk_passes_four() -> None:
    """Fertilizer grows 2 with every gardener action; bamboo is at most 4 tall."""
    plots = {(1, 0): GREEN_FERTILIZER, (1, -1): GREEN[0]}
    state = turn(garden(game(), plots, bamboo={(1, -1): 4}), 0)
    events = when(state, 0, _gardener(1, 0))
    assert events[1:] == [_grown(1, 0, pb.COLOUR_GREEN, 2)]
    state = replace(turn(garden(game(), plots, bamboo={(1, 0): 3}), 0))
    assert when(state, 0, _gardener(1, 0))[1:] == [
        _grown(1, 0, pb.COLOUR_GREEN, 1),
        _grown(1, -1, pb.COLOUR_GREEN, 1),
    ]


def test_an_empty_bamboo_supply_grows_nothing() -> None:
    """Bamboo sections come from the supply (36 green, 30 yellow, 24 pink)."""
    plots = {(1, 0): GREEN[0], (1, -1): GREEN[1]}
    state = replace(turn(garden(game(), plots), 0), bamboo_supply=(1, 30, 24))
    assert when(state, 0, _gardener(1, 0))[1:] == [_grown(1, 0, pb.COLOUR_GREEN)]


def test_the_gardener_on_the_pond_grows_nothing() -> None:
    """The pond is no plot: the gardener may cross and stop on it, nothing grows."""
    plots = {(1, 0): GREEN[0], (-1, 0): GREEN[1]}
    state = replace(turn(garden(game(), plots), 0), gardener=(1, 0))
    assert when(state, 0, _gardener(0, 0))[1:] == []
    assert _gardener(-1, 0) in ENGINE.legal_commands(state, 0)


def test_the_panda_eats_one_section_into_the_reserve() -> None:
    """Panda: move in a straight line, eat a section; it goes to your reserve."""
    state = turn(garden(game(), LINE, bamboo={(2, 0): 3}), 1)
    events = when(state, 1, _panda(2, 0))
    assert events == [
        pb.Event(panda_moved=pb.PandaMoved(seat=1, to=H(2, 0))),
        pb.Event(bamboo_eaten=pb.BambooEaten(seat=1, at=H(2, 0), colour=pb.COLOUR_GREEN)),
    ]
    state = after(state, events)
    assert cell(state, 2, 0)["bamboo"] == 2
    assert ENGINE.view(state, None)["players"][1]["bamboo"] == {"green": 1, "yellow": 0, "pink": 0}
    assert refused(turn(garden(game(), LINE), 1), 1, _panda(4, 0)) == "panda.not_straight_line"


def test_the_enclosure_stops_the_panda_eating() -> None:
    """The panda can NOT eat any bamboo from a plot with an enclosure (printed or chip)."""
    plots = {(1, 0): GREEN_ENCLOSURE, (0, 1): PINK[0]}
    state = turn(
        garden(game(), plots, bamboo={(1, 0): 2, (0, 1): 1}, chips={(0, 1): "enclosure"}), 0
    )
    assert [e.WhichOneof("kind") for e in when(state, 0, _panda(1, 0))] == ["panda_moved"]
    assert [e.WhichOneof("kind") for e in when(state, 0, _panda(0, 1))] == ["panda_moved"]


def test_a_chip_goes_only_on_a_blank_plot() -> None:
    """Improvements: only on plots with no bamboo or improvements; a free action."""
    plots = {(1, 0): GREEN[0], (1, -1): GREEN_FERTILIZER, (2, -1): YELLOW[0]}
    state = reserve(
        turn(garden(game(), plots, bamboo={(1, 0): 1}), 0, actions=("plot",)), 0, chips=(1, 1, 1)
    )
    assert refused(state, 0, _chip(pb.IMPROVEMENT_ENCLOSURE, 1, 0)) == "improvement.not_blank"
    assert refused(state, 0, _chip(pb.IMPROVEMENT_ENCLOSURE, 1, -1)) == "improvement.not_blank"
    assert refused(state, 0, _chip(pb.IMPROVEMENT_ENCLOSURE, 0, 0)) == "improvement.not_blank"
    events = when(state, 0, _chip(pb.IMPROVEMENT_FERTILIZER, 2, -1))
    assert events == [
        pb.Event(
            improvement_placed=pb.ImprovementPlaced(
                seat=0, improvement=pb.IMPROVEMENT_FERTILIZER, at=H(2, -1)
            )
        )
    ]
    state = after(state, events)
    assert cell(state, 2, -1)["improvement"] == "fertilizer"
    assert state.actions == ("plot",)
    assert refused(state, 0, _chip(pb.IMPROVEMENT_WATERSHED, 2, -1)) == "improvement.not_blank"


def test_a_chip_must_be_in_the_reserve() -> None:
    """Improvements come from one's own reserve."""
    state = turn(garden(game(), {(1, 0): GREEN[0]}), 0)
    assert refused(state, 0, _chip(pb.IMPROVEMENT_WATERSHED, 1, 0)) == (
        "improvement.not_in_reserve"
    )


def test_a_watershed_chip_irrigates_and_grows_its_plot() -> None:
    """A plot with a watershed is irrigated: first irrigation grows one bamboo."""
    plots = {(1, 0): GREEN[0], (1, -1): GREEN[1], (2, -1): YELLOW[0]}
    state = reserve(turn(garden(game(), plots), 0), 0, chips=(1, 0, 0))
    events = when(state, 0, _chip(pb.IMPROVEMENT_WATERSHED, 2, -1))
    assert [e.WhichOneof("kind") for e in events] == [
        "improvement_placed",
        "plot_irrigated",
        "bamboo_grown",
    ]
    state = after(state, events)
    assert cell(state, 2, -1)["irrigated"] and cell(state, 2, -1)["bamboo"] == 1


def test_a_printed_improvement_counts_as_that_improvement() -> None:
    """Plots with printed improvements count as having them (silent rulebook: Takenoko)."""
    state = garden(game(), {(1, 0): GREEN_WATERSHED})
    assert cell(state, 1, 0)["improvement"] == "watershed"


def test_the_gardener_on_a_dry_plot_grows_only_its_irrigated_neighbours() -> None:
    """Bamboo never grows on a dry plot: the gardener's own dry plot stays bare."""
    state = replace(turn(garden(game(), LINE), 0), gardener=(1, 0))
    events = when(state, 0, _gardener(2, 0))
    assert events == [
        pb.Event(gardener_moved=pb.GardenerMoved(seat=0, to=H(2, 0))),
        _grown(1, 0, pb.COLOUR_GREEN),
    ]
