"""Objectives: drawing (hand limit, already-shown cards), and completing every kind."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engines.core import hexgrid
from engines.freunde.content import OBJECTIVES
from engines.freunde.engine import ENGINE
from engines.freunde.state import FreundeState, Phase
from proto import freunde_pb2 as pb
from tests.engines.freunde.given import (
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
    PANDA_2_GREEN,
    PANDA_EACH,
    PINK,
    PINK_3_ON_2,
    PINK_GREEN_DIAMOND,
    PINK_STRAIGHT,
    YELLOW,
    YELLOW_3_ON_3,
    YELLOW_GREEN_DIAMOND,
    YELLOW_PINK_DIAMOND,
    after,
    game,
    garden,
    hand,
    refused,
    reserve,
    turn,
    when,
)


def _claim(card: int) -> pb.Command:
    return pb.Command(claim_objective=pb.ClaimObjective(card=card))


def _draw(kind: pb.ObjectiveKind.ValueType) -> pb.Command:
    return pb.Command(draw_objective=pb.DrawObjective(kind=kind))


def _laid_out(
    cells: dict[tuple[int, int], int],
    card: int,
    *,
    watered: bool = True,
    bamboo: dict[tuple[int, int], int] | None = None,
    chips: dict[tuple[int, int], str] | None = None,
) -> FreundeState:
    """These plots, far from the pond, watered by watershed chips unless told otherwise."""
    water = {h: "watershed" for h in cells} if watered else {}
    state = garden(game(), cells, bamboo=bamboo, chips={**water, **(chips or {})})
    return turn(hand(state, 0, [card]), 0)


def _shape(
    origin: tuple[int, int], offsets: list[tuple[int, int]], tiles: list[int], turn_by: int = 0
) -> dict[tuple[int, int], int]:
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
def test_a_plot_pattern_counts_in_every_turn(
    card: int, offsets: list[tuple[int, int]], turn_by: int
) -> None:
    """Plot objectives: the configuration on the card, turned any way, all plots irrigated."""
    cells = _shape((3, -1), offsets, list(GREEN[: len(offsets)]), turn_by)
    state = _laid_out(cells, card)
    events = when(state, 0, _claim(card))
    assert events[0].objective_claimed.card == card
    assert events[0].objective_claimed.kind == pb.OBJECTIVE_KIND_PLOT


def test_a_plot_pattern_needs_every_plot_irrigated() -> None:
    """Plot objectives are completed with all the component plots irrigated."""
    cells = _shape((3, -1), STRAIGHT, [PINK[0], PINK[1], PINK[2]])
    state = _laid_out(cells, PINK_STRAIGHT, watered=False)
    assert refused(state, 0, _claim(PINK_STRAIGHT)) == "objective.not_met"
    watered = _laid_out(cells, PINK_STRAIGHT)
    assert when(watered, 0, _claim(PINK_STRAIGHT))[0].objective_claimed.points == 4


def test_a_plot_pattern_needs_its_colour() -> None:
    """A pattern of mixed colours does not show a single-colour card."""
    cells = _shape((3, -1), STRAIGHT, [PINK[0], GREEN[0], PINK[2]])
    assert refused(_laid_out(cells, PINK_STRAIGHT), 0, _claim(PINK_STRAIGHT)) == (
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
    assert when(_laid_out(cells, card), 0, _claim(card))[0].objective_claimed.card == card


@pytest.mark.parametrize("turn_by", range(6))
def test_a_mirrored_two_colour_diamond_does_not_count(turn_by: int) -> None:
    """Two-colour diamonds: the mirror image puts the diagonal the other way — refused."""
    cells = _shape((3, -1), MIRRORED, [YELLOW[0], YELLOW[1], GREEN[2], GREEN[3]], turn_by)
    state = _laid_out(cells, YELLOW_GREEN_DIAMOND)
    assert refused(state, 0, _claim(YELLOW_GREEN_DIAMOND)) == "objective.not_met"


# ---- gardener objectives ----------------------------------------------------


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
    state = turn(
        hand(garden(game(), {(1, 0): tile}, bamboo={(1, 0): 4}, chips=chips), 0, [card]), 0
    )
    events = when(state, 0, _claim(card))
    assert events[0].objective_claimed.kind == pb.OBJECTIVE_KIND_GARDENER


def test_four_tall_needs_exactly_the_improvement_shown() -> None:
    """ "w/ NO Improvements" refuses a fertilized plot; "w/ Fertilizer" refuses a plain one."""
    fertilized = turn(
        hand(garden(game(), {(1, 0): GREEN_FERTILIZER}, bamboo={(1, 0): 4}), 0, [GREEN_4_PLAIN]), 0
    )
    assert refused(fertilized, 0, _claim(GREEN_4_PLAIN)) == "objective.not_met"
    plain = turn(
        hand(garden(game(), {(1, 0): GREEN[0]}, bamboo={(1, 0): 4}), 0, [GREEN_4_FERTILIZER]), 0
    )
    assert refused(plain, 0, _claim(GREEN_4_FERTILIZER)) == "objective.not_met"
    short = turn(
        hand(garden(game(), {(1, 0): GREEN[0]}, bamboo={(1, 0): 3}), 0, [GREEN_4_PLAIN]), 0
    )
    assert refused(short, 0, _claim(GREEN_4_PLAIN)) == "objective.not_met"


@pytest.mark.parametrize(
    ("card", "tiles"),
    [(GREEN_3_ON_4, GREEN[:4]), (YELLOW_3_ON_3, YELLOW[:3]), (PINK_3_ON_2, PINK[:2])],
)
def test_three_tall_on_several_plots(card: int, tiles: tuple[int, ...]) -> None:
    """ "3 Tall on 4 Greens" style: that many bamboos of exactly 3 on that colour."""
    spots = hexgrid.neighbours((0, 0))
    plots = dict(zip(spots, tiles, strict=False))
    full = {h: 3 for h in plots}
    state = turn(hand(garden(game(), plots, bamboo=full), 0, [card]), 0)
    assert when(state, 0, _claim(card))[0].objective_claimed.card == card
    one_short = dict(full)
    one_short[spots[0]] = 4
    state = turn(hand(garden(game(), plots, bamboo=one_short), 0, [card]), 0)
    assert refused(state, 0, _claim(card)) == "objective.not_met"


# ---- panda objectives ------------------------------------------------------


def test_a_panda_objective_pays_the_bamboo_back_to_the_supply() -> None:
    """Panda objectives: return the matching bamboo from your reserve to the supply."""
    state = reserve(turn(hand(game(), 0, [PANDA_EACH]), 0), 0, bamboo=(2, 1, 1))
    state = replace(state, bamboo_supply=(34, 29, 23))
    events = when(state, 0, _claim(PANDA_EACH))
    assert events == [
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
    ]
    view = ENGINE.view(after(state, events), 0)
    assert view["players"][0]["bamboo"] == {"green": 1, "yellow": 0, "pink": 0}
    assert view["supply"]["bamboo"] == {"green": 35, "yellow": 30, "pink": 24}
    assert view["players"][0]["score"] == 6


def test_a_panda_objective_needs_the_bamboo() -> None:
    """Without the right bamboo in the reserve the panda objective is not met."""
    state = reserve(turn(hand(game(), 0, [PANDA_2_GREEN]), 0), 0, bamboo=(1, 3, 3))
    assert refused(state, 0, _claim(PANDA_2_GREEN)) == "objective.not_met"


def test_a_claimed_objective_is_never_lost() -> None:
    """A completed objective is never lost, even if the garden changes later."""
    state = turn(
        hand(garden(game(), {(1, 0): GREEN[0]}, bamboo={(1, 0): 4}), 0, [GREEN_4_PLAIN]), 0
    )
    state = after(state, when(state, 0, _claim(GREEN_4_PLAIN)))
    state = after(state, when(state, 0, pb.Command(move_panda=pb.MovePanda(to=pb.Hex(q=1)))))
    view = ENGINE.view(state, None)
    assert [c["card"] for c in view["players"][0]["claimed"]] == [GREEN_4_PLAIN]
    assert view["players"][0]["score"] == 5


def test_only_one_s_own_cards_can_be_claimed() -> None:
    """Claiming a card not in one's hand is refused."""
    state = turn(
        hand(garden(game(), {(1, 0): GREEN[0]}, bamboo={(1, 0): 4}), 1, [GREEN_4_PLAIN]), 0
    )
    assert refused(state, 0, _claim(GREEN_4_PLAIN)) == "objective.not_in_hand"


