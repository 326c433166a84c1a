"""Objectives: drawing (hand limit, already-shown cards), and completing every kind."""

from __future__ import annotations

import pytest

from engines.core import hexgrid
from engines.core.hexgrid import Hex
from engines.core.testing import given, play_random_game
from engines.freunde.content import OBJECTIVES, TILES
from engines.freunde.engine import ENGINE
from engines.freunde.garden import colour_at, improvement_at
from engines.freunde.objectives import claimable, is_met
from engines.freunde.state import TALL_STALK, FreundeState
from proto import freunde_pb2 as pb
from tests.engines.freunde.positions import (
    DECKS,
    GREEN,
    GREEN_3_ON_4,
    GREEN_4_ENCLOSURE,
    GREEN_4_FERTILIZER,
    GREEN_4_PLAIN,
    GREEN_4_WATERSHED,
    GREEN_CURVE,
    GREEN_DIAMOND,
    GREEN_ENCLOSURE,
    GREEN_FERTILIZER,
    GREEN_STRAIGHT,
    GREEN_TRIANGLE,
    GREEN_WATERSHED,
    PANDA_2_GREEN,
    PANDA_EACH,
    PINK,
    PINK_3_ON_2,
    PINK_GREEN_DIAMOND,
    PINK_STRAIGHT,
    PINK_WATERSHED,
    YELLOW,
    YELLOW_3_ON_3,
    YELLOW_GREEN_DIAMOND,
    YELLOW_PINK_DIAMOND,
    YELLOW_WATERSHED,
    claim,
    draw_objective,
    fed,
    garden,
    move_panda,
    objective_claimed,
    objective_drawn,
    objective_returned,
    panda_moved,
    recorded,
    started,
    take_irrigation,
    turn,
)

_PRINTED_WATERSHED = {"green": GREEN_WATERSHED, "yellow": YELLOW_WATERSHED, "pink": PINK_WATERSHED}


def _laid_out(
    cells: dict[Hex, int],
    card: int,
    *,
    watered: bool = True,
    bamboo: dict[Hex, int] | None = None,
) -> list[pb.Event]:
    """Seat 0 holds ``card`` and is to act; these plots lie far from the pond, watered
    (unless told otherwise) by the bank's three watershed chips and, for a fourth plot,
    a printed watershed of its colour."""
    cells = dict(cells)
    chips: dict[Hex, str] = {}
    if watered:
        spots = list(cells)
        chips = {h: "watershed" for h in spots[:3]}
        for h in spots[3:]:
            cells[h] = _PRINTED_WATERSHED[TILES[cells[h]].colour]
    return [*started(hands={0: [card]}), *garden(cells, bamboo=bamboo, chips=chips), *turn(0)]


def _shape(origin: Hex, offsets: list[Hex], tiles: list[int], turn_by: int = 0) -> dict[Hex, int]:
    return {
        hexgrid.add(origin, hexgrid.rotate(o, turn_by)): t
        for o, t in zip(offsets, tiles, strict=True)
    }


# ---- plot objectives --------------------------------------------------------

TRIANGLE = [(0, 0), (1, 0), (0, 1)]
STRAIGHT = [(0, 0), (1, 0), (2, 0)]
CURVE = [(0, 0), (1, 0), (1, 1)]
DIAMOND = [(0, 0), (1, 0), (0, 1), (1, 1)]


@pytest.mark.parametrize("turn_by", range(6))
@pytest.mark.parametrize(
    ("card", "offsets"),
    [
        (GREEN_TRIANGLE, TRIANGLE),
        (GREEN_STRAIGHT, STRAIGHT),
        (GREEN_CURVE, CURVE),
        (GREEN_DIAMOND, DIAMOND),
    ],
)
def test_a_plot_pattern_counts_in_every_turn(card: int, offsets: list[Hex], turn_by: int) -> None:
    """Plot objectives: the configuration on the card, turned any way, all plots irrigated."""
    cells = _shape((3, -1), offsets, list(GREEN[: len(offsets)]), turn_by)
    claimed = given(ENGINE, _laid_out(cells, card)).when(0, claim(card))
    claimed.then(objective_claimed(0, card))
    assert recorded(claimed)[0].objective_claimed.kind == pb.OBJECTIVE_KIND_PLOT


