"""What every engine must pass, written once: the conformance check and scenario helpers.

Scenarios (after the Decider's given/when/then; positions are built from events, never
by editing state)::

    def test_a_plot_far_from_the_pond_is_refused() -> None:
        given(ENGINE, started(seats=2), plots_drawn(seat=0, tiles=[3, 4, 5]))
            .when(0, place_plot(tile=3, at=(4, -2)))
            .refused("plot.not_adjacent")

    def test_a_plot_by_the_pond_is_placed() -> None:
        placed = given(ENGINE, *opening).when(0, place_plot(tile=3, at=(1, 0)))
        placed.then(plot_placed(seat=0, tile=3, at=(1, 0)))
        assert placed.view(0)["board"]["garden"][0]["tile"] == 3

``when`` checks the command against ``legal_commands`` too: a command expected to be
accepted must be listed, one expected to be refused must not be, and a refusal must
leave the state as it was.

Conformance (a game's property test is a few lines)::

    @pytest.mark.parametrize("seats", [2, 3, 4])
    def test_random_games_conform(seats: int) -> None:
        report = conformance(ENGINE, seats, seeds=range(50), deep_every=10,
                             reshuffle=reshuffle_secrets, invariants=check_limits)
        assert report.games == 50

For each seeded random game it checks that

- the game ends (within ``max_commands``) and nobody is ever left without a command;
- every listed command is accepted (the chosen one on every step; in deep games all of
  them), and unlisted or mutated commands are refused with a ``RuleViolation`` and change
  nothing; a seat that is not to act is refused; an empty command is refused;
- folding the events gives the same state (replay) and re-running set-up and the
  commands with the seed gives the same events byte for byte (re-execution);
- views and outcomes are JSON in the common envelope for every viewer, each view draws
  as a well-formed SVG picture (one viewer a step, in turn; every viewer at the end),
  and (with
  ``reshuffle``) a viewer's view and legal commands do not change when everything it
  may not see is shuffled: no seat sees another's secret;
- every event sent to a viewer has the game's declared secrets blanked, and redacted
  lists keep their length;
- every legal command and every event a viewer is sent has words (menu group and
  sentence), and a seat's move descriptions, like its view, do not change when what it
  may not see is shuffled;
- the game's own ``invariants`` hold after every command.

``BW_PROPERTY_SCALE`` multiplies every game's property-test budget (see
:func:`budget`), so a long run is one variable away: ``BW_PROPERTY_SCALE=20 make test``.
"""

from __future__ import annotations

import json
import os
import random
import xml.etree.ElementTree as ElementTree
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from engines.core import codes
from engines.core.canonical import digest, message_bytes
from engines.core.contract import Engine, TableConfig
from engines.core.errors import RuleViolation
from engines.core.messages import to_json
from engines.core.options import resolve_options
from engines.core.play import Table, fold, reexecute
from engines.core.redaction import BY_INDEX, zero_of
from engines.core.rng import Rng

__all__ = [
    "ConformanceReport",
    "Reshuffle",
    "Scenario",
    "When",
    "budget",
    "conformance",
    "given",
    "mutated",
    "play_random_game",
]

S = TypeVar("S")
Reshuffle = Callable[[Any, int, random.Random], Any]
Invariants = Callable[[Any], None]
Pick = Callable[[list[Message], random.Random, Any], Message]

_ENVELOPE = {"game", "viewer", "stage", "to_act", "finished", "board", "players", "private"}


def budget(default: int) -> int:
    """``default`` games, times ``BW_PROPERTY_SCALE`` (a positive number, default 1)."""
    scale = float(os.environ.get("BW_PROPERTY_SCALE", "1"))
    return max(1, round(default * scale))


def _key(message: Message) -> bytes:
    return message_bytes(message)


def _readable(messages: Iterable[Message]) -> str:
    return "\n".join(json.dumps(to_json(m), sort_keys=True) for m in messages) or "(none)"


