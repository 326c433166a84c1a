"""Setup: the table (neighbour deck, objectives, season decks, starter row) and each
player's components (sheets, scratch-off card, two of four neighbour cards).

Every deck is an unordered pool, so set-up records only what is face up: the three
objectives, the five starter cards of the task row, the top card of each upcoming season
deck and the seasons of the cards under it (three season-3, then four season-2, then
four season-1 cards, the top one face up), the four neighbour cards each player draws,
and each player's printed scratch-off card.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.core.contract import TableConfig
from engines.core.deck import draw_random
from engines.core.rng import Rng
from engines.tend import codes
from engines.tend.content import Card, content
from engines.tend.events import wrap
from engines.tend.scratch_off import generate
from engines.tend.state import Scratch
from proto import tend_pb2 as pb

__all__ = [
    "MAX_SEATS",
    "NEIGHBOURS_DRAWN",
    "ROW",
    "UPCOMING",
    "season_pool",
    "set_up",
]

MAX_SEATS = 8
ROW = 5
NEIGHBOURS_DRAWN = 4
UPCOMING: tuple[int, ...] = (1, 1, 1, 2, 2, 2, 2, 3, 3, 3)
"""Seasons of the cards under each upcoming deck's face-up top card (a season-1 card)."""


def season_pool(season: int, advanced: bool, seen: Sequence[str]) -> list[str]:
    """Season cards not yet revealed (without the advanced ones when left out)."""
    cards: list[Card] = [content().cards[i] for i in content().decks[f"season_{season}"]]
    return [c.id for c in cards if (advanced or not c.advanced) and c.id not in seen]


def _card(scratch: Scratch) -> pb.ScratchCard:
    return pb.ScratchCard(
        rocks=scratch.rocks,
        path=scratch.path,
        top_picks=scratch.picks_top,
        bottom_picks=scratch.picks_bottom,
    )


def set_up(config: TableConfig, rng: Rng) -> list[pb.Event]:
    """Table Setup a-i and Player Components a-i."""
    c = content()
    if not 1 <= config.seats <= MAX_SEATS:
        raise codes.SETUP_SEATS()
    advanced = bool(config.options.get("advanced_cards", True))
    objectives = [draw_random(c.season_objectives(s), 1, rng)[0] for s in (1, 2, 3)]
    row = draw_random(c.decks["starter"], ROW, rng)
    tops = draw_random(season_pool(1, advanced, ()), 2, rng)
    deck = list(c.neighbour_cards)
    players = []
    for _ in range(config.seats):
        drawn = draw_random(deck, NEIGHBOURS_DRAWN, rng)
        for card in drawn:
            deck.remove(card)
        woods = generate(c.scratch_areas["woods"], rng)
        mine = generate(c.scratch_areas["mine"], rng)
        players.append(pb.SeatSetUp(neighbours=drawn, woods=_card(woods), mine=_card(mine)))
    set_up_ = pb.GameSetUp(
        seats=config.seats,
        advanced_cards=advanced,
        round_timer=bool(config.options.get("round_timer", False)),
        objectives=objectives,
        row=row,
        tops=tops,
        upcoming=UPCOMING,
        players=players,
    )
    return [wrap(game_set_up=set_up_)]