def test_claiming_is_a_free_action_even_during_the_weather() -> None:
    """A player can complete any number of objectives any time during their turn."""
    state = reserve(
        turn(
            hand(game(), 0, [PANDA_2_GREEN, PANDA_2_GREEN + 1]),
            0,
            weather="rain",
            phase=Phase.WEATHER,
        ),
        0,
        bamboo=(4, 0, 0),
    )
    state = after(state, when(state, 0, _claim(PANDA_2_GREEN)))
    state = after(state, when(state, 0, _claim(PANDA_2_GREEN + 1)))
    assert state.claimed[0] == (PANDA_2_GREEN, PANDA_2_GREEN + 1) and state.actions == ()


# ---- drawing objectives -----------------------------------------------------


def test_drawing_an_objective_shows_its_kind_to_all_and_the_card_to_the_drawer() -> None:
    """Objective: take another card from one of the 3 decks."""
    state = turn(game(), 0)
    top = state.decks[1][0]
    events = when(state, 0, _draw(pb.OBJECTIVE_KIND_GARDENER))
    assert events == [
        pb.Event(
            objective_drawn=pb.ObjectiveDrawn(seat=0, kind=pb.OBJECTIVE_KIND_GARDENER, card=top)
        )
    ]
    assert ENGINE.redact(events[0], 1).objective_drawn.card == 0
    assert ENGINE.redact(events[0], 0) == events[0]
    state = after(state, events)
    assert [c["card"] for c in ENGINE.view(state, 0)["you"]["hand"]][-1] == top
    assert ENGINE.view(state, 1)["players"][0]["hand_kinds"]["gardener"] == 2
    assert state.actions == ("objective",)