def test_a_plot_pattern_needs_every_plot_irrigated() -> None:
    """Plot objectives are completed with all the component plots irrigated."""
    cells = _shape((3, -1), STRAIGHT, [PINK[0], PINK[1], PINK[2]])
    dry = given(ENGINE, _laid_out(cells, PINK_STRAIGHT, watered=False))
    dry.when(0, claim(PINK_STRAIGHT)).refused("objective.not_met")
    watered = given(ENGINE, _laid_out(cells, PINK_STRAIGHT)).when(0, claim(PINK_STRAIGHT))
    assert (
        recorded(watered.then(objective_claimed(0, PINK_STRAIGHT)))[0].objective_claimed.points == 4
    )


def test_a_plot_pattern_needs_its_colour() -> None:
    """A pattern of mixed colours does not show a single-colour card."""
    cells = _shape((3, -1), STRAIGHT, [PINK[0], GREEN[0], PINK[2]])
    given(ENGINE, _laid_out(cells, PINK_STRAIGHT)).when(0, claim(PINK_STRAIGHT)).refused(
        "objective.not_met"
    )


# Card layout: first colour at (0,0),(0,1); second at (1,0),(1,1).
TWO_COLOUR = [(0, 0), (0, 1), (1, 0), (1, 1)]
MIRRORED = [(0, 0), (1, 0), (0, 1), (1, 1)]  # the same layout reflected in q = r


@pytest.mark.parametrize("turn_by", range(6))
@pytest.mark.parametrize(
    ("card", "first", "second"),
    [
        (YELLOW_GREEN_DIAMOND, YELLOW, GREEN),
        (PINK_GREEN_DIAMOND, PINK, GREEN),
        (YELLOW_PINK_DIAMOND, YELLOW, PINK),
    ],
)
def test_a_two_colour_diamond_counts_sideways_or_upside_down(
    card: int, first: tuple[int, ...], second: tuple[int, ...], turn_by: int
) -> None:
    """Two-colour diamonds: turned any way, as long as the diagonal keeps its direction."""
    cells = _shape((3, -1), TWO_COLOUR, [first[0], first[1], second[2], second[3]], turn_by)
    given(ENGINE, _laid_out(cells, card)).when(0, claim(card)).then(objective_claimed(0, card))


@pytest.mark.parametrize("turn_by", range(6))
def test_a_mirrored_two_colour_diamond_does_not_count(turn_by: int) -> None:
    """Two-colour diamonds: the mirror image puts the diagonal the other way — refused."""
    cells = _shape((3, -1), MIRRORED, [YELLOW[0], YELLOW[1], GREEN[2], GREEN[3]], turn_by)
    position = given(ENGINE, _laid_out(cells, YELLOW_GREEN_DIAMOND))
    position.when(0, claim(YELLOW_GREEN_DIAMOND)).refused("objective.not_met")


# ---- gardener objectives ----------------------------------------------------


def _towers(
    card: int, plots: dict[Hex, int], bamboo: dict[Hex, int], chips: dict[Hex, str] | None = None
) -> list[pb.Event]:
    """Seat 0 holds ``card`` and is to act, with these plots, chips and stalks."""
    return [*started(hands={0: [card]}), *garden(plots, bamboo=bamboo, chips=chips), *turn(0)]


@pytest.mark.parametrize(
    ("card", "tile", "chip"),
    [
        (GREEN_4_FERTILIZER, GREEN_FERTILIZER, ""),
        (GREEN_4_ENCLOSURE, GREEN_ENCLOSURE, ""),
        (GREEN_4_WATERSHED, GREEN[0], "watershed"),
        (GREEN_4_PLAIN, GREEN[0], ""),
        (GREEN_4_ENCLOSURE, GREEN[0], "enclosure"),
    ],
)
def test_a_four_tall_bamboo_on_its_improvement(card: int, tile: int, chip: str) -> None:
    """Gardener objectives: a tower of 4 on the card's colour and improvement (printed or chip)."""
    chips = {(1, 0): chip} if chip else {}
    claimed = given(ENGINE, _towers(card, {(1, 0): tile}, {(1, 0): 4}, chips)).when(0, claim(card))
    claimed.then(objective_claimed(0, card))
    assert recorded(claimed)[0].objective_claimed.kind == pb.OBJECTIVE_KIND_GARDENER


