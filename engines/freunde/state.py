"""Freunde's state: plain frozen data, changed only by the recorders of ``evolve.py``.

Hexes are axial ``(q, r)`` tuples with the pond at ``(0, 0)``. Per-colour values are
``(green, yellow, pink)`` triples and per-improvement values ``(watershed, fertilizer,
enclosure)`` triples. The table is split the way a player sees it: the turn in
progress, the garden, each player's reserve and hand, the supplies and the decks, so a
recorder only copies the small part it changes.

The garden's maps (``plots``, ``bamboo``, ``chips``) are dicts typed as read-only
``Mapping``: a recorder builds a new dict, never changes one in place. Their canonical
form (engines.core.canonical) sorts the keys, so two folds of one log always digest
the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engines.core.hexgrid import Edge, Hex, neighbours

__all__ = [
    "ACTIONS",
    "COLOURS",
    "IMPROVEMENTS",
    "KINDS",
    "POND",
    "TALL_STALK",
    "WEATHERS",
    "FreundeState",
    "Garden",
    "Player",
    "Supply",
    "Triple",
    "Turn",
]

POND: Hex = (0, 0)
COLOURS: tuple[str, ...] = ("green", "yellow", "pink")
IMPROVEMENTS: tuple[str, ...] = ("watershed", "fertilizer", "enclosure")
KINDS: tuple[str, ...] = ("plot", "gardener", "panda")
ACTIONS: tuple[str, ...] = ("plot", "irrigation", "gardener", "panda", "objective")
WEATHERS: tuple[str, ...] = ("sun", "rain", "wind", "storm", "clouds", "question")

Triple = tuple[int, int, int]

# The shortest stalk a gardener objective reads (objectives.py checks the cards).
TALL_STALK = 3

# Where the first plot may go: beside the pond (plots.py keeps ``Garden.spots``).
_BY_THE_POND: tuple[Hex, ...] = tuple(sorted(neighbours(POND)))


@dataclass(frozen=True)
class Turn:
    """The turn in progress: whose, which round, and what it drew or sent back (its
    weather and actions stand beside it on ``FreundeState``: they change on most
    commands, and a change there copies the state alone)."""

    seat: int = 0
    round: int = 0
    # Objective cards sent back this turn, per kind (caps redraws: see objectives.py).
    returned: Triple = (0, 0, 0)
    # The plots drawn and not yet placed (secret: only the drawer sees them).
    drawn_plots: tuple[int, ...] = ()


@dataclass(frozen=True)
class Garden:
    """The plots around the pond and what lies on them (the bamboo and the two figures
    are kept on the state itself: see ``FreundeState``)."""

    plots: Mapping[Hex, int] = field(default_factory=dict)  # hex -> tile id
    # The stalks of TALL_STALK sections or more, kept beside ``FreundeState.bamboo`` by
    # its recorders: all that gardener objectives read, and it changes far less often.
    tall: Mapping[Hex, int] = field(default_factory=dict)  # hex -> height
    # The gardener cards those stalks complete (objectives.gardener_cards_shown), kept
    # with ``tall`` and the same object while the answer stays the same: the cards of
    # every hand are checked against it on every move.
    gardener_shown: frozenset[int] = frozenset()
    chips: Mapping[Hex, str] = field(default_factory=dict)  # hex -> improvement chip
    channels: frozenset[Edge] = frozenset()
    # The free sides between two tiles that join the channels' network, sorted: where a
    # channel may be placed (irrigation.open_sides_after_*, kept by the recorders of a
    # placed plot or channel: listed whenever the seat holds a channel).
    open_sides: tuple[Edge, ...] = ()
    # The irrigated plots, each with its colour (what plot objectives read).
    irrigated: frozenset[tuple[Hex, str]] = frozenset()
    # Every hex holding a tile, the pond included: the ground the gardener and panda walk.
    tiles: frozenset[Hex] = frozenset({POND})
    # The hexes a plot may be placed on, sorted (plots.open_spots_after, kept by the
    # recorder of a placed plot: every listing asks whether there is one).
    spots: tuple[Hex, ...] = _BY_THE_POND


@dataclass(frozen=True)
class Player:
    """One seat: its secret hand, what it completed and what its reserve holds."""

    hand: tuple[int, ...] = ()
    claimed: tuple[int, ...] = ()
    # Points of the claimed objectives per kind (plot, gardener, panda), from the claims.
    points: Triple = (0, 0, 0)
    bamboo: Triple = (0, 0, 0)
    irrigation: int = 0
    improvements: Triple = (0, 0, 0)


@dataclass(frozen=True)
class Supply:
    """What is left beside the garden (Takenoko's component counts)."""

    bamboo: Triple = (36, 30, 24)
    irrigation: int = 20
    improvements: Triple = (3, 3, 3)


@dataclass(frozen=True)
class FreundeState:
    """The whole table, secrets included (``view`` decides who sees what).

    ``seats`` is 0 until the set-up events are recorded. Every event copies this record,
    and it holds 20 fields on purpose: timed under CPython 3.11, a copy of 21 fields
    costs 2.3 times one of 20, so a new field should take the place of another (as
    ``end_reason`` took the place of a ``finished`` flag).
    """

    seats: int = 0
    round_limit: int = 0
    first_player: int = 0
    # The parts' defaults are made by factories, not kept on the class: an attribute
    # whose class-level default is an instance of a mutable class is never read through
    # CPython's fast path for instance attributes, and these are read on every command.
    turn: Turn = field(default_factory=Turn)
    garden: Garden = field(default_factory=Garden)
    # The two figures, beside the garden rather than in it: a figure moves on most
    # turns, and its recorder then copies the state alone, not the garden as well.
    gardener: Hex = POND
    panda: Hex = POND
    # The actions taken this turn, and those of which one more fits in it
    # (actions.open_actions of ``actions`` and ``weather``, kept by the recorders that
    # change either): beside the turn rather than in it, so an action taken copies the
    # state alone.
    actions: tuple[str, ...] = ()
    open_actions: frozenset[str] = frozenset(ACTIONS)
    # This turn's weather ("" on a player's first turn) and whether its effect was taken
    # or declined: beside the turn as well, since it is rolled and then used on most turns.
    weather: str = ""
    weather_used: bool = False
    # The bamboo standing on the plots, beside the garden for the same reason: a stalk
    # grows or is eaten on most turns.
    bamboo: Mapping[Hex, int] = field(default_factory=dict)  # hex -> height (never 0)
    players: tuple[Player, ...] = ()
    supply: Supply = field(default_factory=Supply)
    # Secret orders, top first: the plot stack and the plot, gardener, panda decks.
    plot_stack: tuple[int, ...] = ()
    decks: tuple[tuple[int, ...], ...] = ((), (), ())
    emperor: int = -1
    final_scores: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    # Why the game ended ("" while it goes on): the game is over once there is one (no
    # separate flag: see the class's docstring).
    end_reason: str = ""
