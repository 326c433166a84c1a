"""Freunde's state: plain frozen data, changed only by ``evolve``.

Hexes are axial ``(q, r)`` tuples with the pond at ``(0, 0)``. Per-seat values are
tuples indexed by seat; per-colour values are ``(green, yellow, pink)`` triples and
per-improvement values ``(watershed, fertilizer, enclosure)`` triples. Maps are kept
as sorted tuples of pairs so the canonical form (engines.core.canonical) is fixed.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.core.hexgrid import Edge, Hex

__all__ = [
    "ACTIONS",
    "COLOURS",
    "IMPROVEMENTS",
    "KINDS",
    "POND",
    "WEATHERS",
    "FreundeState",
    "Phase",
    "Triple",
]

POND: Hex = (0, 0)
COLOURS: tuple[str, ...] = ("green", "yellow", "pink")
IMPROVEMENTS: tuple[str, ...] = ("watershed", "fertilizer", "enclosure")
KINDS: tuple[str, ...] = ("plot", "gardener", "panda")
ACTIONS: tuple[str, ...] = ("plot", "irrigation", "gardener", "panda", "objective")
WEATHERS: tuple[str, ...] = ("sun", "rain", "wind", "storm", "clouds", "question")

Triple = tuple[int, int, int]


class Phase:
    """Where a turn stands (the flow table in engine.py reads these)."""

    SETUP = "setup"
    WEATHER = "weather"  # the rolled or chosen weather still waits for its choice
    ACTIONS = "actions"  # actions and free actions; EndTurn once allowed
    PLOT = "plot"  # the drawn plots wait for one to be placed
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class FreundeState:
    """The whole table, secrets included (``view`` decides who sees what)."""

    seats: int = 0
    round_limit: int = 0
    first_player: int = 0
    phase: str = Phase.SETUP
    turn: int = 0
    round: int = 0
    # The weather in effect this turn ("" on first turns) and the actions taken.
    weather: str = ""
    actions: tuple[str, ...] = ()
    # Objective cards sent back this turn, per kind (caps redraws: see objectives.py).
    returned: Triple = (0, 0, 0)
    # Secret orders: top first.
    plot_stack: tuple[int, ...] = ()
    decks: tuple[tuple[int, ...], ...] = ((), (), ())
    drawn_plots: tuple[int, ...] = ()
    hands: tuple[tuple[int, ...], ...] = ()
    claimed: tuple[tuple[int, ...], ...] = ()
    # The garden: hex -> tile id, bamboo height, chip improvement; channels on edges.
    plots: tuple[tuple[Hex, int], ...] = ()
    bamboo: tuple[tuple[Hex, int], ...] = ()
    chips: tuple[tuple[Hex, str], ...] = ()
    channels: frozenset[Edge] = frozenset()
    irrigated: frozenset[Hex] = frozenset()
    gardener: Hex = POND
    panda: Hex = POND
    # Supplies and the players' reserves.
    bamboo_supply: Triple = (36, 30, 24)
    irrigation_supply: int = 20
    improvement_bank: Triple = (3, 3, 3)
    eaten: tuple[Triple, ...] = ()
    irrigation_reserve: tuple[int, ...] = ()
    improvement_reserve: tuple[Triple, ...] = ()
    emperor: int = -1
    final_scores: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    end_reason: str = ""
