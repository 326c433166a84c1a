"""Table control: resignations, turn clocks and bots in seats, the same for every game.

None of this is a rule of any game, and no game's code takes part in it. The engine host
decides a control command (``proto/common.proto``: ``Resign``, ``TimeOut``, ``PlayBot``)
with the functions here, and records what happened as public control events in the log
(``TurnTimedOut``, ``SeatResigned``, ``TableFinished``), beside the game's own events. The
game's state never sees them; the table's :class:`Control` state, folded from the same log
next to it, does.

What a seat that leaves (resigns, or forfeits on time) means, for every game:

- when fewer than two seats would be left in the game, the table ends: ``resigned`` or
  ``forfeited`` by that seat, and the seats still in the game win (a solo table just ends);
- else, when only bots would be left, the table ends ``abandoned``, and nobody wins;
- else the game goes on and the table's bot plays the seat from now on; a seat that left
  never counts among the winners.

Bots play, through the scheduler, every seat whose bot is named in ``TableMeta.seat_bots``,
every seat that left a game that goes on, and each turn that timed out with
``on_timeout: "bot"``. A bot's choice is deterministic given the table's secret seed
(:func:`bot_seed`), and it is stored as the seat's ordinary command, so re-execution
checks it like any other.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engines.core import clock as clocks_
from engines.core.clock import ClockRules, Clocks
from engines.core.codes import GAME_OVER, Refusal
from engines.core.errors import RuleViolation
from proto import common_pb2

__all__ = [
    "CLOCK_STALE",
    "CONTROL_PREFIX",
    "SEAT_LEFT",
    "Control",
    "Due",
    "End",
    "TableRules",
    "as_plain",
    "bot_for",
    "bot_seed",
    "describe",
    "due",
    "fold_table",
    "plays_bot",
    "refuse_command",
    "resign",
    "table_outcome",
    "table_to_act",
    "time_out",
]

# Command ids of control commands start with this; a client's command may not.
CONTROL_PREFIX = "bw:"
# The bot that takes over a seat when the table names none for it: this one if the game
# has it, else the first by name.
DEFAULT_BOT = "greedy"

CLOCK_STALE = Refusal(
    "clock.stale", "The table has moved on since then: nothing timed out and no bot plays."
)
SEAT_LEFT = Refusal("seat.left", "You have left this game; a bot plays your seat now.")


@dataclass(frozen=True, slots=True)
class TableRules:
    """What a table's control needs of its meta."""

    seats: int
    seat_bots: tuple[str, ...] = ()
    clock: ClockRules | None = None

    @classmethod
    def of(cls, meta: common_pb2.TableMeta) -> TableRules:
        return cls(
            seats=meta.seats,
            seat_bots=tuple(meta.seat_bots),
            clock=ClockRules.of(meta.clock) if meta.HasField("clock") else None,
        )

    @property
    def schedules(self) -> bool:
        """The table may wait for the scheduler: it has a clock or a bot seat (else only
        once a seat has left)."""
        return self.clock is not None or any(self.seat_bots)

    def bot_seat(self, seat: int) -> bool:
        return seat < len(self.seat_bots) and bool(self.seat_bots[seat])


@dataclass(frozen=True, slots=True)
class End:
    """Why a table ended before its game did."""

    reason: str  # "resigned", "forfeited", "abandoned"
    seat: int


@dataclass(frozen=True, slots=True)
class Control:
    """The table beside its game: clocks, seats that left, turns a bot plays, an early end."""

    clocks: Clocks
    left: tuple[int, ...] = ()
    bot_turns: tuple[int, ...] = ()
    end: End | None = None

    @classmethod
    def start(cls, seats: int) -> Control:
        return cls(clocks=clocks_.start(seats))


@dataclass(frozen=True, slots=True)
class Due:
    """A control command the scheduler sends at ``at_ms``: ``PlayBot`` for ``seat`` at
    ``version``, or ``TimeOut`` with the ``deadline_ms`` it enforces."""

    at_ms: int
    seat: int
    version: int
    kind: str  # "play_bot" or "time_out"

    @property
    def command_id(self) -> str:
        """The same for every scheduler replica: the engine keeps one outcome of it."""
        return f"{CONTROL_PREFIX}{self.kind}:{self.version}"

    def command(self) -> common_pb2.TableControl:
        if self.kind == "time_out":
            return common_pb2.TableControl(
                time_out=common_pb2.TimeOut(version=self.version, deadline_ms=self.at_ms)
            )
        return common_pb2.TableControl(play_bot=common_pb2.PlayBot(version=self.version))


# -- folding ------------------------------------------------------------------------------


