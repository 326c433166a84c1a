"""Objectives: drawing them (Available actions › Objective) and completing them
(Completing objectives; Plot, Gardener and Panda objectives).

Plot objectives match the card's pattern in any of the six turns of the hex grid,
never its mirror image (the rulebook's note on the two-colour diamonds: the diagonal
between the colours must keep its direction, so a diamond may lie sideways or upside
down, but not flipped), with every plot of it irrigated.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.core import hexgrid
from engines.core.deck import draw
from engines.core.hexgrid import Hex
from engines.freunde import codes, wire
from engines.freunde.actions import check_action
from engines.freunde.content import OBJECTIVES, TILES, Objective
from engines.freunde.game_end import EMPEROR_POINTS, emperor_threshold
from engines.freunde.garden import STALK
from engines.freunde.setup import MAX_SEATS
from engines.freunde.state import COLOURS, IMPROVEMENTS, KINDS, TALL_STALK, FreundeState, Player
from proto import freunde_pb2 as pb

__all__ = [
    "HAND_LIMIT",
    "claim_objective",
    "claimable",
    "claims",
    "draw_objective",
    "drawable_kinds",
    "gardener_cards_shown",
    "is_met",
    "is_shown_by_garden",
    "objective_draws",
]

HAND_LIMIT = 5

# Plot cards are matched on bitboards: a hex's bit is ``(q + _REACH) * _ROW + r + _REACH``,
# so a cell ``(dq, dr)`` away from an origin is ``dq * _ROW + dr`` bits further, and one
# shift of a colour's irrigated plots lines every plot up with the origin it would need.
# A garden grows one plot at a time from the pond, so no coordinate passes the number of
# plots; with the cards' offsets it stays inside a row.
_REACH = 32
_ROW = 2 * _REACH
_OFFSET = max(
    abs(c) for o in OBJECTIVES.values() if o.kind == "plot" for cell, _ in o.cells for c in cell
)
if len(TILES) + _OFFSET >= _REACH:
    raise ValueError("the plot cards' bitboards are too narrow for this many plots")

# One turn of a plot card's pattern: the colour on its origin, then the other cells as
# bit shifts from the origin with their colours.
Turned = tuple[str, tuple[tuple[int, str], ...]]


@dataclass(frozen=True, slots=True)
class _PlotPattern:
    """A plot card's distinct turns, and how many irrigated plots of each colour it needs."""

    turns: tuple[Turned, ...]
    needs: tuple[tuple[str, int], ...]


def _pattern(obj: Objective) -> _PlotPattern:
    """The card's pattern in each of its distinct turns (its first cell is the origin,
    which no turn moves)."""
    seen: dict[frozenset[tuple[Hex, str]], Turned] = {}
    for steps in range(6):
        turned = [(hexgrid.rotate(cell, steps), colour) for cell, colour in obj.cells]
        origin_colour = turned[0][1]
        rest = tuple((dq * _ROW + dr, colour) for (dq, dr), colour in turned[1:])
        seen.setdefault(frozenset(turned), (origin_colour, rest))
    needs = Counter(colour for _, colour in obj.cells)
    return _PlotPattern(tuple(seen.values()), tuple(needs.items()))


_PATTERNS: dict[int, _PlotPattern] = {
    o.id: _pattern(o) for o in OBJECTIVES.values() if o.kind == "plot"
}


# The irrigated plots with their colours (Garden.irrigated).
Irrigated = frozenset[tuple[Hex, str]]
# An irrigated set read for plot cards: how many plots of each colour, and their bitboard.
Layout = tuple[dict[str, int], dict[str, int]]


@functools.lru_cache(maxsize=64)
def _layout(irrigated: Irrigated) -> Layout:
    """The irrigated plots counted and on a bitboard by colour, made once per irrigated
    set for all the plot cards checked against it."""
    counts = dict.fromkeys(COLOURS, 0)
    boards = dict.fromkeys(COLOURS, 0)
    for (q, r), colour in irrigated:
        counts[colour] += 1
        boards[colour] |= 1 << ((q + _REACH) * _ROW + r + _REACH)
    return counts, boards


@functools.lru_cache(maxsize=4096)
def _plot_pattern_shown(irrigated: Irrigated, card: int) -> bool:
    """Some turn of the card's pattern lies on irrigated plots of its colours.

    For each turn, the irrigated plots of the origin's colour are kept where each other
    cell, shifted onto them, is an irrigated plot of its colour (see ``_REACH``); a
    garden with too few irrigated plots of a colour the card needs is ruled out first.
    The answer depends only on its arguments, so it is remembered: a garden's irrigation
    changes a few dozen times a game, while the hands are checked on every move.
    """
    pattern = _PATTERNS[card]
    counts, boards = _layout(irrigated)
    for colour, needed in pattern.needs:
        if counts[colour] < needed:
            return False
    for origin_colour, rest in pattern.turns:
        origins = boards[origin_colour]
        for shift, colour in rest:
            origins &= boards[colour] >> shift if shift >= 0 else boards[colour] << -shift
        if origins:
            return True
    return False


