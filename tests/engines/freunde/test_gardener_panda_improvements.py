"""The Gardener and the Panda (straight lines, growing, eating) and Improvements."""

from __future__ import annotations

from engines.core.testing import given
from engines.freunde.engine import ENGINE
from tests.engines.freunde.positions import (
    GREEN,
    GREEN_ENCLOSURE,
    GREEN_FERTILIZER,
    GREEN_WATERSHED,
    PINK,
    YELLOW,
    bamboo_eaten,
    bamboo_grown,
    fed,
    garden,
    gardener_moved,
    improvement_placed,
    irrigation_taken,
    move_gardener,
    move_panda,
    panda_moved,
    place_improvement,
    plot_at,
    plot_irrigated,
    recorded,
    reserve,
    started,
    turn,
)

# A line east of the pond: (1,0) (2,0) green, a gap at (3,0), (4,0) beyond it.
# Around (1,0): (1,-1) green irrigated, (2,-1) yellow dry, (0,1) yellow irrigated.
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
    position = given(ENGINE, started(), garden(LINE), turn(0))
    position.when(0, move_gardener((2, 0))).accepted()
    position.when(0, move_gardener((4, 0))).refused("gardener.not_straight_line")
    position.when(0, move_gardener((2, -1))).refused("gardener.not_straight_line")
    position.when(0, move_gardener((0, 0))).refused("gardener.not_straight_line")


def test_the_gardener_grows_his_plot_and_the_irrigated_neighbours_of_its_colour() -> None:
    """The gardener grows bamboo on his plot and adjacent irrigated plots of the same colour."""
    # The channel waters (2,-1), which is yellow: another colour, so it does not grow.
    position = given(ENGINE, started(), garden(LINE, channels=[((1, 0), (2, -1))]), turn(0))
    grown = position.when(0, move_gardener((1, 0)))
    grown.then(
        gardener_moved(0, (1, 0)),
        bamboo_grown((1, 0), "green"),
        bamboo_grown((1, -1), "green"),
    )
    view = grown.view(None)
    assert view["board"]["gardener"] == [1, 0]
    assert plot_at(view, 0, 1)["bamboo"] == 0  # yellow: another colour
    assert plot_at(view, 2, 0)["bamboo"] == 0  # green but not irrigated
    assert view["board"]["actions_taken"] == ["gardener"]


def test_fertilizer_grows_two_and_no_stalk_passes_four() -> None:
    """Fertilizer grows 2 with every gardener action; bamboo is at most 4 tall."""
    plots = {(1, 0): GREEN_FERTILIZER, (1, -1): GREEN[0]}
    full = given(ENGINE, started(), garden(plots, bamboo={(1, -1): 4}), turn(0))
    full.when(0, move_gardener((1, 0))).then(
        gardener_moved(0, (1, 0)), bamboo_grown((1, 0), "green", 2)
    )
    three = given(ENGINE, started(), garden(plots, bamboo={(1, 0): 3}), turn(0))
    three.when(0, move_gardener((1, 0))).then(
        gardener_moved(0, (1, 0)),
        bamboo_grown((1, 0), "green", 1),
        bamboo_grown((1, -1), "green", 1),
    )


def test_an_empty_bamboo_supply_grows_nothing() -> None:
    """Bamboo sections come from the supply (36 green, 30 yellow, 24 pink)."""
    plots = {(1, 0): GREEN[0], (1, -1): GREEN[1], (-1, 0): GREEN[2]}
    eaten = fed(1, (-1, 0), "green", sections=35)  # one green section left
    position = given(ENGINE, started(), garden(plots), eaten, turn(0))
    assert position.view(0)["board"]["supply"]["bamboo"]["green"] == 1
    position.when(0, move_gardener((1, 0))).then(
        gardener_moved(0, (1, 0)), bamboo_grown((1, 0), "green")
    )


def test_the_gardener_on_the_pond_grows_nothing() -> None:
    """The pond is no plot: the gardener may cross and stop on it, nothing grows."""
    plots = {(1, 0): GREEN[0], (-1, 0): GREEN[1]}
    position = given(ENGINE, started(), garden(plots), gardener_moved(1, (1, 0)), turn(0))
    position.when(0, move_gardener((0, 0))).then(gardener_moved(0, (0, 0)))
    position.when(0, move_gardener((-1, 0))).accepted()