def fold_table(
    engine: Any,
    rules: TableRules,
    state: Any,
    control: Control,
    stored: Sequence[common_pb2.StoredEvent],
    decided: Any = None,
) -> tuple[Any, Control]:
    """The game's state and the table's control after ``stored``: game events go to the
    game's ``evolve``, control events to the control; the clocks tick at every event
    (only on a table with a clock: it asks the game who is to act around each one).

    ``decided``: the game's state after ``stored``'s game events when it is known (the
    state ``Engine.decided`` returned with them), so they are not folded again; a table
    with a clock folds them anyway, for the state around each one."""
    clocked = rules.clock is not None
    folds = decided is None or clocked
    before = table_to_act(engine, state, control) if clocked else ()
    for event in stored:
        body = event.WhichOneof("body")
        if body == "payload":
            if folds:
                state = engine.evolve(state, engine.event_type.FromString(event.payload))
            if event.seat in control.bot_turns:
                # The seat's turn was played (by its bot, or by itself in time after all).
                turns = tuple(s for s in control.bot_turns if s != event.seat)
                control = replace(control, bot_turns=turns)
        elif body == "control":
            control = _record(control, event.control)
        if clocked:
            after = table_to_act(engine, state, control)
            ticked = clocks_.tick(control.clocks, event.time_ms, event.seat, before, after)
            control, before = replace(control, clocks=ticked), after
    return (state if folds else decided), control


def table_to_act(engine: Any, state: Any, control: Control) -> tuple[int, ...]:
    """The seats to act at the table: the game's, unless the table is over."""
    outcome = engine.outcome(state)
    if control.end is not None or outcome.finished:
        return ()
    return tuple(outcome.to_act)


def _record(control: Control, event: common_pb2.TableControlEvent) -> Control:
    kind = event.WhichOneof("kind")
    if kind == "turn_timed_out":
        timed = event.turn_timed_out
        if timed.then == "bot":
            return replace(control, bot_turns=(*control.bot_turns, timed.seat))
        return replace(control, left=(*control.left, timed.seat))
    if kind == "seat_resigned":
        return replace(control, left=(*control.left, event.seat_resigned.seat))
    if kind == "table_finished":
        ended = event.table_finished
        return replace(control, end=End(ended.reason, ended.seat))
    return control


# -- deciding -----------------------------------------------------------------------------


def refuse_command(control: Control, seat: int) -> RuleViolation | None:
    """Why a seat's own game command is refused by the table (not by the rules)."""
    if control.end is not None:
        return GAME_OVER()
    if seat in control.left:
        return SEAT_LEFT()
    return None


def resign(
    rules: TableRules, control: Control, seat: int, finished: bool
) -> list[common_pb2.TableControlEvent]:
    """``seat`` leaves the game (see the module docstring)."""
    if finished or control.end is not None:
        raise GAME_OVER()
    if seat in control.left:
        raise SEAT_LEFT()
    ending = _ending(rules, control, seat, "resigned")
    then = "bot" if ending is None else "end"
    resigned = common_pb2.TableControlEvent(
        seat_resigned=common_pb2.SeatResigned(seat=seat, then=then)
    )
    return [resigned] if ending is None else [resigned, ending]


def time_out(
    rules: TableRules,
    control: Control,
    seat: int,
    to_act: Sequence[int],
    deadline_ms: int,
) -> list[common_pb2.TableControlEvent]:
    """``seat``'s time ran out at ``deadline_ms``, if the log still says so (else
    ``clock.stale``: it moved in time). The caller checks the table's version and that
    the deadline has passed."""
    if rules.clock is None or seat not in to_act or plays_bot(rules, control, seat):
        raise CLOCK_STALE()
    if clocks_.deadline(rules.clock, control.clocks, seat) != deadline_ms:
        raise CLOCK_STALE()
    then = "bot" if rules.clock.on_timeout == "bot" else "forfeit"
    timed = common_pb2.TableControlEvent(
        turn_timed_out=common_pb2.TurnTimedOut(seat=seat, deadline_ms=deadline_ms, then=then)
    )
    if then == "bot":
        return [timed]
    ending = _ending(rules, control, seat, "forfeited")
    return [timed] if ending is None else [timed, ending]


def _ending(
    rules: TableRules, control: Control, seat: int, reason: str
) -> common_pb2.TableControlEvent | None:
    """The table's end if ``seat`` leaving ends it; ``None`` when a bot takes it over."""
    staying = [s for s in range(rules.seats) if s != seat and s not in control.left]
    if len(staying) < 2:
        finished = common_pb2.TableFinished(reason=reason, seat=seat)
    elif all(rules.bot_seat(s) for s in staying):
        finished = common_pb2.TableFinished(reason="abandoned", seat=seat)
    else:
        return None
    return common_pb2.TableControlEvent(table_finished=finished)