# -- scenarios --------------------------------------------------------------------------------


class Scenario(Generic[S]):
    """A position built by folding ``events`` (see the module docstring)."""

    def __init__(self, engine: Engine[S, Any, Any], events: Sequence[Message]) -> None:
        self.engine = engine
        self.events = list(events)
        self.state: S = fold(engine, self.events)

    def when(self, seat: int, command: Message, rng: Rng | None = None) -> When[S]:
        """Send ``command`` from ``seat`` at this position; ``rng`` (a scripted one) fixes
        the chance outcomes a scenario states ("the square holds a stone")."""
        return When(self, seat, command, rng)

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.engine.view(self.state, seat)


def given(engine: Engine[S, Any, Any], *events: Message | Sequence[Message]) -> Scenario[S]:
    """The position after ``events`` (single events or lists of them, in order)."""
    flat: list[Message] = []
    for item in events:
        if isinstance(item, Message):
            flat.append(item)
        else:
            flat.extend(item)
    return Scenario(engine, flat)


class When(Generic[S]):
    """A command sent at a scenario's position, decided once."""

    def __init__(
        self, scenario: Scenario[S], seat: int, command: Message, rng: Rng | None = None
    ) -> None:
        self.scenario = scenario
        self.seat = seat
        self.command = command
        engine = scenario.engine
        listed = {_key(c) for c in engine.legal_commands(scenario.state, seat)}
        self.listed = _key(command) in listed
        rng = rng or Rng(b"scenario", "scenario", len(scenario.events))
        before = digest(scenario.state)
        self.violation: RuleViolation | None = None
        self.events: list[Message] = []
        try:
            self.events = list(engine.decide(scenario.state, command, seat, rng))
        except RuleViolation as violation:
            self.violation = violation
        if digest(scenario.state) != before:
            raise AssertionError("decide changed the state it was given")
        self.state: S = scenario.state
        for event in self.events:
            self.state = engine.evolve(self.state, event)

    def _accepted(self) -> None:
        if self.violation is not None:
            raise AssertionError(
                f"expected the command to be accepted; refused with {self.violation.code}: "
                f"{self.violation.message}"
            )
        if not self.listed:
            raise AssertionError("the command was accepted but legal_commands does not list it")

    def then(self, *expected: Message) -> When[S]:
        """The command is accepted and produces exactly ``expected``, in order."""
        self._accepted()
        if [_key(e) for e in self.events] != [_key(e) for e in expected]:
            raise AssertionError(
                f"events differ.\nexpected:\n{_readable(expected)}\ngot:\n{_readable(self.events)}"
            )
        return self

    def then_starts_with(self, *expected: Message) -> When[S]:
        """The command is accepted and its events begin with ``expected`` (what follows
        automatically is checked elsewhere)."""
        self._accepted()
        got = self.events[: len(expected)]
        if [_key(e) for e in got] != [_key(e) for e in expected]:
            raise AssertionError(
                f"first events differ.\nexpected:\n{_readable(expected)}\n"
                f"got:\n{_readable(self.events)}"
            )
        return self

    def accepted(self) -> When[S]:
        """The command is accepted (assert on ``events``, ``state`` or ``view`` after)."""
        self._accepted()
        return self

    def refused(self, code: str | codes.Refusal) -> RuleViolation:
        """The command is refused with ``code``, is not listed, and changes nothing."""
        wanted = code.code if isinstance(code, codes.Refusal) else code
        if self.violation is None:
            raise AssertionError(
                f"expected refusal {wanted}; accepted with:\n{_readable(self.events)}"
            )
        if self.violation.code != wanted:
            raise AssertionError(
                f"expected refusal {wanted}; refused with {self.violation.code}: "
                f"{self.violation.message}"
            )
        if not self.violation.message:
            raise AssertionError("a refusal needs a message a player can read")
        if self.listed:
            raise AssertionError("the command was refused but legal_commands lists it")
        return self.violation

    def view(self, seat: int | None) -> dict[str, Any]:
        """The view after the command (of the unchanged position when refused)."""
        return self.scenario.engine.view(self.state, seat)