def test_the_panda_eats_one_section_into_the_reserve() -> None:
    """Panda: move in a straight line, eat a section; it goes to your reserve."""
    position = given(ENGINE, started(), garden(LINE, bamboo={(2, 0): 3}), turn(1))
    eaten = position.when(1, move_panda((2, 0)))
    eaten.then(panda_moved(1, (2, 0)), bamboo_eaten(1, (2, 0), "green"))
    view = eaten.view(None)
    assert plot_at(view, 2, 0)["bamboo"] == 2
    assert view["players"][1]["bamboo"] == {"green": 1, "yellow": 0, "pink": 0}
    given(ENGINE, started(), garden(LINE), turn(1)).when(1, move_panda((4, 0))).refused(
        "panda.not_straight_line"
    )


def test_the_enclosure_stops_the_panda_eating() -> None:
    """The panda can NOT eat any bamboo from a plot with an enclosure (printed or chip)."""
    plots = {(1, 0): GREEN_ENCLOSURE, (0, 1): PINK[0]}
    laid = garden(plots, bamboo={(1, 0): 2, (0, 1): 1}, chips={(0, 1): "enclosure"})
    position = given(ENGINE, started(), laid, turn(0))
    position.when(0, move_panda((1, 0))).then(panda_moved(0, (1, 0)))
    position.when(0, move_panda((0, 1))).then(panda_moved(0, (0, 1)))


def test_a_chip_goes_only_on_a_blank_plot() -> None:
    """Improvements: only on plots with no bamboo or improvements; a free action."""
    plots = {(1, 0): GREEN[0], (1, -1): GREEN_FERTILIZER, (2, -1): YELLOW[0]}
    history = [*started(), *garden(plots, bamboo={(1, 0): 1}), *reserve(0, chips=(1, 1, 1))]
    history += [*turn(0), irrigation_taken(0)]
    position = given(ENGINE, history)
    position.when(0, place_improvement("enclosure", (1, 0))).refused("improvement.not_blank")
    position.when(0, place_improvement("enclosure", (1, -1))).refused("improvement.not_blank")
    position.when(0, place_improvement("enclosure", (0, 0))).refused("improvement.not_blank")
    placed = position.when(0, place_improvement("fertilizer", (2, -1)))
    placed.then(improvement_placed(0, "fertilizer", (2, -1)))
    view = placed.view(0)
    assert plot_at(view, 2, -1)["improvement"] == "fertilizer"
    assert view["board"]["actions_taken"] == ["irrigation"]
    given(ENGINE, history, recorded(placed)).when(
        0, place_improvement("watershed", (2, -1))
    ).refused("improvement.not_blank")


def test_a_chip_must_be_in_the_reserve() -> None:
    """Improvements come from one's own reserve."""
    theirs = reserve(1, chips=(1, 0, 0))
    position = given(ENGINE, started(), garden({(1, 0): GREEN[0]}), theirs, turn(0))
    position.when(0, place_improvement("watershed", (1, 0))).refused("improvement.not_in_reserve")


def test_a_watershed_chip_irrigates_and_grows_its_plot() -> None:
    """A plot with a watershed is irrigated: first irrigation grows one bamboo."""
    plots = {(1, 0): GREEN[0], (1, -1): GREEN[1], (2, -1): YELLOW[0]}
    position = given(ENGINE, started(), garden(plots), reserve(0, chips=(1, 0, 0)), turn(0))
    watered = position.when(0, place_improvement("watershed", (2, -1)))
    watered.then(
        improvement_placed(0, "watershed", (2, -1)),
        plot_irrigated((2, -1)),
        bamboo_grown((2, -1), "yellow"),
    )
    assert plot_at(watered.view(0), 2, -1)["irrigated"]
    assert plot_at(watered.view(0), 2, -1)["bamboo"] == 1


def test_a_printed_improvement_counts_as_that_improvement() -> None:
    """Plots with printed improvements count as having them (silent rulebook: Takenoko)."""
    printed = garden({(1, 0): GREEN_WATERSHED})
    position = given(ENGINE, started(), printed, reserve(0, chips=(0, 1, 0)), turn(0))
    assert plot_at(position.view(None), 1, 0)["improvement"] == "watershed"
    position.when(0, place_improvement("fertilizer", (1, 0))).refused("improvement.not_blank")


def test_the_gardener_on_a_dry_plot_grows_only_its_irrigated_neighbours() -> None:
    """Bamboo never grows on a dry plot: the gardener's own dry plot stays bare."""
    position = given(ENGINE, started(), garden(LINE), gardener_moved(1, (1, 0)), turn(0))
    position.when(0, move_gardener((2, 0))).then(
        gardener_moved(0, (2, 0)), bamboo_grown((1, 0), "green")
    )