def _stalks_counted() -> dict[tuple[int, str, str], tuple[int, ...]]:
    """The gardener cards a stalk counts towards, by its height, its plot's colour and
    improvement: a card reads stalks of exactly its height on plots of its colour and
    improvement ("any" takes every improvement, and none)."""
    out: dict[tuple[int, str, str], tuple[int, ...]] = {}
    for obj in OBJECTIVES.values():
        if obj.kind == "gardener":
            fitting = (*IMPROVEMENTS, "none") if obj.improvement == "any" else (obj.improvement,)
            for improvement in fitting:
                key = (obj.height, obj.colour, improvement)
                out[key] = (*out.get(key, ()), obj.id)
    return out


_COUNTS_TOWARDS = _stalks_counted()
_STALKS_NEEDED = {o.id: o.count for o in OBJECTIVES.values() if o.kind == "gardener"}
if min(height for height, _, _ in _COUNTS_TOWARDS) < TALL_STALK:
    raise ValueError("a gardener card reads stalks shorter than Garden.tall keeps")


def _stalk_cards() -> dict[tuple[int, int, str], tuple[int, ...]]:
    """``_COUNTS_TOWARDS`` by tile, height and placed chip ("none" without one): a tall
    stalk's cards in one look-up (a printed improvement counts, and then no chip lies
    there: improvements go on blank plots only)."""
    out: dict[tuple[int, int, str], tuple[int, ...]] = {}
    for tile in TILES.values():
        for height in range(TALL_STALK, STALK.high + 1):
            for chip in (*IMPROVEMENTS, "none"):
                improvement = tile.improvement if tile.improvement != "none" else chip
                key = (height, tile.colour, improvement)
                out[tile.id, height, chip] = _COUNTS_TOWARDS.get(key, ())
    return out


_STALK_CARDS = _stalk_cards()


def gardener_cards_shown(
    tall: Mapping[Hex, int], plots: Mapping[Hex, int], chips: Mapping[Hex, str]
) -> frozenset[int]:
    """Every gardener card the garden completes, from its tall stalks (``Garden.tall``)
    and what lies under them; ``Garden.gardener_shown`` keeps the answer."""
    tally: dict[int, int] = {}
    for h, height in tall.items():
        for card in _STALK_CARDS[plots[h], height, chips.get(h, "none")]:
            tally[card] = tally.get(card, 0) + 1
    return frozenset([card for card, found in tally.items() if found >= _STALKS_NEEDED[card]])


def is_shown_by_garden(state: FreundeState, card: int) -> bool:
    """Whether a plot or gardener objective is already reflected in the garden."""
    obj = OBJECTIVES[card]
    if obj.kind == "plot":
        return _plot_pattern_shown(state.garden.irrigated, card)
    if obj.kind == "gardener":
        return card in state.garden.gardener_shown
    return False


def _panda_met(player: Player, obj: Objective) -> bool:
    """The reserve holds at least the card's bamboo of each colour."""
    green, yellow, pink = player.bamboo
    need_green, need_yellow, need_pink = obj.bamboo
    return green >= need_green and yellow >= need_yellow and pink >= need_pink


def is_met(state: FreundeState, seat: int, card: int) -> bool:
    """Completing objectives: the garden shows it, or the reserve holds the bamboo."""
    return _met(state.players[seat], state.garden.irrigated, state.garden.gardener_shown, card)


def claimable(state: FreundeState, seat: int) -> tuple[int, ...]:
    """The cards of ``seat``'s hand it may claim now."""
    return tuple(body.card for body in claims(state, seat))


def _claims_worked_out(state: FreundeState, seat: int) -> tuple[pb.ClaimObjective, ...]:
    """``claims`` worked out afresh, and remembered with what it was worked out from
    (see ``_last_claims``)."""
    garden, player = state.garden, state.players[seat]
    hand, irrigated, shown = player.hand, garden.irrigated, garden.gardener_shown
    # A loop rather than comprehensions: worked out again on about a third of the
    # listings, and mostly finding nothing.
    bodies: list[pb.ClaimObjective] = []
    for card in hand:
        if _met(player, irrigated, shown, card):
            bodies.append(_CLAIMS[card])
    answer = tuple(bodies)
    # The garden's gardener cards only matter to a hand holding one (None: it doesn't).
    needs_garden = not _GARDENER_CARDS.isdisjoint(hand)
    _last_claims[seat] = (hand, player.bamboo, irrigated, shown if needs_garden else None, answer)
    return answer


_GARDENER_CARDS = frozenset(o.id for o in OBJECTIVES.values() if o.kind == "gardener")
_CLAIMS = {card: pb.ClaimObjective(card=card) for card in OBJECTIVES}