# -- conformance -----------------------------------------------------------------------------


@dataclass
class ConformanceReport:
    """What a conformance run played, for coverage assertions and printed figures."""

    games: int = 0
    commands: int = 0
    deep_games: int = 0
    command_kinds: Counter[str] = field(default_factory=Counter)
    event_kinds: Counter[str] = field(default_factory=Counter)
    scores: list[tuple[int, ...]] = field(default_factory=list)

    def add(self, other: ConformanceReport) -> None:
        self.games += other.games
        self.commands += other.commands
        self.deep_games += other.deep_games
        self.command_kinds.update(other.command_kinds)
        self.event_kinds.update(other.event_kinds)
        self.scores.extend(other.scores)


def mutated(command: Message, rnd: random.Random) -> Message:
    """A copy of ``command`` with one field of its body changed to a likely-wrong value."""
    changed = type(command)()
    changed.CopyFrom(command)
    oneof = changed.DESCRIPTOR.oneofs[0].name
    kind = changed.WhichOneof(oneof)
    if kind is None:
        return changed
    _mutate(getattr(changed, kind), rnd)
    return changed


_NUMBERS = (-1, 0, 1, 2, 3, 7, 99, 2**31 - 1)
_WORDS = ("", "x", "none", "wheat", "green", "seed", "a" * 70)


def _mutate(message: Message, rnd: random.Random, depth: int = 0) -> None:
    fields: list[Any] = list(message.DESCRIPTOR.fields)
    if not fields:
        return
    chosen = rnd.choice(fields)
    name = chosen.name
    if chosen.is_repeated:
        values = getattr(message, name)
        if chosen.message_type is not None:
            if len(values) and rnd.random() < 0.5:
                del values[rnd.randrange(len(values))]
            else:
                values.add()
        elif len(values) > 1 and rnd.random() < 0.3:
            values.reverse()
        elif len(values) and rnd.random() < 0.5:
            del values[rnd.randrange(len(values))]
        else:
            values.append(_scalar(chosen, rnd))
    elif chosen.message_type is not None:
        if depth < 3 and rnd.random() < 0.8:
            _mutate(getattr(message, name), rnd, depth + 1)
        else:
            message.ClearField(name)
    else:
        setattr(message, name, _scalar(chosen, rnd))


def _scalar(chosen: Any, rnd: random.Random) -> Any:
    if chosen.cpp_type == FieldDescriptor.CPPTYPE_STRING:
        return rnd.choice(_WORDS) if chosen.type != FieldDescriptor.TYPE_BYTES else b"\x00"
    if chosen.cpp_type == FieldDescriptor.CPPTYPE_BOOL:
        return rnd.random() < 0.5
    if chosen.cpp_type == FieldDescriptor.CPPTYPE_ENUM:
        values = [v.number for v in chosen.enum_type.values]
        return rnd.choice([*values, max(values) + 1 if values else 1])
    if chosen.cpp_type in (FieldDescriptor.CPPTYPE_UINT32, FieldDescriptor.CPPTYPE_UINT64):
        return rnd.choice([v for v in _NUMBERS if v >= 0])
    return rnd.choice(_NUMBERS)


def _uniform(legal: list[Message], rnd: random.Random, _state: Any) -> Message:
    return rnd.choice(legal)


def _refused_unchanged(engine: Engine[Any, Any, Any], table: Table, seat: int, command: Any) -> str:
    """``command`` is refused with a RuleViolation and the state is untouched; its code."""
    before = digest(table.state)
    try:
        events = engine.decide(table.state, command, seat, table.rng())
    except RuleViolation as violation:
        if digest(table.state) != before:
            raise AssertionError("a refused command changed the state") from None
        if not violation.message:
            raise AssertionError(f"refusal {violation.code} has no message") from None
        return violation.code
    raise AssertionError(
        f"seat {seat} sent an unlisted command and it was accepted: "
        f"{json.dumps(to_json(command))} -> {_readable(events)}"
    )


