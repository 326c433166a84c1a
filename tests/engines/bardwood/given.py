"""Positions for Bardwood Grove scenarios, built from events (never by editing state).

``opening()`` is a fixed main board with Characters taken and hands drawn, at the start
of seat 0's first turn; the helpers below add the facts a scenario needs (a Bard on a
space, a Song being sung with some Melody, a Badge on a Creature...). Every command a
scenario sends goes through ``engines.core.testing.given``, which also checks it against
``legal_commands``.
"""

from __future__ import annotations

from typing import Any

from engines.bardwood.batch import event
from engines.bardwood.content import content
from engines.bardwood.engine import ENGINE
from engines.core.testing import Scenario, given
from proto import bardwood_pb2 as pb

__all__ = [
    "CHARACTERS",
    "ENGINE",
    "board",
    "cmd",
    "ev",
    "gained",
    "opening",
    "position",
    "singing",
]

ev = event

CHARACTERS = ("lark", "quill", "marlo", "briar")

MARKET = {
    "market_improv_1": ["descant", "couplet", "hat", "echo", "ballad", "wildcall"],
    "market_improv_2": ["couplet", "descant", "echo", "hat", "wildcall", "ballad"],
    "market_action_1": ["fiddle", "heroes", "lament", "taunting_jig", "saga", "lullaby"],
    "market_action_2": ["lament", "fiddle", "saga", "heroes", "lullaby", "taunting_jig"],
}
PILES = {
    "creatures_1": ["bear", "hedgehog", "toad"],
    "creatures_2": ["griffin", "badger", "owl"],
    "creatures_3": ["serpent", "fox", "stag"],
    "creatures_4": ["elk", "boar", "wolf"],
    "creatures_5": ["wyrm", "heron", "tortoise"],
}


def cmd(kind: str, **fields: Any) -> pb.Command:
    """The ``Command`` of ``kind`` with ``fields`` (an empty body counts)."""
    command = pb.Command()
    getattr(command, kind).SetInParent()
    for name, value in fields.items():
        if isinstance(value, list):
            getattr(getattr(command, kind), name).extend(value)
        else:
            setattr(getattr(command, kind), name, value)
    return command


def board(
    seats: int = 2,
    *,
    first: int = 0,
    short_game: bool = False,
    loudstones: bool = False,
    fans: list[str] | None = None,
    motifs: list[str] | None = None,
    market: dict[str, list[str]] | None = None,
    piles: dict[str, list[str]] | None = None,
    act1_pool: int | None = None,
    act2_pool: int | None = None,
    events: tuple[str, str] = ("harvest_festival", "royal_visit"),
    legends: tuple[str, str, str] = ("hedge_knight", "beast_friend", "grand_chorus"),
) -> pb.Event:
    """A fixed GameSetUp (the same every time, unless a scenario asks otherwise)."""
    c = content()
    decks = market if market is not None else MARKET
    creature_piles = piles if piles is not None else PILES
    return ev(
        "game_set_up",
        seats=seats,
        first_player=first,
        short_game=short_game,
        loudstones=loudstones,
        act1_pool=(4 if short_game else 5) * seats if act1_pool is None else act1_pool,
        act2_pool=(6 if short_game else 7) * seats if act2_pool is None else act2_pool,
        market=[pb.MarketDeck(location=loc, cards=cards) for loc, cards in decks.items()],
        market_boat=0,
        legends=[
            pb.LegendTier(tier=t + 1, face_up=leg, face_down=4) for t, leg in enumerate(legends)
        ],
        fans=list(c.fans) if fans is None else fans,
        motifs=["crowd", "hoard", "trust", "stones", "", ""] if motifs is None else motifs,
        act1_event=events[0],
        act2_event=events[1],
        creatures=[
            pb.CreaturePile(location=loc, cards=cards) for loc, cards in creature_piles.items()
        ],
    )


def opening(
    seats: int = 2,
    hands: dict[int, list[str]] | None = None,
    **board_options: Any,
) -> list[pb.Event]:
    """Characters taken in seat order (Lark, Quill, Marlo, Briar), each hand drawn, and
    seat 0's first turn begun (its Bard not yet placed)."""
    events = [board(seats, **board_options)]
    for seat in range(seats):
        events.append(ev("character_chosen", seat=seat, character=CHARACTERS[seat]))
    defaults = {
        0: ["lark_humming", "lark_refrain"],
        1: ["quill_stanza", "quill_fable"],
        2: ["marlo_haggle", "marlo_ditty"],
        3: ["briar_march", "briar_claim"],
    }
    for seat in range(seats):
        for card in (hands or {}).get(seat, defaults[seat]):
            events.append(ev("card_drawn", seat=seat, card=card))
    events.append(ev("turn_began", seat=board_options.get("first", 0), first=True))
    return events


def gained(seat: int, reason: str = "test", /, **deltas: int) -> pb.Event:
    """A ``ResourcesChanged`` giving ``seat`` what a scenario needs."""
    return ev("resources_changed", seat=seat, reason=reason, **deltas)


def singing(seat: int = 0, *, space: str = "s1", **pool: int) -> list[pb.Event]:
    """Seat ``seat``'s Bard on ``space``, its Song triggered and being sung, with the
    virtual pool (``melody``, ``lyric``, ...) given."""
    events = [
        ev("bard_placed", seat=seat, space=space),
        ev("song_triggered", seat=seat),
        ev("singing_began", seat=seat),
    ]
    if pool:
        events.append(gained(seat, **pool))
    return events


def position(*events: Any) -> Scenario[Any]:
    """The position after ``events`` (single events or lists of them, in order)."""
    return given(ENGINE, *events)
