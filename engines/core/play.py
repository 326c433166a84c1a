"""Playing a game without any service: fold events, run commands, replay, re-execute.

This is the same loop the engine service runs, without Redis: a command applied when
the log holds ``v`` events gets ``Rng(seed, table_id, v)``; set-up gets version 0.
Property tests, bots and benchmarks use it; the service's audit re-executes logs the
same way, so a log that passes here passes there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from google.protobuf.message import Message

from engines.core.canonical import digest, message_bytes
from engines.core.contract import Engine, TableConfig
from engines.core.rng import Rng

__all__ = ["CommandRecord", "Table", "fold", "reexecute"]


@dataclass(frozen=True, slots=True)
class CommandRecord:
    """One accepted command: who sent it, at which version, and what it produced."""

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


@dataclass
class Table:
    """An in-memory table: the log, the state and the commands that made it."""

    engine: Engine[Any, Any, Any]
    config: TableConfig
    seed: bytes
    events: list[Message] = field(default_factory=list)
    commands: list[CommandRecord] = field(default_factory=list)
    state: Any = None

    @classmethod
    def create(cls, engine: Engine[Any, Any, Any], config: TableConfig, seed: bytes) -> Table:
        table = cls(engine, config, seed)
        table.state = engine.initial_state()
        table._record(engine.setup(config, table.rng()))
        return table

    @property
    def version(self) -> int:
        return len(self.events)

    def rng(self) -> Rng:
        return Rng(self.seed, self.config.table_id, self.version)

    def execute(self, seat: int, command: Message) -> list[Message]:
        """Decide and apply; raises ``RuleViolation`` and then changes nothing."""
        version = self.version
        events = self.engine.decide(self.state, command, seat, self.rng())
        self._record(events)
        self.commands.append(CommandRecord(seat, version, command, tuple(events)))
        return events

    def _record(self, events: Sequence[Message]) -> None:
        for event in events:
            self.state = self.engine.evolve(self.state, event)
            self.events.append(event)

    def digest(self) -> str:
        return digest(self.state)

    def play(
        self,
        choose: Callable[[Table, int], Message],
        max_commands: int = 100_000,
    ) -> None:
        """Let ``choose(table, seat)`` pick commands for the seats to act until the end."""
        for _ in range(max_commands):
            outcome = self.engine.outcome(self.state)
            if outcome.finished:
                return
            if not outcome.to_act:
                raise RuntimeError(f"nobody may act in phase {outcome.phase!r}")
            seat = outcome.to_act[0]
            self.execute(seat, choose(self, seat))
        raise RuntimeError(f"game did not end within {max_commands} commands")


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