def _check_views(
    engine: Engine[Any, Any, Any], state: Any, seats: int, drawn: int | None = None
) -> None:
    """Every viewer's view is JSON in the envelope; the picture of the viewer at index
    ``drawn`` of (spectator, seat 0, seat 1...) is well-formed SVG, or every viewer's when
    ``drawn`` is None. Drawing costs a millisecond or two: during play one viewer a step,
    taking turns, covers them all without multiplying the cost by the seats."""
    together = engine.views(state, seats)
    for index, viewer in enumerate((None, *range(seats))):
        shown = engine.view(state, viewer)
        json.dumps(shown)
        if hasattr(engine, "flow") and set(shown) != _ENVELOPE:
            raise AssertionError(f"view keys {sorted(shown)} are not the common envelope")
        if hasattr(engine, "flow") and shown["board"] != engine.view(state, None)["board"]:
            raise AssertionError(f"the board viewer {viewer} sees is not everyone's")
        shared = not getattr(engine, "players_by_viewer", True)
        if shared and shown["players"] != engine.view(state, None)["players"]:
            raise AssertionError(
                f"players differ for viewer {viewer}: the game must say players_by_viewer=True"
            )
        if together[index] != shown:
            raise AssertionError(f"views() and view() disagree for viewer {viewer}")
        picture = getattr(engine, "picture", None)
        if picture is not None and drawn in (None, index):
            # ElementTree: the same well-formedness check as minidom, 20 times faster on a
            # full board picture (measured: 0.4 ms against 8 ms for Bardwood's).
            ElementTree.fromstring(picture(shown))
    json.dumps(engine.outcome(state).as_dict())


def _check_reshuffled(
    engine: Engine[Any, Any, Any], state: Any, seats: int, reshuffle: Reshuffle, rnd: random.Random
) -> None:
    """Shuffling what a seat may not see changes nothing it sees or may do."""
    for viewer in range(seats):
        other = reshuffle(state, viewer, rnd)
        if engine.view(other, viewer) != engine.view(state, viewer):
            raise AssertionError(f"seat {viewer}'s view depends on what it may not see")
        legal = engine.legal_commands(state, viewer)
        if [_key(c) for c in engine.legal_commands(other, viewer)] != [_key(c) for c in legal]:
            raise AssertionError(f"seat {viewer}'s legal commands depend on what it may not see")
        describe = getattr(engine, "describe_command", None)
        if describe is not None:
            for command in legal:
                if describe(other, command, viewer) != describe(state, command, viewer):
                    raise AssertionError(
                        f"seat {viewer}'s move descriptions depend on what it may not see"
                    )


def _check_redaction(engine: Any, event: Message, seats: int) -> None:
    """Every declared secret a viewer may not see is blank in what it is sent, with the
    lengths of its lists kept."""
    redaction = getattr(engine, "redaction", None)
    if redaction is None:
        return
    kind = event.WhichOneof(redaction.oneof)
    if kind is None:
        return
    body = getattr(event, kind)
    for viewer in (None, *range(seats)):
        shown = engine.redact(event, viewer)
        if not engine.describe_event(shown, viewer):
            raise AssertionError(f"no words for a {kind} event")
        shown_body = getattr(shown, kind)
        for secret in redaction.hidden_from(body, kind, viewer):
            _check_blank(body, shown_body, secret.parts, secret.owner, viewer)


