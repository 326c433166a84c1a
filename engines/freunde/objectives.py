"""Objectives: drawing (Available actions › Objective) and completing them.

Plot objectives match the card's pattern in any of the six turns of the hex grid,
never its mirror image (the rulebook's note on the two-colour diamonds: the diagonal
between the colours must keep its direction, so a diamond may lie sideways or upside
down, but not flipped), with every plot of it irrigated.
"""

from __future__ import annotations

from engines.core import hexgrid
from engines.core.deck import draw
from engines.core.errors import RuleViolation
from engines.core.hexgrid import Hex
from engines.freunde import wire
from engines.freunde.content import OBJECTIVES, TILES, Objective
from engines.freunde.garden import plot_map
from engines.freunde.state import KINDS, FreundeState
from proto import freunde_pb2 as pb

__all__ = [
    "EMPEROR_POINTS",
    "HAND_LIMIT",
    "claim_objective",
    "claimable",
    "draw_objective",
    "drawable_kinds",
    "emperor_threshold",
    "is_met",
    "is_shown_by_garden",
]

HAND_LIMIT = 5
EMPEROR_POINTS = 2
_THRESHOLDS = {2: 9, 3: 8, 4: 7}

Pattern = tuple[tuple[Hex, str], ...]


def _turns(obj: Objective) -> tuple[Pattern, ...]:
    """The card's pattern in each of its distinct turns."""
    seen: dict[frozenset[tuple[Hex, str]], Pattern] = {}
    for steps in range(6):
        turned = tuple((hexgrid.rotate(cell, steps), colour) for cell, colour in obj.cells)
        seen.setdefault(frozenset(turned), turned)
    return tuple(seen.values())


_PATTERNS: dict[int, tuple[Pattern, ...]] = {
    o.id: _turns(o) for o in OBJECTIVES.values() if o.kind == "plot"
}


def emperor_threshold(seats: int) -> int:
    """Completing objectives and game end: 9 / 8 / 7 objectives for 2 / 3 / 4 players."""
    return _THRESHOLDS[seats]


def _irrigated_colours(state: FreundeState) -> dict[Hex, str]:
    return {h: TILES[t].colour for h, t in state.plots if h in state.irrigated}


def _plot_pattern_shown(colours: dict[Hex, str], card: int) -> bool:
    """Some turn of the card's pattern lies on irrigated plots (``colours``) of its colours.

    Every pattern's first cell is its origin, which no turn moves, so each irrigated
    plot of that cell's colour is tried as the origin.
    """
    for pattern in _PATTERNS[card]:
        origin_colour, rest = pattern[0][1], pattern[1:]
        for (q, r), colour in colours.items():
            if colour != origin_colour:
                continue
            for (dq, dr), wanted in rest:
                if colours.get((q + dq, r + dr)) != wanted:
                    break
            else:
                return True
    return False


def _gardener_shown(state: FreundeState, obj: Objective) -> bool:
    """Bamboos of exactly the card's height on plots of its colour and improvement."""
    plots = plot_map(state)
    chips = dict(state.chips)
    found = 0
    for h, height in state.bamboo:
        tile = TILES[plots[h]]
        if height != obj.height or tile.colour != obj.colour:
            continue
        improvement = tile.improvement if tile.improvement != "none" else chips.get(h, "none")
        if obj.improvement in ("any", improvement):
            found += 1
    return found >= obj.count


def is_shown_by_garden(state: FreundeState, card: int) -> bool:
    """Whether a plot or gardener objective is already reflected in the garden."""
    obj = OBJECTIVES[card]
    if obj.kind == "plot":
        return _plot_pattern_shown(_irrigated_colours(state), card)
    if obj.kind == "gardener":
        return _gardener_shown(state, obj)
    return False


def is_met(state: FreundeState, seat: int, card: int) -> bool:
    """Completing objectives: the garden shows it, or the reserve holds the bamboo."""
    obj = OBJECTIVES[card]
    if obj.kind == "panda":
        return all(have >= need for have, need in zip(state.eaten[seat], obj.bamboo, strict=True))
    return is_shown_by_garden(state, card)


def claimable(state: FreundeState, seat: int) -> list[int]:
    """The cards of ``seat``'s hand it may claim now."""
    colours = _irrigated_colours(state)
    return [
        card
        for card in state.hands[seat]
        if (
            _plot_pattern_shown(colours, card)
            if OBJECTIVES[card].kind == "plot"
            else is_met(state, seat, card)
        )
    ]


def drawable_kinds(state: FreundeState, seat: int) -> list[str]:
    """Kinds one may draw: hand below 5, and a deck not yet cycled through this turn.

    Cards sent back go under their deck, so once as many have gone back this turn as
    the deck holds, drawing again could only repeat them: the deck closes until the
    turn ends. This keeps every redraw loop finite without looking at the deck order.
    """
    if len(state.hands[seat]) >= HAND_LIMIT:
        return []
    return [
        kind
        for kind, deck, back in zip(KINDS, state.decks, state.returned, strict=True)
        if len(deck) > back
    ]


def draw_objective(state: FreundeState, seat: int, kind: str) -> list[pb.Event]:
    """Objective: draw the top card; one the garden already shows goes under its deck."""
    if len(state.hands[seat]) >= HAND_LIMIT:
        raise RuleViolation("objective.hand_full", "You may hold at most 5 objectives.")
    if kind not in KINDS or not state.decks[KINDS.index(kind)]:
        raise RuleViolation("objective.deck_empty", "There is no objective left to draw there.")
    if kind not in drawable_kinds(state, seat):
        raise RuleViolation(
            "objective.deck_cycled",
            "Every card of that deck was already shown by the garden this turn.",
        )
    (card,), _ = draw(state.decks[KINDS.index(kind)])
    code = wire.kind_code(kind)
    events = [pb.Event(objective_drawn=pb.ObjectiveDrawn(seat=seat, kind=code, card=card))]
    if is_shown_by_garden(state, card):
        back = pb.ObjectiveReturned(seat=seat, kind=code, card=card)
        events.append(pb.Event(objective_returned=back))
    return events


def claim_objective(state: FreundeState, seat: int, card: int) -> list[pb.Event]:
    """Completing objectives: claim a met card; the n-th objective brings the Emperor."""
    if card not in state.hands[seat]:
        raise RuleViolation("objective.not_in_hand", "That objective is not in your hand.")
    if not is_met(state, seat, card):
        raise RuleViolation("objective.not_met", "The garden or your reserve does not show it yet.")
    obj = OBJECTIVES[card]
    green, yellow, pink = obj.bamboo
    claimed = pb.ObjectiveClaimed(
        seat=seat,
        card=card,
        kind=wire.kind_code(obj.kind),
        points=obj.points,
        green_returned=green,
        yellow_returned=yellow,
        pink_returned=pink,
    )
    events = [pb.Event(objective_claimed=claimed)]
    if state.emperor < 0 and len(state.claimed[seat]) + 1 >= emperor_threshold(state.seats):
        events.append(pb.Event(emperor_awarded=pb.EmperorAwarded(seat=seat, points=EMPEROR_POINTS)))
    return events