def test_four_tall_needs_exactly_the_improvement_shown() -> None:
    """ "w/ NO Improvements" refuses a fertilized plot; "w/ Fertilizer" refuses a plain one."""
    fertilized = _towers(GREEN_4_PLAIN, {(1, 0): GREEN_FERTILIZER}, {(1, 0): 4})
    given(ENGINE, fertilized).when(0, claim(GREEN_4_PLAIN)).refused("objective.not_met")
    plain = _towers(GREEN_4_FERTILIZER, {(1, 0): GREEN[0]}, {(1, 0): 4})
    given(ENGINE, plain).when(0, claim(GREEN_4_FERTILIZER)).refused("objective.not_met")
    short = _towers(GREEN_4_PLAIN, {(1, 0): GREEN[0]}, {(1, 0): 3})
    given(ENGINE, short).when(0, claim(GREEN_4_PLAIN)).refused("objective.not_met")


@pytest.mark.parametrize(
    ("card", "tiles"),
    [(GREEN_3_ON_4, GREEN[:4]), (YELLOW_3_ON_3, YELLOW[:3]), (PINK_3_ON_2, PINK[:2])],
)
def test_three_tall_on_several_plots(card: int, tiles: tuple[int, ...]) -> None:
    """ "3 Tall on 4 Greens" style: that many bamboos of exactly 3 on that colour."""
    spots = hexgrid.neighbours((0, 0))
    plots = dict(zip(spots, tiles, strict=False))
    full = {h: 3 for h in plots}
    given(ENGINE, _towers(card, plots, full)).when(0, claim(card)).then(objective_claimed(0, card))
    one_short = {**full, spots[0]: 4}
    given(ENGINE, _towers(card, plots, one_short)).when(0, claim(card)).refused("objective.not_met")


# ---- panda objectives ------------------------------------------------------

# A plot of each colour by the pond, for the panda to eat from.
LARDER = {(1, 0): GREEN[0], (0, 1): YELLOW[0], (-1, 1): PINK[0]}


def _fed(seat: int, green: int = 0, yellow: int = 0, pink: int = 0) -> list[pb.Event]:
    """``seat``'s reserve holds this bamboo, eaten from the larder."""
    return [
        *fed(seat, (1, 0), "green", green),
        *fed(seat, (0, 1), "yellow", yellow),
        *fed(seat, (-1, 1), "pink", pink),
    ]


def test_a_panda_objective_pays_the_bamboo_back_to_the_supply() -> None:
    """Panda objectives: return the matching bamboo from your reserve to the supply."""
    history = [*started(hands={0: [PANDA_EACH]}), *garden(LARDER), *_fed(0, 2, 1, 1), *turn(0)]
    position = given(ENGINE, history)
    assert position.view(0)["board"]["supply"]["bamboo"] == {"green": 34, "yellow": 29, "pink": 23}
    claimed = position.when(0, claim(PANDA_EACH))
    claimed.then(
        pb.Event(
            objective_claimed=pb.ObjectiveClaimed(
                seat=0,
                card=PANDA_EACH,
                kind=pb.OBJECTIVE_KIND_PANDA,
                points=6,
                green_returned=1,
                yellow_returned=1,
                pink_returned=1,
            )
        )
    )
    view = claimed.view(0)
    assert view["players"][0]["bamboo"] == {"green": 1, "yellow": 0, "pink": 0}
    assert view["board"]["supply"]["bamboo"] == {"green": 35, "yellow": 30, "pink": 24}
    assert view["players"][0]["score"] == 6


def test_a_panda_objective_needs_the_bamboo() -> None:
    """Without the right bamboo in the reserve the panda objective is not met."""
    history = [*started(hands={0: [PANDA_2_GREEN]}), *garden(LARDER), *_fed(0, 1, 3, 3), *turn(0)]
    given(ENGINE, history).when(0, claim(PANDA_2_GREEN)).refused("objective.not_met")


