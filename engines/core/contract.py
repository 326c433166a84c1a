"""The engine contract: a game is a decider over its own frozen state.

See ARCHITECTURE.md › "The engine contract". Commands and events are the game's
protobuf ``Command`` and ``Event`` messages (one oneof each, in ``proto/<game>.proto``);
state is plain frozen data. Nothing here does I/O or reads the clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

from google.protobuf.message import Message

from engines.core.rng import Rng

__all__ = [
    "Decided",
    "Engine",
    "GameInfo",
    "OptionSpec",
    "Outcome",
    "TableConfig",
]

S = TypeVar("S")
C = TypeVar("C", bound=Message)
E = TypeVar("E", bound=Message)


@dataclass(frozen=True, slots=True)
class TableConfig:
    """What a table is created with. ``options`` values are plain JSON values."""

    table_id: str
    seats: int
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One table option a game accepts, for ``GET /v1/games`` and validation."""

    name: str
    kind: str  # "bool", "int", "str", "choice"
    default: Any
    description: str
    choices: tuple[str, ...] = ()
    # Bounds of an "int" option, both inclusive; every int option declares them, so a
    # client can never send a value the rules were not written for.
    minimum: int | None = None
    maximum: int | None = None


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game's kind, declared as data (after OpenSpiel's ``_GAME_TYPE``)."""

    game: str
    title: str
    min_seats: int
    max_seats: int
    options: tuple[OptionSpec, ...] = ()


@dataclass(frozen=True, slots=True)
class Outcome:
    """Where the game stands: whose move it is, and once finished, who won."""

    phase: str
    to_act: tuple[int, ...]
    finished: bool
    scores: tuple[int, ...]
    winners: tuple[int, ...] = ()
    breakdown: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "to_act": list(self.to_act),
            "finished": self.finished,
            "scores": list(self.scores),
            "winners": list(self.winners),
            "breakdown": dict(self.breakdown),
        }


class Decided(NamedTuple, Generic[S, E]):
    """An accepted command's events and the state after them (a named tuple: one is made
    for every command played)."""

    events: list[E]
    state: S


class Engine(Protocol, Generic[S, C, E]):
    """A game's rules. Every method is pure; only ``setup`` and ``decide`` get an ``Rng``."""

    info: GameInfo
    command_type: type[C]
    event_type: type[E]

    @property
    def game(self) -> str: ...

    def setup(self, config: TableConfig, rng: Rng) -> list[E]:
        """The set-up events; every random part of the set-up is inside them."""
        ...

    def initial_state(self) -> S:
        """The state before any event."""
        ...

    def evolve(self, state: S, event: E) -> S:
        """Record one event. Never draws, never checks a rule."""
        ...

    def decide(self, state: S, command: C, seat: int, rng: Rng) -> list[E]:
        """The events a command produces, or ``RuleViolation``. Changes nothing."""
        ...

    def decided(self, state: S, command: C, seat: int, rng: Rng) -> Decided[S, E]:
        """``decide``, with the state after the events: the state their fold gives, so a
        caller applying the command keeps it rather than folding them again."""
        ...

    def legal_commands(self, state: S, seat: int) -> list[C]:
        """Every command ``decide`` would accept from ``seat`` now."""
        ...

    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator), as plain JSON data."""
        ...

    def views(self, state: S, seats: int) -> list[dict[str, Any]]:
        """``[view(state, None), view(state, 0), ..., view(state, seats - 1)]``, made
        together (the projector writes them all after every command)."""
        ...

    def redact(self, event: E, seat: int | None) -> E | None:
        """The event as ``seat`` may see it; ``None`` when it may see nothing of it."""
        ...

    def finished(self, state: S) -> bool:
        """Whether the game is over: ``outcome(state).finished``, without adding up the
        scores (the engine service asks it around every command)."""
        ...

    def outcome(self, state: S) -> Outcome:
        """Phase, seats to act, whether the game is over, scores."""
        ...

    def describe_command(self, state: S, command: C, seat: int) -> Any:
        """A legal command in words for menus: an object with ``group`` (the menu it belongs
        in) and ``text`` (the sentence), see ``engines.core.game.MoveWords``."""
        ...

    def describe_event(self, event: E, viewer: int | None) -> str:
        """An event in one line, as ``viewer`` may see it (pass it redacted)."""
        ...

    def picture(self, view: dict[str, Any]) -> str:
        """The table as an SVG document, drawn from ``view`` alone (see
        ``engines.core.picture``), so it shows no more than that view does."""
        ...