def _check_blank(
    full: Message, shown: Message, parts: tuple[str, ...], owner: str | None, viewer: int | None
) -> None:
    if owner == BY_INDEX:
        for index, (a, b) in enumerate(
            zip(getattr(full, parts[0]), getattr(shown, parts[0]), strict=True)
        ):
            if index != viewer:
                _check_blank(a, b, parts[1:], None, viewer)
        return
    if len(parts) > 1:
        a, b = getattr(full, parts[0]), getattr(shown, parts[0])
        if full.DESCRIPTOR.fields_by_name[parts[0]].is_repeated:
            for x, y in zip(a, b, strict=True):
                _check_blank(x, y, parts[1:], None, viewer)
        else:
            _check_blank(a, b, parts[1:], None, viewer)
        return
    name = parts[0]
    field_: Any = full.DESCRIPTOR.fields_by_name[name]
    if field_.is_repeated:
        values = getattr(shown, name)
        if len(values) != len(getattr(full, name)):
            raise AssertionError(f"redacted {name} lost its length")
        blank = [type(v)() for v in values] if field_.message_type else [zero_of(field_)]
        if any(v not in blank for v in values):
            raise AssertionError(f"redacted {name} still shows a value")
        return
    if field_.message_type is not None:
        still_shown = shown.HasField(name)
    else:
        still_shown = getattr(shown, name) != field_.default_value
    if still_shown:
        raise AssertionError(f"redacted {name} still shows a value")


def play_random_game(
    engine: Engine[Any, Any, Any],
    seats: int,
    seed: int,
    *,
    options: dict[str, Any] | None = None,
    deep: bool = False,
    reshuffle: Reshuffle | None = None,
    invariants: Invariants | None = None,
    pick: Pick = _uniform,
    max_commands: int = 20_000,
) -> tuple[Table, ConformanceReport]:
    """Play one seeded random game, checking every step (module docstring)."""
    rnd = random.Random(seed)
    config = TableConfig(
        f"conformance-{engine.info.game}-{seats}-{seed}",
        seats,
        resolve_options(engine.info.options, options or {}),
    )
    table = Table.create(engine, config, seed.to_bytes(8, "big"))
    report = ConformanceReport(games=1, deep_games=int(deep))
    pool: list[Message] = [engine.command_type()]
    for event in table.events:
        report.event_kinds[event.WhichOneof(event.DESCRIPTOR.oneofs[0].name) or ""] += 1
        if deep:
            _check_redaction(engine, event, seats)
    for _ in range(max_commands):
        outcome = engine.outcome(table.state)
        if engine.finished(table.state) != outcome.finished:
            raise AssertionError("finished() and outcome().finished disagree")
        if outcome.finished:
            break
        if not outcome.to_act:
            raise AssertionError(f"nobody may act at stage {outcome.phase!r}")
        if invariants is not None:
            invariants(table.state)
        seat = rnd.choice(outcome.to_act)
        legal = engine.legal_commands(table.state, seat)
        if not legal:
            raise AssertionError(f"seat {seat} is to act at {outcome.phase!r} with no command")
        if deep:
            _deep_step(engine, table, seat, legal, pool, rnd, reshuffle)
            pool = pool[:1] + (pool[1:] + legal[:3])[-40:]
        command = pick(legal, rnd, table.state)
        events = table.execute(seat, command)
        report.commands += 1
        report.command_kinds[command.WhichOneof(command.DESCRIPTOR.oneofs[0].name) or ""] += 1
        for event in events:
            report.event_kinds[event.WhichOneof(event.DESCRIPTOR.oneofs[0].name) or ""] += 1
            if deep:
                _check_redaction(engine, event, seats)
    else:
        raise AssertionError(f"the game did not end within {max_commands} commands")
    if invariants is not None:
        invariants(table.state)
    _check_finished(engine, table, deep)
    report.scores.append(tuple(engine.outcome(table.state).scores))
    return table, report


