"""Setup Phase (rounds 2-12): a new task row of 3 task-deck cards and 2 season cards.

All face-up task cards, season cards included, go to the task discard; 3 cards are drawn
from the task deck (when it runs out the discard becomes the deck, so season cards come
back); the top card of each upcoming season deck joins the row, and the next card of
each is turned face up. When the season decks are empty this is the last round.
"""

from __future__ import annotations

from engines.core.deck import draw_random
from engines.core.rng import Rng
from engines.tend.events import wrap
from engines.tend.setup import season_pool
from engines.tend.state import TendState
from proto import tend_pb2 as pb

__all__ = ["FROM_TASK_DECK", "deal_row"]

FROM_TASK_DECK = 3


def deal_row(state: TendState, rng: Rng) -> pb.Event:
    """The round's task row and the new face-up tops ("" when a deck is empty)."""
    discard = [*state.task_discard, *state.row]
    deck = list(state.task_deck)
    drawn = draw_random(deck, FROM_TASK_DECK, rng)
    reshuffled = len(drawn) < FROM_TASK_DECK
    if reshuffled:
        rest = [card for card in deck if card not in drawn] + discard
        drawn += draw_random(rest, FROM_TASK_DECK - len(drawn), rng)
    row = [*drawn, *(deck_.top for deck_ in state.upcoming)]
    seen = set(state.season_seen)
    tops = []
    for upcoming in state.upcoming:
        top = ""
        if upcoming.seasons:
            pool = season_pool(upcoming.seasons[0], state.advanced_cards, sorted(seen))
            (top,) = draw_random(pool, 1, rng)
            seen.add(top)
        tops.append(top)
    dealt = pb.TaskRowDealt(round=state.round, row=row, tops=tops, reshuffled=reshuffled)
    return wrap(task_row_dealt=dealt)