# Each seat's last answer, with what it was worked out from (hand, reserve, irrigated
# set, the gardener cards the garden completes or None): a seat's listing is asked for
# after every command of its turn, and most commands (weather, turns, a figure's move
# that completes no gardener card) change none of it. A recorder replaces a hand, a
# reserve, the irrigated set or the gardener cards shown rather than changing them, and
# keeps the cards shown while they stay the same, so identity says unchanged; holding
# them keeps their ids from being reused while remembered.
# Derived data: checked against is_met at every step of random games
# (tests/engines/freunde/test_objectives.py).
_last_claims: list[tuple[Any, ...]] = [(None, None, None, None, ())] * MAX_SEATS


def _met(player: Player, irrigated: Irrigated, shown: frozenset[int], card: int) -> bool:
    """is_met, from the parts of the state it reads (``shown``: the garden's gardener cards)."""
    obj = OBJECTIVES[card]
    if obj.kind == "plot":
        return _plot_pattern_shown(irrigated, card)
    if obj.kind == "gardener":
        return card in shown
    return _panda_met(player, obj)


def drawable_kinds(state: FreundeState, seat: int) -> tuple[str, ...]:
    """Kinds one may draw: hand below 5, and a deck not yet cycled through this turn.

    Cards sent back go under their deck, so once as many have gone back this turn as
    the deck holds, drawing again could only repeat them: the deck closes until the
    turn ends. This keeps every redraw loop finite without looking at the deck order.
    """
    if len(state.players[seat].hand) >= HAND_LIMIT:
        return ()
    decks, back = state.decks, state.turn.returned
    return _OPEN_KINDS[len(decks[0]) > back[0], len(decks[1]) > back[1], len(decks[2]) > back[2]]


# The kinds open for each combination of open decks (plot, gardener, panda), looked up
# rather than gathered: every listing of the actions asks.
_OPEN_KINDS: dict[tuple[bool, ...], tuple[str, ...]] = {
    open_decks: tuple(kind for kind, is_open in zip(KINDS, open_decks, strict=True) if is_open)
    for open_decks in itertools.product((False, True), repeat=len(KINDS))
}


def draw_objective(state: FreundeState, cmd: pb.DrawObjective, seat: int) -> list[pb.Event]:
    """Objective: draw the top card; one the garden already shows goes under its deck."""
    check_action(state, "objective")
    kind = wire.kind_name(cmd.kind)
    if len(state.players[seat].hand) >= HAND_LIMIT:
        raise codes.OBJECTIVE_HAND_FULL()
    if kind not in KINDS or not state.decks[KINDS.index(kind)]:
        raise codes.OBJECTIVE_DECK_EMPTY()
    if kind not in drawable_kinds(state, seat):
        raise codes.OBJECTIVE_DECK_CYCLED()
    (card,), _ = draw(state.decks[KINDS.index(kind)])
    code = wire.kind_code(kind)
    events = [pb.Event(objective_drawn=pb.ObjectiveDrawn(seat=seat, kind=code, card=card))]
    if is_shown_by_garden(state, card):
        back = pb.ObjectiveReturned(seat=seat, kind=code, card=card)
        events.append(pb.Event(objective_returned=back))
    return events


_DRAWS = {kind: pb.DrawObjective(kind=wire.kind_code(kind)) for kind in KINDS}
# One draw per open deck, for each set of open decks.
_DRAW_BODIES = {kinds: tuple(_DRAWS[kind] for kind in kinds) for kinds in _OPEN_KINDS.values()}


def objective_draws(state: FreundeState, seat: int) -> tuple[pb.DrawObjective, ...]:
    """One draw per open deck (shared bodies: the kit copies each into its command)."""
    if "objective" not in state.open_actions:
        return ()
    return _DRAW_BODIES[drawable_kinds(state, seat)]


def claim_objective(state: FreundeState, cmd: pb.ClaimObjective, seat: int) -> list[pb.Event]:
    """Completing objectives: claim a met card (a free action, any number per turn); the
    n-th objective brings the Emperor."""
    card = cmd.card
    player = state.players[seat]
    if card not in player.hand:
        raise codes.OBJECTIVE_NOT_IN_HAND()
    if not is_met(state, seat, card):
        raise codes.OBJECTIVE_NOT_MET()
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
    if state.emperor < 0 and len(player.claimed) + 1 >= emperor_threshold(state.seats):
        events.append(pb.Event(emperor_awarded=pb.EmperorAwarded(seat=seat, points=EMPEROR_POINTS)))
    return events


def claims(state: FreundeState, seat: int) -> tuple[pb.ClaimObjective, ...]:
    """One claim per completed card (shared bodies, remembered: the kit copies each)."""
    player = state.players[seat]
    last = _last_claims[seat]
    if (
        last[0] is player.hand
        and last[1] is player.bamboo
        and last[2] is state.garden.irrigated
        and (last[3] is None or last[3] is state.garden.gardener_shown)
    ):
        return last[4]
    return _claims_worked_out(state, seat)
