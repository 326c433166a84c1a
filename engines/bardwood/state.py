"""A Bardwood Grove table between commands: plain frozen data.

Secrets are kept in fields with plain names: each player's ``hand`` and the ``unseen``
part of its deck. No deck order is ever stored: ``unseen`` is kept sorted and a card is
drawn from it at random when it is drawn; only the cards put on top of a deck in view
of all (``known``) have an order. Face-down Legends are not stored at all: a Tier keeps
how many are face down, and a flip draws from the Tier's Legends not yet seen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, TypeVar

__all__ = [
    "BardwoodState",
    "Choice",
    "Pile",
    "Player",
    "SongCard",
    "Turn",
    "changed",
    "put",
    "with_player",
]

T = TypeVar("T")


def put(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``values`` with the item at ``index`` replaced."""
    return (*values[:index], value, *values[index + 1 :])


@dataclass(frozen=True, slots=True)
class SongCard:
    """A card in a Song: whether its Volume cost is paid, and how often each effect of
    its top and paid parts has been used this Song."""

    card: str
    paid: bool = False
    top_uses: tuple[int, ...] = ()
    paid_uses: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Player:
    """One seat's board, supply and cards."""

    character: str = ""
    space: str = ""  # the Bard's space; "" before the first turn places it
    boat: int = 0  # Legend discount track: 0 = the start, 4 = "-3"
    area: int = 0  # the Tempo area the wheel's icon is in
    song_triggered: bool = False  # the Song tracker is on the Song
    volume: int = 0
    coins: int = 0
    songstones: int = 0
    rangestones: int = 0
    loudstones: int = 0
    crystals: int = 0  # green VP
    runes: tuple[int, ...] = ()  # Runes still covering each Tempo area's bonus spot
    badges: int = 0  # own Badges still on the Badge track
    held: int = 0  # opponents' Badges on the Character card
    hand: tuple[str, ...] = ()  # secret; kept sorted
    known: tuple[str, ...] = ()  # deck top put there in view of all; top first
    unseen: tuple[str, ...] = ()  # the rest of the deck; sorted, no order
    discard: tuple[str, ...] = ()  # oldest first
    song: tuple[SongCard, ...] = ()
    creatures: tuple[tuple[str, ...], ...] = ()  # per Creature spot, bottom first
    turns: int = 0  # turns begun

    @property
    def deck_size(self) -> int:
        return len(self.known) + len(self.unseen)

    @property
    def stones(self) -> int:
        """Coins and Bardstones: the Downtime limit and the first tie-break."""
        return self.coins + self.songstones + self.rangestones + self.loudstones


@dataclass(frozen=True, slots=True)
class Pile:
    """A Creature pile on the main board: cards bottom (the Boss) first, and the owners of
    the Badges on its top Creature."""

    location: str
    cards: tuple[str, ...]
    badges: tuple[int, ...] = ()

    @property
    def top(self) -> str:
        return self.cards[-1] if self.cards else ""


@dataclass(frozen=True, slots=True)
class Choice:
    """A decision the rules wait for before anything else (the top of the stack)."""

    kind: str  # "mark_legend", "choose_motif", "place_badges", "cheer_fan",
    # "place_creature", "return_stones"
    seat: int
    tier: int = 0
    count: int = 0
    card: str = ""


@dataclass(frozen=True, slots=True)
class Turn:
    """What belongs to the current turn only (all of it is lost when it ends)."""

    seat: int = -1
    first: bool = False
    final: bool = False
    swan_song: bool = False  # Sing whatever the Song tracker says
    played: bool = False
    discarded: bool = False
    melody: int = 0
    lyric: int = 0
    movement: int = 0
    used: tuple[str, ...] = ()  # Locations activated this turn
    challenged: tuple[int, ...] = ()  # seats challenged this turn
    offer_used: bool = False


@dataclass(frozen=True, slots=True)
class BardwoodState:
    """The whole table."""

    seats: int = 0
    first_player: int = 0
    short_game: bool = False
    loudstones: bool = False
    unlocked: bool = False
    # "setup", "choose_character", "place_bard", "compose", "sing", "downtime", "finished"
    phase: str = "setup"
    players: tuple[Player, ...] = ()
    turn: Turn = Turn()
    choices: tuple[Choice, ...] = ()
    market: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (location, cards top first)
    market_boat: int = 0
    fans: tuple[str, ...] = ()  # the Fan deck, top first (face up)
    legends_up: tuple[tuple[str, ...], ...] = ()  # per Tier, in the order flipped
    legends_down: tuple[int, ...] = ()  # per Tier, face-down count
    legend_runes: tuple[tuple[str, int], ...] = ()  # (Legend, seat), sorted
    perform: tuple[int, ...] = ()  # the seat whose Rune is on each spot; -1 empty
    piles: tuple[Pile, ...] = ()
    bank: tuple[int, ...] = ()  # owners of the Badges on the High Note Bank
    motifs: tuple[tuple[str, bool], ...] = ()  # (Motif or "", showing its VP side)
    act_events: tuple[str, ...] = ()  # the Act I and Act II Events
    act: int = 1
    act1_pool: int = 0
    act2_pool: int = 0
    act_ending: bool = False  # the current Act's pool ran out this turn
    end_triggered: bool = False
    final_seats: tuple[int, ...] = ()  # still to take a final turn, in order
    finished: bool = False
    scores: tuple[int, ...] = ()  # final totals in half points
    winners: tuple[int, ...] = ()

    def player(self, seat: int) -> Player:
        return self.players[seat]

    def pile(self, location: str) -> Pile | None:
        for pile in self.piles:
            if pile.location == location:
                return pile
        return None

    def market_deck(self, location: str) -> tuple[str, ...] | None:
        for where, cards in self.market:
            if where == location:
                return cards
        return None

    @property
    def choice(self) -> Choice | None:
        return self.choices[-1] if self.choices else None


_FIELDS: dict[type, tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]]] = {}
_SET = object.__setattr__


def changed(obj: T, **changes: Any) -> T:
    """A copy of one of this module's frozen records with ``changes``.

    ``dataclasses.replace`` re-runs ``__init__`` with its checks on every call and was
    most of a game's time (profiled); these records have plain fields only, so copying
    the fields is the same result.
    """
    kind = type(obj)
    known = _FIELDS.get(kind)
    if known is None:
        names = tuple(f.name for f in fields(kind))  # type: ignore[arg-type]
        known = _FIELDS[kind] = (names, attrgetter(*names))
    names, values = known
    new = object.__new__(kind)
    for name, value in zip(names, values(obj), strict=True):
        _SET(new, name, value)
    for name, value in changes.items():
        _SET(new, name, value)
    return new


def with_player(state: BardwoodState, seat: int, **changes: Any) -> BardwoodState:
    """``state`` with seat ``seat``'s player changed."""
    player = changed(state.players[seat], **changes)
    return changed(state, players=put(state.players, seat, player))