def test_a_claimed_objective_is_never_lost() -> None:
    """A completed objective is never lost, even if the garden changes later."""
    history = _towers(GREEN_4_PLAIN, {(1, 0): GREEN[0]}, {(1, 0): 4})
    claimed = given(ENGINE, history).when(0, claim(GREEN_4_PLAIN)).accepted()
    eaten = given(ENGINE, history, recorded(claimed)).when(0, move_panda((1, 0))).accepted()
    view = eaten.view(None)
    assert [c["card"] for c in view["players"][0]["claimed"]] == [GREEN_4_PLAIN]
    assert view["board"]["garden"][0]["bamboo"] == 3
    assert view["players"][0]["score"] == 5


def test_only_one_s_own_cards_can_be_claimed() -> None:
    """Claiming a card not in one's hand is refused."""
    history = [*started(hands={1: [GREEN_4_PLAIN]}), *garden({(1, 0): GREEN[0]}, {(1, 0): 4})]
    given(ENGINE, history, turn(0)).when(0, claim(GREEN_4_PLAIN)).refused("objective.not_in_hand")


def test_claiming_is_a_free_action_even_during_the_weather() -> None:
    """A player can complete any number of objectives any time during their turn."""
    cards = [PANDA_2_GREEN, PANDA_2_GREEN + 1]
    history = [*started(hands={0: cards}), *garden(LARDER), *_fed(0, green=4)]
    history += turn(0, weather="rain")
    first = given(ENGINE, history).when(0, claim(cards[0])).then(objective_claimed(0, cards[0]))
    history += recorded(first)
    second = given(ENGINE, history).when(0, claim(cards[1])).then(objective_claimed(0, cards[1]))
    view = second.view(0)
    assert [c["card"] for c in view["players"][0]["claimed"]] == cards
    assert view["board"]["actions_taken"] == [] and view["stage"] == "weather"


# ---- drawing objectives -----------------------------------------------------


def test_drawing_an_objective_shows_its_kind_to_all_and_the_card_to_the_drawer() -> None:
    """Objective: take another card from one of the 3 decks."""
    top = DECKS[1][2]  # seats 0 and 1 were dealt the first two
    drawn = given(ENGINE, started(), turn(0)).when(0, draw_objective("gardener"))
    drawn.then(objective_drawn(0, top))
    assert recorded(drawn)[0].objective_drawn.kind == pb.OBJECTIVE_KIND_GARDENER
    assert ENGINE.redact(recorded(drawn)[0], 1).objective_drawn.card == 0
    assert ENGINE.redact(recorded(drawn)[0], 0) == recorded(drawn)[0]
    assert [c["card"] for c in drawn.view(0)["private"]["hand"]][-1] == top
    assert drawn.view(1)["players"][0]["hand_kinds"]["gardener"] == 2
    assert drawn.view(1)["players"][0]["hand"] == [None] * 4
    assert drawn.view(0)["board"]["actions_taken"] == ["objective"]


def test_the_hand_holds_at_most_five_objectives() -> None:
    """There is a hand limit of 5 cards."""
    position = given(ENGINE, started(hands={0: [31, 32, 33, 34, 35]}), turn(0))
    position.when(0, draw_objective("plot")).refused("objective.hand_full")


def test_an_empty_deck_cannot_be_drawn() -> None:
    """No card left of that kind: nothing to draw."""
    decks = ((), (17, 18), (40,))
    position = given(ENGINE, started(decks=decks, hands={0: [41], 1: [42]}), turn(0))
    position.when(0, draw_objective("plot")).refused("objective.deck_empty")
    unspecified = pb.Command(draw_objective=pb.DrawObjective())
    position.when(0, unspecified).refused("objective.deck_empty")
    position.when(0, draw_objective("panda")).then(objective_drawn(0, 40))


def test_an_objective_already_shown_goes_back_and_the_action_is_not_used() -> None:
    """Objective: a plot or gardener card the garden already shows goes under its deck,
    and another may be drawn — or a different action taken instead."""
    plots = {(1, 0): GREEN[0], (1, -1): GREEN[1], (2, -1): GREEN[2]}
    decks = ((GREEN_TRIANGLE, GREEN_DIAMOND), DECKS[1], DECKS[2])
    hands = {0: [5, 16, 31], 1: [6, 17, 32]}
    history = [*started(decks=decks, hands=hands), *garden(plots, chips={(2, -1): "watershed"})]
    history += [*turn(0), panda_moved(0, (1, 0))]
    returned = given(ENGINE, history).when(0, draw_objective("plot"))
    returned.then(objective_drawn(0, GREEN_TRIANGLE), objective_returned(0, GREEN_TRIANGLE))
    assert ENGINE.redact(recorded(returned)[1], 1).objective_returned.card == 0
    view = returned.view(0)
    assert GREEN_TRIANGLE not in [c["card"] for c in view["private"]["hand"]]
    assert view["board"]["actions_taken"] == ["panda"]
    assert view["board"]["decks"]["plot"] == 2
    history += recorded(returned)
    given(ENGINE, history).when(0, take_irrigation()).accepted()
    # The diamond was under the triangle; the triangle went back under it.
    again = given(ENGINE, history).when(0, draw_objective("plot"))
    again.then(objective_drawn(0, GREEN_DIAMOND))
    assert again.view(0)["board"]["actions_taken"] == ["panda", "objective"]