def test_the_hand_holds_at_most_five_objectives() -> None:
    """There is a hand limit of 5 cards."""
    state = turn(hand(game(), 0, [31, 32, 33, 34, 35]), 0)
    assert refused(state, 0, _draw(pb.OBJECTIVE_KIND_PLOT)) == "objective.hand_full"


def test_an_empty_deck_cannot_be_drawn() -> None:
    """No card left of that kind: nothing to draw."""
    state = replace(turn(game(), 0), decks=((), (17, 18), (40,)))
    assert refused(state, 0, _draw(pb.OBJECTIVE_KIND_PLOT)) == "objective.deck_empty"
    assert refused(state, 0, _draw(pb.OBJECTIVE_KIND_UNSPECIFIED)) == "objective.deck_empty"


def test_an_objective_already_shown_goes_back_and_the_action_is_not_used() -> None:
    """Objective: a plot or gardener card the garden already shows goes under its deck,
    and another may be drawn — or a different action taken instead."""
    plots = {(1, 0): GREEN[0], (1, -1): GREEN[1], (2, -1): GREEN[2]}
    state = turn(garden(game(), plots, chips={(2, -1): "watershed"}), 0, actions=("panda",))
    state = replace(state, decks=((GREEN_TRIANGLE, GREEN_DIAMOND), *state.decks[1:]))
    events = when(state, 0, _draw(pb.OBJECTIVE_KIND_PLOT))
    assert events == [
        pb.Event(
            objective_drawn=pb.ObjectiveDrawn(
                seat=0, kind=pb.OBJECTIVE_KIND_PLOT, card=GREEN_TRIANGLE
            )
        ),
        pb.Event(
            objective_returned=pb.ObjectiveReturned(
                seat=0, kind=pb.OBJECTIVE_KIND_PLOT, card=GREEN_TRIANGLE
            )
        ),
    ]
    assert ENGINE.redact(events[1], 1).objective_returned.card == 0
    state = after(state, events)
    assert state.decks[0] == (GREEN_DIAMOND, GREEN_TRIANGLE)
    assert GREEN_TRIANGLE not in state.hands[0] and state.actions == ("panda",)
    legal = ENGINE.legal_commands(state, 0)
    assert _draw(pb.OBJECTIVE_KIND_PLOT) in legal
    assert pb.Command(take_irrigation=pb.TakeIrrigation()) in legal
    events = when(state, 0, _draw(pb.OBJECTIVE_KIND_PLOT))
    assert [e.WhichOneof("kind") for e in events] == ["objective_drawn"]
    assert after(state, events).actions == ("panda", "objective")


def test_a_deck_the_garden_shows_entirely_closes_for_the_turn() -> None:
    """Once every card of a deck went back this turn, that deck cannot be drawn again."""
    state = turn(garden(game(), {(1, 0): GREEN[0]}, bamboo={(1, 0): 4}), 0)
    state = replace(state, decks=(state.decks[0], (GREEN_4_PLAIN,), state.decks[2]))
    state = after(state, when(state, 0, _draw(pb.OBJECTIVE_KIND_GARDENER)))
    assert state.decks[1] == (GREEN_4_PLAIN,)
    assert refused(state, 0, _draw(pb.OBJECTIVE_KIND_GARDENER)) == "objective.deck_cycled"
    assert _draw(pb.OBJECTIVE_KIND_PANDA) in ENGINE.legal_commands(state, 0)


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
    cells = _shape((-3, 1), offsets, list(_COLOUR_TILES[colour][: len(offsets)]), turn_by=4)
    claimed = when(_laid_out(cells, card), 0, _claim(card))[0].objective_claimed
    points = _EXPECTED_PLOT_POINTS[colour][list(_SHAPES).index(shape)]
    assert (claimed.card, claimed.points) == (card, points)
    others = [o for o in _SHAPES if o != shape and len(_SHAPES[o]) == len(offsets)]
    for other in others:
        wrong = _shape((-3, 1), _SHAPES[other], list(_COLOUR_TILES[colour][: len(offsets)]))
        assert refused(_laid_out(wrong, card), 0, _claim(card)) == "objective.not_met"


_PRINTED = {
    ("green", "fertilizer"): GREEN_FERTILIZER,
    ("green", "enclosure"): GREEN_ENCLOSURE,
    ("green", "watershed"): 6,
    ("green", "none"): GREEN[0],
    ("yellow", "fertilizer"): 19,
    ("yellow", "enclosure"): 20,
    ("yellow", "watershed"): 18,
    ("yellow", "none"): YELLOW[0],
    ("pink", "fertilizer"): 26,
    ("pink", "enclosure"): 27,
    ("pink", "watershed"): 25,
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
    state = turn(hand(garden(game(), plots, bamboo=towers), 0, [card]), 0)
    assert when(state, 0, _claim(card))[0].objective_claimed.points == obj.points
    lower = {h: obj.height - 1 for h in plots}
    short = turn(hand(garden(game(), plots, bamboo=lower), 0, [card]), 0)
    assert refused(short, 0, _claim(card)) == "objective.not_met"
