"""Harvest's state: plain frozen data, changed only by ``evolve``.

The classes that change on every event (the table, a player, a step, a crop) keep
their fields in ``__dict__`` rather than slots, so the kit's ``recorders.changed``
copies one in a single dict update (profiled: copying field by field was the hottest
call of a game).

No stack or deck order is kept: building, sunrise, market and Gairy tiles are drawn
from unordered pools when they are revealed (each draw recorded in its event), which
is the same chance as shuffling at set-up and leaves no hidden order to leak. The
only secrets are each seat's two dealt Characters and Farmhouses, and its kept pair
until every seat has chosen.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.core.polyomino import Cell

__all__ = [
    "Built",
    "Crop",
    "FinalScore",
    "HarvestState",
    "Player",
    "Step",
    "Task",
]


@dataclass(frozen=True, slots=True)
class Task:
    """A benefit or action waiting to be resolved, ``amount`` times or all at once."""

    kind: str
    amount: int = 1


@dataclass(frozen=True)
class Step:
    """One bundle of tasks a player resolves, in any order, before the step below it.

    ``mode`` marks a Plant or Tend action in progress; ``owed`` is a crop a Tend has
    produced that must still be placed (the second Strawberry). ``kinds`` are the kinds
    of ``tasks``, kept beside them because every command kind of a step asks for them.
    """

    seat: int
    source: str
    tasks: tuple[Task, ...] = ()
    used: frozenset[str] = frozenset()
    mode: str = ""
    owed: str = ""
    kinds: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Crop:
    """A crop tile on the field; a ``bush`` may carry one Blueberry (``berry``)."""

    kind: str
    cells: frozenset[Cell]
    berry: bool = False


@dataclass(frozen=True, slots=True)
class Built:
    """A building on the farm, covering a 2x2 block."""

    building: str
    cells: frozenset[Cell]


@dataclass(frozen=True)
class Player:
    """One farmer: supply, tracks and farm board."""

    dealt_characters: tuple[str, ...] = ()
    dealt_farmhouses: tuple[str, ...] = ()
    character: str = ""
    farmhouse: str = ""
    sunrise: int = 0
    coins: int = 0
    water: int = 0
    bucket: int = 0
    fertilizer: int = 0
    points: int = 0
    seeds: tuple[int, ...] = (0, 0, 0, 0)
    rerolls: int = 0
    forests: tuple[Cell, ...] = ()
    crops: tuple[Crop, ...] = ()
    buildings: tuple[Built, ...] = ()
    pieces: int = 0
    mick_used: bool = False


@dataclass(frozen=True)
class FinalScore:
    """Game End scoring of one seat."""

    seat: int
    total: int
    track: int
    buildings: int
    crops: int
    bushes: int
    coins: int
    leftovers: int


@dataclass(frozen=True)
class HarvestState:
    """The whole table."""

    seats: int = 0
    draft: bool = False
    first_game: bool = False
    challenge: str = ""
    phase: str = "setup"
    round: int = 0
    turn: int = -1
    awaiting: str = ""
    order: tuple[int, ...] = ()
    position: int = -1
    players: tuple[Player, ...] = ()
    display: tuple[int, ...] = ()
    gairy_tiles_per_turn: int = 0
    gairy_sunrise: int = 0
    gairy_pieces: int = 0
    gairy_revealed: frozenset[int] = frozenset()
    placements: tuple[tuple[str, int], ...] = ()
    workshop: tuple[str, ...] = ()
    revealed_buildings: frozenset[str] = frozenset()
    market_large: str = ""
    market_small: str = ""
    market_seen: frozenset[str] = frozenset()
    market_left: int = 0
    steps: tuple[Step, ...] = ()
    done: frozenset[int] = frozenset()
    draft_characters: tuple[str, ...] = ()
    draft_farmhouses: tuple[str, ...] = ()
    draft_picks: int = 0
    final: tuple[FinalScore, ...] = ()
    winners: tuple[int, ...] = ()

    def player(self, seat: int) -> Player:
        return self.players[seat]
