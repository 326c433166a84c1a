"""Set-up (Takenoko's, where the rulebook is silent): the shuffled plot stack and
objective decks, the first player, and one objective of each kind for every player.

Everything random about a table is drawn here and written into the set-up events, so
replaying them never draws.
"""

from __future__ import annotations

from engines.core.contract import TableConfig
from engines.core.deck import draw, shuffled
from engines.core.rng import Rng
from engines.freunde import codes, wire
from engines.freunde.content import OBJECTIVES, TILES
from engines.freunde.state import KINDS
from proto import freunde_pb2 as pb

__all__ = ["DEFAULT_ROUND_LIMIT", "MAX_SEATS", "MIN_SEATS", "set_up"]

MIN_SEATS, MAX_SEATS = 2, 4
DEFAULT_ROUND_LIMIT = 100


def set_up(config: TableConfig, rng: Rng) -> list[pb.Event]:
    """Set-up: shuffled plots and objective decks, one objective of each kind each."""
    if not MIN_SEATS <= config.seats <= MAX_SEATS:
        raise codes.SETUP_SEATS()
    limit = config.options.get("round_limit", DEFAULT_ROUND_LIMIT)
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise codes.SETUP_ROUND_LIMIT()
    stack = shuffled(sorted(TILES), rng)
    decks = [
        shuffled(sorted(c for c, o in OBJECTIVES.items() if o.kind == kind), rng) for kind in KINDS
    ]
    first = rng.below(config.seats)
    started = pb.GameStarted(
        seats=config.seats,
        first_player=first,
        plot_stack=stack,
        plot_objectives=decks[0],
        gardener_objectives=decks[1],
        panda_objectives=decks[2],
        round_limit=limit,
    )
    events = [pb.Event(game_started=started)]
    tops = [draw(deck, config.seats)[0] for deck in decks]
    for seat in range(config.seats):
        dealt = pb.ObjectivesDealt(
            seat=seat,
            cards=[top[seat] for top in tops],
            kinds=[wire.kind_code(kind) for kind in KINDS],
        )
        events.append(pb.Event(objectives_dealt=dealt))
    return events
