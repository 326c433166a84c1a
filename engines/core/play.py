"""Playing a game without any service: fold events, run commands, replay, re-execute.

This is the same loop the engine service runs, without Redis: a command applied when
the log holds ``v`` events gets ``Rng(seed, table_id, v)``; set-up gets version 0. A
command's state is the one ``decided`` returns with its events (they are not folded
again); replay folds the events from the start.
Property tests, bots and benchmarks use it; the service's audit re-executes logs the
same way, so a log that passes here passes there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from google.protobuf.message import Message

from engines.core.canonical import digest, message_bytes
from engines.core.contract import Engine, TableConfig
from engines.core.disclosure import stored_batch
from engines.core.game import Game
from engines.core.hashchain import Salts, seal_all
from engines.core.rng import Rng
from proto import common_pb2

__all__ = ["CommandRecord", "Table", "fold", "fold_stored", "reexecute"]


class CommandRecord(NamedTuple):
    """One accepted command: who sent it, at which version, and what it produced (a
    named tuple: one is made for every command played, and a frozen dataclass's
    ``__init__`` costs several times more)."""

    seat: int
    version: int
    command: Message
    events: tuple[Message, ...]


def fold(engine: Engine[Any, Any, Any], events: Sequence[Message]) -> Any:
    """The state after ``events``, from the initial state (replay)."""
    state = engine.initial_state()
    for event in events:
        state = engine.evolve(state, event)
    return state


def fold_stored(
    engine: Engine[Any, Any, Any], state: Any, stored: Sequence[common_pb2.StoredEvent]
) -> Any:
    """Fold stored events into ``state``; the revealed seed is not a game event."""
    for event in stored:
        if event.WhichOneof("body") == "payload":
            state = engine.evolve(state, engine.event_type.FromString(event.payload))
    return state


@dataclass
class Table:
    """An in-memory table: the log, the state and the commands that made it."""

    engine: Engine[Any, Any, Any]
    config: TableConfig
    seed: bytes
    events: list[Message] = field(default_factory=list)
    commands: list[CommandRecord] = field(default_factory=list)
    state: Any = None
    # How many events the log holds, kept by the two methods that extend it: read for
    # every command played (its Rng, its record).
    version: int = field(default=0, init=False)

    @classmethod
    def create(cls, engine: Engine[Any, Any, Any], config: TableConfig, seed: bytes) -> Table:
        table = cls(engine, config, seed)
        table.state = engine.initial_state()
        table._record(engine.setup(config, table.rng()))
        return table

    def rng(self) -> Rng:
        return Rng(self.seed, self.config.table_id, self.version)

    def execute(self, seat: int, command: Message) -> list[Message]:
        """Decide and apply; raises ``RuleViolation`` and then changes nothing."""
        version = self.version
        events, self.state = self.engine.decided(self.state, command, seat, self.rng())
        self.events.extend(events)
        self.version = version + len(events)
        self.commands.append(CommandRecord(seat, version, command, tuple(events)))
        return events

    def _record(self, events: Sequence[Message]) -> None:
        evolve, state = self.engine.evolve, self.state
        for event in events:
            state = evolve(state, event)
        self.state = state
        self.events.extend(events)
        self.version += len(events)

    def digest(self) -> str:
        return digest(self.state)

    def stored_log(self) -> list[common_pb2.StoredEvent]:
        """The log the engine service would store for this table, hash-chained: set-up,
        each command's batch (command ids ``c1``, ``c2``, ...; times 0, 1, ...), and the
        revealed seed in the batch that ended the game."""
        engine, salts, seats = (
            self.engine,
            Salts(self.seed, self.config.table_id),
            self.config.seats,
        )
        setup = len(self.events) - sum(len(record.events) for record in self.commands)
        log = stored_batch(
            engine, salts, seats, after=0, command_id="setup", seat=-1, time_ms=0,
            events=self.events[:setup],
        )  # fmt: skip
        finished = engine.finished(self.state)
        for n, record in enumerate(self.commands, start=1):
            log += stored_batch(
                engine, salts, seats, after=len(log), command_id=f"c{n}", seat=record.seat,
                time_ms=n, events=record.events, command=record.command,
                reveal=finished and n == len(self.commands),
            )  # fmt: skip
        return seal_all(log)

    def play(
        self,
        choose: Callable[[Table, int], Message],
        max_commands: int = 100_000,
    ) -> None:
        """Let ``choose(table, seat)`` pick commands for the seats to act until the end."""
        whose_turn = self._whose_turn_asker()
        for _ in range(max_commands):
            stage, to_act = whose_turn(self.state)
            if stage is None:
                return
            if not to_act:
                phase = self.engine.outcome(self.state).phase
                raise RuntimeError(f"nobody may act in phase {phase!r}")
            seat = to_act[0]
            self.execute(seat, choose(self, seat))
        raise RuntimeError(f"game did not end within {max_commands} commands")

    def _whose_turn_asker(self) -> Callable[[Any], tuple[object | None, tuple[int, ...]]]:
        """The stage (``None`` once the game is over) and the seats to act, as a function
        of the state: a kit game's ``flow.now`` itself, which skips the scores an
        ``outcome`` would add up on every command; else from ``outcome``, its phase for
        the stage."""
        engine = self.engine
        if isinstance(engine, Game):
            return engine.flow.now

        def from_outcome(state: Any) -> tuple[object | None, tuple[int, ...]]:
            outcome = engine.outcome(state)
            return None if outcome.finished else outcome.phase, outcome.to_act

        return from_outcome


def reexecute(
    engine: Engine[Any, Any, Any],
    config: TableConfig,
    seed: bytes,
    commands: Sequence[tuple[int, Message]],
) -> list[bytes]:
    """Run set-up and the commands again; the events' wire bytes, for comparison."""
    table = Table.create(engine, config, seed)
    for seat, command in commands:
        table.execute(seat, command)
    return [message_bytes(e) for e in table.events]
