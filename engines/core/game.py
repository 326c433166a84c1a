"""The game kit: a game declared as data and small rules, run by one ``decide``.

Every Boardwright game is a :class:`Game`: the engine contract
(:class:`engines.core.contract.Engine`) built from the same parts, so a reader who knows
one engine can read them all. A game's ``engine.py`` only assembles them::

    ENGINE = Game(
        info=GameInfo("freunde", "Freunde", 2, 4, options=...),
        command_type=pb.Command,
        event_type=pb.Event,
        initial_state=FreundeState,
        setup=set_up,                 # TableConfig, Rng -> the set-up events
        recorders=RECORDERS,          # engines.core.recorders: evolve
        flow=FLOW,                    # engines.core.flow: stages, whose turn
        moves=MOVES,                  # command kind -> Move(rule, candidates)
        redaction=REDACTION,          # engines.core.redaction: who sees which field
        board=board_view, players=player_views, private=private_view,
        standing=standing,            # scores, winners, breakdown
    )

``decide`` is written once here. It makes the checks every game shares, in this order,
each with the shared code of :mod:`engines.core.codes`:

1. the game is over: ``game.over``;
2. the seat is not among those to act: ``turn.not_yours``;
3. the command names no move: ``command.empty``;
4. the stage does not take this kind of command: ``command.not_now``, with the stage's
   own sentence ("Place one of the plots you drew first.");

then hands the command's body to its :class:`Move`'s rule, which returns the events or
raises the game's own refusal. When the game declares ``advance``, the automatic steps
that follow (next turn, next round, scoring) are decided from the state after those
events and appended: ``advance(state, rng)`` returns the events of the next automatic
step (none when a seat must choose or the game is over), the kit records them and asks
again, until a step brings none.

A command's events are recorded once: :meth:`Game.decided` returns the events together with the
state after them, and a caller that applies the command (the engine service,
:class:`engines.core.play.Table`) keeps that state instead of folding the events again.
``decide`` is the same without the state (the engine contract, for callers that only
look). Folding the stored events from the start (replay) gives the same state: the
conformance check of :mod:`engines.core.testing` compares the two on every game it plays.

Every game also says its moves and events in words (for menus, logs and chat): a
:class:`Wording` gives each legal command a group (a menu of 25 options at most, as chat
clients hold) and a sentence ("Place the green fertilizer plot at row 2, column 3"),
and each event, as a viewer sees it, a one-line sentence. A game that gives none gets
the kit's plain rendering of the message's kind and fields.

A game draws its table as an SVG picture from a view (never from the state), with the
writer of :mod:`engines.core.picture`; one that draws nothing gets the kit's plain
picture of players and scores.

``legal_commands`` reads the same flow: for each kind the stage takes, the move lists
candidate bodies and each is kept only if its rule accepts it, so the two agree by
construction. A move whose candidates are exactly the accepted ones says
``exact=True`` and skips that check (a fast path; the conformance check of
:mod:`engines.core.testing` proves it). A stage that takes many kinds, few of them open
at a time, may say which are (``Stage.offered``) so the others are not asked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from google.protobuf.message import Message

from engines.core import codes
from engines.core.bots import GreedyBot, RandomBot
from engines.core.contract import Decided, GameInfo, Outcome, TableConfig
from engines.core.errors import RuleViolation
from engines.core.flow import Flow, Stage
from engines.core.picture import plain_picture
from engines.core.recorders import Recorders, oneof_kinds
from engines.core.redaction import Redaction
from engines.core.rng import Rng
from engines.core.view import envelope

__all__ = [
    "Bot",
    "BotFactory",
    "Game",
    "Move",
    "MoveWords",
    "Standing",
    "Wording",
    "command_of",
    "menus",
    "plain_words",
]

S = TypeVar("S")
C = TypeVar("C", bound=Message)
E = TypeVar("E", bound=Message)

# The rng legal_commands hands to rules that draw while it checks a candidate: whatever
# they draw is thrown away with the events.
_PROBE = Rng(b"legal-commands-probe", "probe", 0)

# How many built commands ``Game.command`` keeps (forgotten all at once when full): a
# game lists far fewer distinct shared bodies.
_BUILT = 4096


class Bot(Protocol):
    """A player that picks one of the legal commands (see :mod:`engines.core.bots`)."""

    name: str

    def choose(self, engine: Any, state: Any, seat: int) -> Message: ...


BotFactory = Callable[[int], Bot]


@dataclass(frozen=True, slots=True)
class Move(Generic[S]):
    """One command kind: the rule that decides it and the candidates to list.

    ``rule(state, body, seat)`` returns the events of the command whose body is
    ``body`` (``rule(state, body, seat, rng)`` when ``draws``), or raises
    ``RuleViolation``. ``candidates(state, seat)`` yields the bodies worth trying
    (every body the rule could accept, and perhaps more).
    """

    rule: Callable[..., Sequence[Message]]
    candidates: Callable[[S, int], Iterable[Message]]
    draws: bool = False
    exact: bool = False

    def decide(self, state: S, body: Message, seat: int, rng: Rng) -> list[Message]:
        if self.draws:
            return list(self.rule(state, body, seat, rng))
        return list(self.rule(state, body, seat))


# A stage's command kind as legal_moves reads it: kind, candidates, and the move that
# checks each candidate (None for an exact move, whose candidates are all accepted).
_Listing = tuple[str, Callable[[S, int], Iterable[Message]], Move[S] | None]


@dataclass(frozen=True, slots=True)
class Standing:
    """Scores (one per seat, in seat order), the winners once finished, and a breakdown."""

    scores: tuple[int, ...]
    winners: tuple[int, ...] = ()
    breakdown: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class MoveWords:
    """A legal command in words: the menu it belongs in, and the sentence to show."""

    group: str
    text: str


class Wording(Protocol):
    """How a game says its commands and events in words (see the module docstring)."""

    def command(self, state: Any, command: Any, seat: int) -> MoveWords: ...

    def event(self, event: Any, viewer: int | None) -> str: ...


def plain_words(message: Message) -> str:
    """A message as plain words from its kind and fields: ``place plot: tile 19, at q -5 r 1``."""
    oneof = message.DESCRIPTOR.oneofs[0].name if message.DESCRIPTOR.oneofs else None
    kind = message.WhichOneof(oneof) if oneof else None
    body = getattr(message, kind) if kind else message
    parts = []
    for field_, value in body.ListFields():
        if isinstance(value, Message):
            inner = ", ".join(f"{f.name} {v}" for f, v in value.ListFields())
            parts.append(f"{field_.name.replace('_', ' ')} {inner}".strip())
        elif field_.is_repeated:
            parts.append(f"{field_.name.replace('_', ' ')} {', '.join(str(v) for v in value)}")
        else:
            parts.append(f"{field_.name.replace('_', ' ')} {value}")
    title = (kind or body.DESCRIPTOR.name).replace("_", " ")
    return f"{title}: {', '.join(parts)}" if parts else title


class _PlainWording:
    """The kit's fallback: kinds and fields, grouped by command kind."""

    def command(self, state: Any, command: Message, seat: int) -> MoveWords:
        kind = command.WhichOneof(command.DESCRIPTOR.oneofs[0].name) or ""
        return MoveWords(group=kind.replace("_", " "), text=plain_words(command))

    def event(self, event: Message, viewer: int | None) -> str:
        return plain_words(event)


