"""End Game Scoring: Legends with a Rune (for every player), blue VP on cards and the
uncovered Badge track (halves count 0.5), and green crystals; ties go to the most coins
and Bardstones, then the most VP from Legends, then are shared.

Totals are kept in half points so a half blue VP is exact.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engines.bardwood.badges import visible_blue_halves
from engines.bardwood.content import content
from engines.bardwood.state import BardwoodState

__all__ = ["Score", "count", "final_scores", "owned", "winners"]


def owned(state: BardwoodState, seat: int) -> Iterator[str]:
    """Every card ``seat`` owns, wherever it is (hand, deck, discard, Song, Creatures)."""
    player = state.player(seat)
    yield from player.hand
    yield from player.known
    yield from player.unseen
    yield from player.discard
    yield from (held.card for held in player.song)
    for spot in player.creatures:
        yield from spot


def count(state: BardwoodState, seat: int, what: str) -> int:
    """The number a Legend's or an Event's scoring counts for ``seat``."""
    c = content()
    player = state.player(seat)
    market = c.market_cards
    cards = [c.card(card) for card in owned(state, seat)]
    counts = {
        "creatures": lambda: sum(1 for card in cards if card.kind == "creature"),
        "bosses": lambda: sum(1 for card in cards if card.boss),
        "fans": lambda: sum(1 for card in cards if card.kind == "fan"),
        "improvs": lambda: sum(1 for card in cards if card.kind == "improv"),
        "market_cards": lambda: sum(1 for card in cards if card.id in market),
        "market_actions": lambda: sum(
            1 for card in cards if card.id in market and card.kind == "action"
        ),
        "badges_held": lambda: player.held,
        "badges_gone": lambda: c.badges - player.badges,
        "bardstones": lambda: player.songstones + player.rangestones + player.loudstones,
        "coins": lambda: player.coins,
        "coins_and_stones": lambda: player.stones,
        "runes_placed": lambda: c.runes_per_bonus * len(player.runes) - sum(player.runes),
        "uncovered_bonuses": lambda: sum(1 for left in player.runes if left == 0),
    }
    return counts[what]()


@dataclass(frozen=True, slots=True)
class Score:
    seat: int
    crystals: int
    legends: int
    blue_halves: int
    stones: int

    @property
    def total_halves(self) -> int:
        return 2 * (self.crystals + self.legends) + self.blue_halves


def final_scores(state: BardwoodState) -> list[Score]:
    """Every seat's final score."""
    c = content()
    marked = [c.legend(legend) for legend, _ in state.legend_runes]
    scores = []
    for seat in range(state.seats):
        legends = sum(leg.scoring.value(count(state, seat, leg.scoring.count)) for leg in marked)
        blue = sum(c.card(card).blue_halves for card in owned(state, seat))
        blue += visible_blue_halves(state, seat)
        player = state.player(seat)
        scores.append(Score(seat, player.crystals, legends, blue, player.stones))
    return scores


def winners(scores: list[Score]) -> tuple[int, ...]:
    """The most VP; ties to the most coins and Bardstones, then Legend VP; then shared."""
    best = max((s.total_halves, s.stones, s.legends) for s in scores)
    return tuple(s.seat for s in scores if (s.total_halves, s.stones, s.legends) == best)