def test_a_deck_the_garden_shows_entirely_closes_for_the_turn() -> None:
    """Once every card of a deck went back this turn, that deck cannot be drawn again."""
    decks = (DECKS[0], (GREEN_4_PLAIN,), DECKS[2])
    history = [*started(decks=decks, hands={0: [1, 31], 1: [2, 32]})]
    history += [*garden({(1, 0): GREEN[0]}, bamboo={(1, 0): 4}), *turn(0)]
    back = given(ENGINE, history).when(0, draw_objective("gardener"))
    back.then(objective_drawn(0, GREEN_4_PLAIN), objective_returned(0, GREEN_4_PLAIN))
    closed = given(ENGINE, history, recorded(back))
    assert closed.view(0)["board"]["decks"]["gardener"] == 1
    closed.when(0, draw_objective("gardener")).refused("objective.deck_cycled")
    closed.when(0, draw_objective("panda")).accepted()


# ---- every card of the two garden decks ---------------------------------------

_SHAPES = {"Triangle": TRIANGLE, "Straight": STRAIGHT, "Curve": CURVE, "Diamond": DIAMOND}
_COLOUR_TILES = {"Green": GREEN, "Yellow": YELLOW, "Pink": PINK}
_EXPECTED_PLOT_POINTS = {
    "Green": (2, 2, 2, 3),
    "Yellow": (3, 3, 3, 4),
    "Pink": (4, 4, 4, 5),
}


@pytest.mark.parametrize("colour", ["Green", "Yellow", "Pink"])
@pytest.mark.parametrize("shape", ["Triangle", "Straight", "Curve", "Diamond"])
def test_every_single_colour_plot_card_is_completed_by_its_shape(colour: str, shape: str) -> None:
    """All 12 single-colour plot cards: the shape in its colour, turned, pays the card."""
    card = next(o.id for o in OBJECTIVES.values() if o.name == f"{colour} {shape}")
    offsets = _SHAPES[shape]
    tiles = list(_COLOUR_TILES[colour][: len(offsets)])
    cells = _shape((-3, 1), offsets, tiles, turn_by=4)
    claimed = given(ENGINE, _laid_out(cells, card)).when(0, claim(card))
    claimed.then(objective_claimed(0, card))
    points = _EXPECTED_PLOT_POINTS[colour][list(_SHAPES).index(shape)]
    assert recorded(claimed)[0].objective_claimed.points == points
    others = [o for o in _SHAPES if o != shape and len(_SHAPES[o]) == len(offsets)]
    for other in others:
        wrong = _shape((-3, 1), _SHAPES[other], tiles)
        given(ENGINE, _laid_out(wrong, card)).when(0, claim(card)).refused("objective.not_met")


_PRINTED = {
    ("green", "fertilizer"): GREEN_FERTILIZER,
    ("green", "enclosure"): GREEN_ENCLOSURE,
    ("green", "watershed"): GREEN_WATERSHED,
    ("green", "none"): GREEN[0],
    ("yellow", "fertilizer"): 19,
    ("yellow", "enclosure"): 20,
    ("yellow", "watershed"): YELLOW_WATERSHED,
    ("yellow", "none"): YELLOW[0],
    ("pink", "fertilizer"): 26,
    ("pink", "enclosure"): 27,
    ("pink", "watershed"): PINK_WATERSHED,
    ("pink", "none"): PINK[0],
}
_PLAIN = {"green": GREEN, "yellow": YELLOW, "pink": PINK}