MENU_SIZE = 25


def menus(words: Sequence[MoveWords], size: int = MENU_SIZE) -> list[tuple[str, list[int]]]:
    """The legal commands' positions grouped into menus of at most ``size`` options, in
    listing order; a group too large for one menu is split as "Place a plot (1/3)"."""
    groups: dict[str, list[int]] = {}
    for index, word in enumerate(words):
        groups.setdefault(word.group, []).append(index)
    out: list[tuple[str, list[int]]] = []
    for group, members in groups.items():
        parts = [members[i : i + size] for i in range(0, len(members), size)]
        if len(parts) == 1:
            out.append((group, parts[0]))
        else:
            out.extend((f"{group} ({n}/{len(parts)})", part) for n, part in enumerate(parts, 1))
    return out


def command_of(command_type: type[C], kind: str, body: Message) -> C:
    """The game's ``Command`` holding a copy of ``body`` as its ``kind`` (an empty body
    counts: copying into the field marks it present)."""
    command = command_type()
    getattr(command, kind).CopyFrom(body)
    return command


class Game(Generic[S, C, E]):
    """A game assembled from the kit's parts (see the module docstring)."""

    def __init__(
        self,
        *,
        info: GameInfo,
        command_type: type[C],
        event_type: type[E],
        initial_state: Callable[[], S],
        setup: Callable[[TableConfig, Rng], Sequence[E]],
        recorders: Recorders[S],
        flow: Flow[S],
        moves: Mapping[str, Move[S]],
        redaction: Redaction[E],
        board: Callable[[S, int | None], dict[str, Any]],
        players: Callable[[S, int | None], list[dict[str, Any]]],
        private: Callable[[S, int], dict[str, Any]],
        standing: Callable[[S], Standing],
        advance: Callable[[S, Rng], Sequence[E]] | None = None,
        bots: Mapping[str, BotFactory] | None = None,
        wording: Wording | None = None,
        picture: Callable[[dict[str, Any]], str] | None = None,
        players_by_viewer: bool = False,
    ) -> None:
        self.info = info
        self.command_type = command_type
        self.event_type = event_type
        self._initial_state = initial_state
        self._setup = setup
        self.recorders = recorders
        self.flow = flow
        self.moves = dict(moves)
        self.redaction = redaction
        self._board = board
        self._players = players
        # Whether ``players`` shows one viewer something it hides from another (Harvest:
        # a seat's own kept Character while seats choose); if not, ``views`` makes it once.
        self.players_by_viewer = players_by_viewer
        self._private = private
        self._standing = standing
        self._advance = advance
        self.bots: dict[str, BotFactory] = dict(bots or {"random": RandomBot, "greedy": GreedyBot})
        self.wording: Wording = wording or _PlainWording()
        self._picture = picture
        self._oneof = command_type.DESCRIPTOR.oneofs[0].name
        # The recorders' own method, bound here: it runs for every event, and a method of
        # the game forwarding to it would add a call each time.
        self.evolve: Callable[[S, E], S] = recorders.evolve
        self._check()
        # What legal_commands runs in each stage, looked up once here rather than per call.
        self._listings: dict[str, tuple[_Listing[S], ...]] = {
            stage.name: tuple(
                (
                    kind,
                    self.moves[kind].candidates,
                    None if self.moves[kind].exact else self.moves[kind],
                )
                for kind in stage.commands
            )
            for stage in flow.stages
        }
        self._narrowed: dict[tuple[str, frozenset[str]], tuple[_Listing[S], ...]] = {}
        # The commands ``command`` built, as their bytes, by the body's id (see there).
        self._built: dict[int, tuple[Message, str, bytes]] = {}
        self._parse_command: Callable[[bytes], C] = command_type.FromString

    def _check(self) -> None:
        """Refuse, at import time, a game whose parts do not fit together."""
        if self.recorders.event_type is not self.event_type:
            raise TypeError("the recorders are for another Event type")
        if self.redaction.event_type is not self.event_type:
            raise TypeError("the redaction is for another Event type")
        self.recorders.check()
        kinds = set(oneof_kinds(self.command_type))
        unknown = sorted(set(self.moves) - kinds)
        if unknown:
            raise TypeError(f"moves for commands that do not exist: {', '.join(unknown)}")
        without_move = sorted(kinds - set(self.moves))
        if without_move:
            raise TypeError(f"commands without a move: {', '.join(without_move)}")
        staged = self.flow.kinds()
        unstaged = sorted(kinds - staged)
        if unstaged:
            raise TypeError(f"commands no stage accepts: {', '.join(unstaged)}")

    @property
    def game(self) -> str:
        return self.info.game

    # -- the decider ----------------------------------------------------------------------

    def setup(self, config: TableConfig, rng: Rng) -> list[E]:
        """The set-up events, then whatever follows automatically from them."""
        events = list(self._setup(config, rng))
        return self._recorded(self.initial_state(), events, rng).events

    def initial_state(self) -> S:
        return self._initial_state()

    def decide(self, state: S, command: C, seat: int, rng: Rng) -> list[E]:
        """The shared checks (module docstring), then the move's rule, then ``advance``."""
        kind, move = self._admitted(state, command, seat)
        events: list[E] = move.decide(state, getattr(command, kind), seat, rng)  # type: ignore[assignment]
        if self._advance is None:
            return events
        return self._recorded(state, events, rng).events

    def decided(self, state: S, command: C, seat: int, rng: Rng) -> Decided[S, E]:
        """``decide``, with the state after the events."""
        kind, move = self._admitted(state, command, seat)
        events: list[E] = move.decide(state, getattr(command, kind), seat, rng)  # type: ignore[assignment]
        return self._recorded(state, events, rng)

    def _admitted(self, state: S, command: C, seat: int) -> tuple[str, Move[S]]:
        stage, seats = self.flow.now(state)
        if stage is None:
            raise codes.GAME_OVER()
        if seat not in seats:
            raise codes.TURN_NOT_YOURS()
        kind = command.WhichOneof(self._oneof)
        if kind is None:
            raise codes.COMMAND_EMPTY()
        if kind not in stage.commands:
            raise codes.COMMAND_NOT_NOW(waiting_for=stage.message(state))
        return kind, self.moves[kind]

    def _recorded(self, state: S, events: list[E], rng: Rng) -> Decided[S, E]:
        """``events`` and the steps of ``advance`` that follow them (appended to
        ``events``), each recorded once, with the state after them all."""
        evolve, advance = self.evolve, self._advance
        for event in events:
            state = evolve(state, event)
        if advance is None:
            return Decided(events, state)
        while step := advance(state, rng):
            for event in step:
                state = evolve(state, event)
            events.extend(step)
        return Decided(events, state)

    def legal_commands(self, state: S, seat: int) -> list[C]:
        """Every command ``decide`` accepts from ``seat`` now, in the stage's order."""
        listed: list[C] = []
        add = listed.append
        make = self.command_type
        for kind, bodies in self.legal_groups(state, seat):
            for body in bodies:
                # command_of, spelled out: this loop builds every listed command.
                command = make()
                getattr(command, kind).CopyFrom(body)
                add(command)
        return listed

    def legal_moves(self, state: S, seat: int) -> list[tuple[str, Message]]:
        """The legal commands before each is built: ``(kind, body)`` pairs in the order of
        ``legal_commands``. The bodies may be shared with other listings and must not be
        changed; :meth:`command` builds the one a caller picks."""
        return [(kind, body) for kind, bodies in self.legal_groups(state, seat) for body in bodies]

    def legal_groups(self, state: S, seat: int) -> list[tuple[str, Sequence[Message]]]:
        """The legal commands by kind: ``(kind, bodies)`` for each kind that lists any, in
        the order of ``legal_commands``, without a pair made per body (the random bot
        counts them and picks one; the bodies are shared as in ``legal_moves``)."""
        stage, seats = self.flow.now(state)
        if stage is None or seat not in seats:
            return []
        listing = self._listings[stage.name]
        if stage.offered is not None:
            listing = self._offered(stage.name, stage.offered(state))
        groups: list[tuple[str, Sequence[Message]]] = []
        for kind, candidates, check in listing:
            bodies = candidates(state, seat)
            if check is not None:
                bodies = self._accepted(check, state, bodies, seat)
            # Most kinds list nothing on a given move: no group for them.
            if bodies:
                if type(bodies) is not tuple and type(bodies) is not list:
                    bodies = list(bodies)
                groups.append((kind, bodies))
        return groups

    def command(self, kind: str, body: Message) -> C:
        """The game's ``Command`` holding a copy of ``body`` as its ``kind``.

        Listed bodies are shared between listings and never changed (``legal_moves``),
        so the command built for one is kept as its bytes and later ones are parsed from
        them: a parse is a single step in C, where building copies the body field by
        field (a bot builds one command for every command played). The entry holds the
        body, so its id cannot be taken by another object while remembered."""
        known = self._built.get(id(body))
        if known is not None and known[1] == kind:
            return self._parse_command(known[2])
        command = command_of(self.command_type, kind, body)
        if len(self._built) >= _BUILT:
            self._built.clear()
        self._built[id(body)] = (body, kind, command.SerializeToString(deterministic=True))
        return command

    def _offered(self, stage: str, kinds: frozenset[str]) -> tuple[_Listing[S], ...]:
        """The stage's listing narrowed to ``kinds``, in the stage's order (remembered:
        a game offers few distinct sets)."""
        key = (stage, kinds)
        narrowed = self._narrowed.get(key)
        if narrowed is None:
            narrowed = tuple(entry for entry in self._listings[stage] if entry[0] in kinds)
            self._narrowed[key] = narrowed
        return narrowed

    def _accepted(
        self, move: Move[S], state: S, bodies: Iterable[Message], seat: int
    ) -> list[Message]:
        """The candidate ``bodies`` that ``move``'s rule accepts (a method of its own, so
        ``legal_groups`` keeps no closure over its locals for an exact move)."""
        return [body for body in bodies if self._accepts(move, state, body, seat)]

    @staticmethod
    def _accepts(move: Move[S], state: S, body: Message, seat: int) -> bool:
        try:
            move.decide(state, body, seat, _PROBE)
        except RuleViolation:
            return False
        return True

    def describe_command(self, state: S, command: C, seat: int) -> MoveWords:
        """A legal command in words, with the menu it belongs in."""
        return self.wording.command(state, command, seat)

    def describe_event(self, event: E, viewer: int | None) -> str:
        """An event, as ``viewer`` may see it (pass it redacted), in one line."""
        return self.wording.event(event, viewer)

    # -- what a seat sees -------------------------------------------------------------------

    def stage_name(self, state: S) -> str:
        """The flow's stage, or ``finished``."""
        return "finished" if self.flow.finished(state) else self.flow.stage(state).name

    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """The common envelope (:mod:`engines.core.view`) around the game's own parts."""
        stage, to_act = self.flow.now(state)
        return self._view(state, seat, stage, to_act, self._board(state, seat))

    def views(self, state: S, seats: int) -> list[dict[str, Any]]:
        """The spectator's view, then each seat's. ``board`` is made once for them all: it
        is the same for every viewer (the envelope's rule); so is ``players`` unless the
        game says ``players_by_viewer`` (the conformance check of
        :mod:`engines.core.testing` holds every game to both)."""
        stage, to_act = self.flow.now(state)
        board = self._board(state, None)
        players = None if self.players_by_viewer else self._players(state, None)
        return [
            self._view(state, seat, stage, to_act, board, players) for seat in (None, *range(seats))
        ]

    def _view(
        self,
        state: S,
        seat: int | None,
        stage: Stage[S] | None,
        to_act: tuple[int, ...],
        board: dict[str, Any],
        players: list[dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        return envelope(
            game=self.game,
            viewer=seat,
            stage="finished" if stage is None else stage.name,
            to_act=to_act,
            finished=stage is None,
            board=board,
            players=self._players(state, seat) if players is None else players,
            private=self._private(state, seat) if seat is not None else None,
        )

    def picture(self, view: dict[str, Any]) -> str:
        """The table as an SVG document, drawn from ``view`` (what one viewer may see)."""
        if self._picture is None:
            return plain_picture(view, self.info.title)
        return self._picture(view)

    def redact(self, event: E, seat: int | None) -> E:
        return self.redaction.redact(event, seat)

    def finished(self, state: S) -> bool:
        return self.flow.now(state)[0] is None

    def outcome(self, state: S) -> Outcome:
        standing = self._standing(state)
        stage, seats = self.flow.now(state)
        finished = stage is None
        return Outcome(
            phase="finished" if stage is None else stage.name,
            to_act=seats,
            finished=finished,
            scores=standing.scores,
            winners=standing.winners if finished else (),
            breakdown=standing.breakdown,
        )