def _deep_step(
    engine: Engine[Any, Any, Any],
    table: Table,
    seat: int,
    legal: list[Message],
    pool: list[Message],
    rnd: random.Random,
    reshuffle: Reshuffle | None,
) -> None:
    """Everything listed is accepted; everything else is refused and changes nothing."""
    state, seats = table.state, table.config.seats
    before = digest(state)
    for command in legal:
        try:
            engine.decide(state, command, seat, table.rng())
        except RuleViolation as violation:
            raise AssertionError(
                f"listed command {json.dumps(to_json(command))} refused: {violation}"
            ) from None
    if digest(state) != before:
        raise AssertionError("deciding a listed command changed the state")
    allowed = {_key(c) for c in legal}
    tries = rnd.sample(pool, min(6, len(pool))) + [
        mutated(rnd.choice(legal), rnd) for _ in range(4)
    ]
    for command in tries:
        if _key(command) not in allowed:
            _refused_unchanged(engine, table, seat, command)
    code = _refused_unchanged(engine, table, seat, engine.command_type())
    if code not in (codes.COMMAND_EMPTY.code,):
        raise AssertionError(f"an empty command was refused with {code}, not command.empty")
    to_act = engine.outcome(state).to_act
    for other in (s for s in range(seats) if s not in to_act):
        code = _refused_unchanged(engine, table, other, legal[0])
        if code != codes.TURN_NOT_YOURS.code:
            raise AssertionError(f"a seat not to act was refused with {code}, not turn.not_yours")
        if engine.legal_commands(state, other):
            raise AssertionError(f"seat {other} is not to act but has legal commands")
    _check_views(engine, state, seats, drawn=len(table.events) % (seats + 1))
    _check_words(engine, state, seat, legal)
    if reshuffle is not None:
        _check_reshuffled(engine, state, seats, reshuffle, rnd)


def _check_words(engine: Any, state: Any, seat: int, legal: list[Message]) -> None:
    """Every legal command has a menu group and a sentence."""
    describe = getattr(engine, "describe_command", None)
    if describe is None:
        return
    for command in legal:
        words = describe(state, command, seat)
        if not words.group or not words.text:
            raise AssertionError(f"no words for {json.dumps(to_json(command))}")


def _check_finished(engine: Engine[Any, Any, Any], table: Table, deep: bool) -> None:
    state, seats = table.state, table.config.seats
    outcome = engine.outcome(state)
    if not outcome.finished or len(outcome.scores) != seats:
        raise AssertionError("a finished game needs a score for every seat")
    if digest(fold(engine, table.events)) != table.digest():
        raise AssertionError("folding the events does not give the same state (replay)")
    for seat in range(seats):
        if engine.legal_commands(state, seat):
            raise AssertionError("a finished game still lists commands")
    if table.commands:
        code = _refused_unchanged(engine, table, 0, table.commands[0].command)
        if code != codes.GAME_OVER.code:
            raise AssertionError(f"a command after the end was refused with {code}, not game.over")
    _check_views(engine, state, seats)
    if deep:
        again = reexecute(
            engine, table.config, table.seed, [(r.seat, r.command) for r in table.commands]
        )
        if again != [message_bytes(e) for e in table.events]:
            raise AssertionError("re-executing the commands does not give the same events")


def conformance(
    engine: Engine[Any, Any, Any],
    seats: int,
    seeds: Iterable[int],
    *,
    options: Sequence[dict[str, Any]] = ({},),
    deep_every: int = 5,
    reshuffle: Reshuffle | None = None,
    invariants: Invariants | None = None,
    pick: Pick = _uniform,
    max_commands: int = 20_000,
) -> ConformanceReport:
    """Play one random game per seed at ``seats`` (module docstring); every
    ``deep_every``-th seed gets the deep checks. Options cycle through ``options``."""
    report = ConformanceReport()
    for index, seed in enumerate(seeds):
        _, played = play_random_game(
            engine,
            seats,
            seed,
            options=options[index % len(options)],
            deep=index % deep_every == 0,
            reshuffle=reshuffle,
            invariants=invariants,
            pick=pick,
            max_commands=max_commands,
        )
        report.add(played)
    return report