@pytest.mark.parametrize("card", range(16, 31))
def test_every_gardener_card_is_completed_by_its_towers(card: int) -> None:
    """All 15 gardener cards: the towers named on the card, on printed improvements."""
    obj = OBJECTIVES[card]
    if obj.count == 1:
        plots = {(1, 0): _PRINTED[(obj.colour, obj.improvement)]}
    else:
        plots = dict(zip(hexgrid.neighbours((0, 0)), _PLAIN[obj.colour][: obj.count], strict=False))
    towers = {h: obj.height for h in plots}
    claimed = given(ENGINE, _towers(card, plots, towers)).when(0, claim(card))
    assert (
        recorded(claimed.then(objective_claimed(0, card)))[0].objective_claimed.points == obj.points
    )
    lower = {h: obj.height - 1 for h in plots}
    given(ENGINE, _towers(card, plots, lower)).when(0, claim(card)).refused("objective.not_met")


def _claims_checked_while_playing(seats: int, index: int) -> int:
    """Play a random game, checking every seat's claimable cards before each command;
    how many times some seat had a card met."""
    met_somewhere = 0

    def check(state: FreundeState) -> None:
        nonlocal met_somewhere
        for someone, player in enumerate(state.players):
            met = tuple(card for card in player.hand if is_met(state, someone, card))
            assert claimable(state, someone) == met
            met_somewhere += bool(met)

    play_random_game(ENGINE, seats, index, invariants=check)
    return met_somewhere


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_remembered_claimable_cards_are_worked_out_afresh_at_every_step(seats: int) -> None:
    """``claimable`` remembers each seat's answer (derived data): at every step of random
    games it is, for every seat, the cards of its hand ``is_met`` finds met now."""
    assert sum(_claims_checked_while_playing(seats, index) for index in range(2))


def _tall_checked_while_playing(seats: int, index: int) -> int:
    """Play a random game, checking the garden's tall stalks before each command; how
    many times some stalk was tall."""
    tall_somewhere = 0

    def check(state: FreundeState) -> None:
        nonlocal tall_somewhere
        garden = state.garden
        assert garden.tall == {h: n for h, n in state.bamboo.items() if n >= TALL_STALK}
        tall_somewhere += bool(garden.tall)

    play_random_game(ENGINE, seats, index, invariants=check)
    return tall_somewhere


@pytest.mark.parametrize("seats", [2, 4])
def test_the_tall_stalks_are_the_bamboo_of_tall_stalk_sections_or_more(seats: int) -> None:
    """``Garden.tall`` (what gardener cards read) is kept beside ``bamboo`` by its
    recorders: at every step of random games it is exactly the stalks of 3 or more."""
    assert sum(_tall_checked_while_playing(seats, index) for index in range(2))


def _gardener_cards_by_the_rule(state: FreundeState) -> frozenset[int]:
    """The gardener cards the garden completes, read from the cards: enough stalks of
    exactly the card's height on plots of its colour and improvement ("any": any
    improvement, or none)."""
    shown = set()
    for card, obj in OBJECTIVES.items():
        if obj.kind != "gardener":
            continue
        stalks = [
            h
            for h, height in state.bamboo.items()
            if height == obj.height
            and colour_at(state, h) == obj.colour
            and obj.improvement in ("any", improvement_at(state, h))
        ]
        if len(stalks) >= obj.count:
            shown.add(card)
    return frozenset(shown)


def _shown_checked_while_playing(seats: int, index: int) -> int:
    """Play a random game, checking the gardener cards the garden shows before each
    command against the cards read afresh; how many steps showed some."""
    shown_somewhere = 0

    def check(state: FreundeState) -> None:
        nonlocal shown_somewhere
        shown = state.garden.gardener_shown
        assert shown == _gardener_cards_by_the_rule(state)
        shown_somewhere += bool(shown)

    play_random_game(ENGINE, seats, index, invariants=check)
    return shown_somewhere


@pytest.mark.parametrize("seats", [2, 4])
def test_the_gardener_cards_kept_in_the_garden_are_those_its_stalks_complete(seats: int) -> None:
    """``Garden.gardener_shown`` (what claims read) is kept with the tall stalks by their
    recorders: at every step of random games it is every gardener card the garden
    completes."""
    assert sum(_shown_checked_while_playing(seats, index) for index in range(4))