def plays_bot(rules: TableRules, control: Control, seat: int) -> bool:
    """A bot plays ``seat``'s turn now."""
    return rules.bot_seat(seat) or seat in control.left or seat in control.bot_turns


def bot_for(rules: TableRules, seat: int, bots: Mapping[str, Any]) -> str:
    """The name of the bot that plays ``seat``: the table's for a bot seat, else the
    default one."""
    if rules.bot_seat(seat):
        return rules.seat_bots[seat]
    return DEFAULT_BOT if DEFAULT_BOT in bots else sorted(bots)[0]


def bot_seed(seed: bytes, table_id: str, version: int, seat: int) -> int:
    """The seed of the bot that chooses ``seat``'s command at ``version``: from the table's
    secret seed, so a bot's choices are fixed by the table and unknown before the end."""
    digest = hmac.new(seed, f"bot:{table_id}:{version}:{seat}".encode(), hashlib.sha256)
    # 63 bits: every game's bots take it, some as a signed 64-bit number.
    return int.from_bytes(digest.digest()[:8], "big") >> 1


# -- planning -----------------------------------------------------------------------------


def due(
    rules: TableRules, control: Control, to_act: Sequence[int], version: int, now_ms: int
) -> list[Due]:
    """What the scheduler must send for the table at ``version``: a bot's turn at once
    (``now_ms``: the time of the table's last event) for each seat a bot plays, and each
    other seat's timeout at its deadline."""
    planned = []
    for seat in to_act:
        if plays_bot(rules, control, seat):
            planned.append(Due(now_ms, seat, version, "play_bot"))
        elif rules.clock is not None:
            at = clocks_.deadline(rules.clock, control.clocks, seat)
            if at is not None:
                planned.append(Due(at, seat, version, "time_out"))
    return planned


# -- reading ------------------------------------------------------------------------------


def table_outcome(
    rules: TableRules, control: Control, outcome: Mapping[str, Any]
) -> dict[str, Any]:
    """The game's outcome (``Outcome.as_dict``) as the table stands: finished early, who
    won of the seats still in the game, why it ended, who left, the clocks."""
    table = dict(outcome)
    left = list(control.left)
    if control.end is not None:
        staying = [s for s in range(rules.seats) if s not in control.left]
        table.update(
            finished=True,
            to_act=[],
            winners=[] if control.end.reason == "abandoned" else staying,
            end={"reason": control.end.reason, "seat": control.end.seat},
        )
    elif table.get("finished"):
        table.update(
            winners=[s for s in table.get("winners", []) if s not in control.left],
            end={"reason": "finished", "seat": None},
        )
    else:
        table["end"] = None
    table["left"] = left
    table["bots"] = [s for s in range(rules.seats) if rules.bot_seat(s) or s in control.left]
    if rules.clock is not None:
        to_act = table.get("to_act", [])
        table["clock"] = {
            "turn_seconds": rules.clock.turn_ms // 1000,
            "total_seconds": rules.clock.total_ms // 1000,
            "on_timeout": rules.clock.on_timeout,
            "spent_ms": list(control.clocks.spent),
            "deadlines": {
                str(s): clocks_.deadline(rules.clock, control.clocks, s)
                for s in to_act
                if not plays_bot(rules, control, s)
            },
        }
    return table


def as_plain(event: common_pb2.TableControlEvent) -> dict[str, Any]:
    """A control event as JSON data for clients: its kind and every field, numbers as
    numbers (``{"turn_timed_out": {"seat": 0, "deadline_ms": 1764…, "then": "bot"}}``)."""
    kind = event.WhichOneof("kind")
    if kind is None:
        return {}
    body = getattr(event, kind)
    return {kind: {field.name: getattr(body, field.name) for field in body.DESCRIPTOR.fields}}


def describe(event: common_pb2.TableControlEvent) -> str:
    """A control event in one line of words."""
    kind = event.WhichOneof("kind")
    if kind == "turn_timed_out":
        timed = event.turn_timed_out
        then = "a bot plays the turn" if timed.then == "bot" else "the seat forfeits"
        return f"Seat {timed.seat}'s time ran out: {then}"
    if kind == "seat_resigned":
        resigned = event.seat_resigned
        then = "a bot plays it from now" if resigned.then == "bot" else "the game ends"
        return f"Seat {resigned.seat} resigns: {then}"
    if kind == "table_finished":
        ended = event.table_finished
        why = {
            "resigned": f"seat {ended.seat} resigned",
            "forfeited": f"seat {ended.seat} forfeited on time",
            "abandoned": "nobody is left to play",
        }.get(ended.reason, ended.reason)
        return f"The table ends: {why}"
    return "A table event"
