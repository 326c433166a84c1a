"""A Tend table between two commands: plain frozen data, changed only by ``evolve``.

Nothing here is secret. Decks are unordered pools (``task_deck``, ``neighbour_deck``):
a card is drawn from them at random when it is revealed. The upcoming season decks keep
only their face-up top card and the seasons of the cards under it. A scratch-off half
keeps the goods its preview drew from the half's pool; a square's content is drawn from
what is left of the preview when the square is scratched.

Squares are kept as numbers in sorted tuples (farm cells and manifest boxes numbered row
by row), which keeps the state's canonical form small and cheap to digest.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from engines.tend.content import Square

__all__ = [
    "Die",
    "FinalScore",
    "Player",
    "Scratch",
    "Task",
    "TendState",
    "Upcoming",
    "Waiting",
    "added",
    "with_player",
]


@dataclass(frozen=True, slots=True)
class Die:
    """A crop or animal die on the farm: its colour (``die``), top-left cell and value."""

    die: str
    cell: int
    value: int


@dataclass(frozen=True, slots=True)
class Scratch:
    """One woods or mine of a scratch-off card: its printed face (rocks, path, and the
    pool entries each half's preview drew) and what is scratched."""

    rocks: tuple[int, ...] = ()
    path: tuple[int, ...] = ()
    picks_top: tuple[int, ...] = ()
    picks_bottom: tuple[int, ...] = ()
    scratched: tuple[tuple[int, Square], ...] = ()

    def content(self, square: int) -> Square | None:
        for number, content in self.scratched:
            if number == square:
                return content
        return None


@dataclass(frozen=True, slots=True)
class Task:
    """The task in hand: its kind, actions left, and, when fishing, the cast."""

    kind: str
    actions: int
    source: str
    energy_used: bool = False
    area: str = ""
    black: int = 0
    white: int = 0
    centre: int = -1
    rod: str = ""
    caught: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Waiting:
    """A task waiting its turn: from the card in hand, a cargo row or the intern program."""

    task: str
    bonus: int
    source: str


@dataclass(frozen=True, slots=True)
class Player:
    """One seat's farm sheet, cargo sheet, scratch-off card and turn in progress."""

    # farm area
    tilled: tuple[int, ...] = ()
    fences: tuple[int, ...] = ()
    trellises: tuple[int, ...] = ()
    dice: tuple[Die, ...] = ()
    owed_animals: tuple[str, ...] = ()
    # sheet spaces crossed out, rows completed, and what they unlocked
    crossed: tuple[tuple[str, int], ...] = ()
    rows_done: tuple[tuple[str, int], ...] = ()
    tools: tuple[str, ...] = ()
    rods: tuple[str, ...] = ()
    lure: bool = False
    energy: tuple[tuple[str, int], ...] = ()
    areas: tuple[str, ...] = ()
    abilities: tuple[str, ...] = ()
    explorer: bool = False
    badges: tuple[str, ...] = ()
    chop_level: int = 1
    mine_level: int = 1
    woods: Scratch = Scratch()
    mine: Scratch = Scratch()
    # cargo manifest: each good shipped and its cells
    shipped: tuple[tuple[str, tuple[int, ...]], ...] = ()
    # neighbours: the card beside each track ("" when given away), the sides whose card
    # came this phase (only older cards may be swapped), cards drawn to choose from, gifts
    # to redeem now, gifts to redeem at the next neighbour phase, boxes crossed
    left: str = ""
    right: str = ""
    fresh: tuple[str, ...] = ()
    drawn: tuple[tuple[str, tuple[str, ...]], ...] = ()
    gifts: tuple[str, ...] = ()
    incoming: tuple[str, ...] = ()
    track_left: int = 0
    track_right: int = 0
    # this turn
    purse: int = 0
    pending: tuple[str, ...] = ()
    geodes: tuple[tuple[int, int], ...] = ()
    card: int = -1
    half: str = ""
    chose: bool = False
    line: tuple[Waiting, ...] = ()
    bonus: tuple[Waiting, ...] = ()
    task: Task | None = None
    chosen: tuple[int, ...] = ()
    done: bool = False
    # the season objectives scored
    objectives: tuple[int, ...] = ()

    def scratch(self, area: str) -> Scratch:
        return self.woods if area == "woods" else self.mine

    def charges(self, bar: str) -> int:
        return dict(self.energy).get(bar, 0)

    def card_beside(self, side: str) -> str:
        return self.left if side == "left" else self.right

    def busy(self) -> bool:
        """Whether something is in hand: goods to use, a task, a card, tasks waiting."""
        return bool(
            self.pending
            or self.geodes
            or self.task is not None
            or self.card >= 0
            or self.line
            or self.bonus
        )


@dataclass(frozen=True, slots=True)
class Upcoming:
    """An upcoming season deck: its face-up top card and the seasons beneath it."""

    top: str = ""
    seasons: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class FinalScore:
    """One seat's final scoring."""

    seat: int
    total: int
    objectives: tuple[int, ...]
    stalls: tuple[int, ...]
    badges: int
    neighbour: int
    doubled: str


@dataclass(frozen=True, slots=True)
class TendState:
    """The whole table. ``phase`` is ``""`` before set-up, then ``start`` (keeping
    neighbour cards), ``tasks``, ``neighbour``, ``final`` (the neighbour phase after
    round 12) and ``finished``."""

    seats: int = 0
    advanced_cards: bool = True
    round_timer: bool = False
    round: int = 0
    phase: str = ""
    objectives: tuple[str, ...] = ()
    row: tuple[str, ...] = ()
    upcoming: tuple[Upcoming, ...] = ()
    season_seen: tuple[str, ...] = ()
    task_deck: tuple[str, ...] = ()
    task_discard: tuple[str, ...] = ()
    neighbour_deck: tuple[str, ...] = ()
    neighbour_discard: tuple[str, ...] = ()
    players: tuple[Player, ...] = ()
    final: tuple[FinalScore, ...] = ()
    winners: tuple[int, ...] = ()


def added(items: tuple[Any, ...], *new: Any) -> tuple[Any, ...]:
    """A sorted tuple with ``new`` items added (each once)."""
    return tuple(sorted(set(items) | set(new)))


def with_player(state: TendState, seat: int, **changes: Any) -> TendState:
    """``state`` with seat ``seat``'s player changed."""
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))
