"""What the event store answers with, and the ways an append can be refused."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from engines.core.canonical import message_bytes
from engines.core.hashchain import GENESIS
from proto import common_pb2
from services.eventstore.keys import command_field

__all__ = [
    "Appended",
    "CommandAlreadyDecided",
    "CommandApplied",
    "CommandIdReused",
    "CommandKey",
    "CommandRejected",
    "Head",
    "Lookup",
    "NotDurable",
    "TableExists",
    "TableNotFound",
    "VersionConflict",
]


@dataclass(frozen=True, slots=True)
class Head:
    """The last version of a table's log and that event's hash (GENESIS at version 0)."""

    version: int
    hash: bytes

    @classmethod
    def empty(cls) -> Head:
        return cls(0, GENESIS)


@dataclass(frozen=True, slots=True)
class CommandKey:
    """A command id as idempotency sees it: whose it is, and what it was used for.

    Ids are scoped to the seat that sent them, so no seat can pre-empt or reuse another's.
    ``fingerprint`` is SHA-256 over the command's ``expected_version`` and payload bytes:
    the same id sent again for the same command gets its first outcome; sent for another
    command it is refused (:class:`CommandIdReused`).
    """

    seat: int
    command_id: str
    fingerprint: bytes

    @classmethod
    def of(cls, envelope: common_pb2.CommandEnvelope) -> CommandKey:
        expected = str(envelope.expected_version) if envelope.HasField("expected_version") else "-"
        body = envelope.payload
        if envelope.HasField("control"):
            body = b"control:" + message_bytes(envelope.control)
        fingerprint = hashlib.sha256(b"command:" + expected.encode() + b":" + body).digest()
        return cls(envelope.seat, envelope.command_id, fingerprint)

    @property
    def field(self) -> str:
        return command_field(self.seat, self.command_id)


@dataclass(frozen=True, slots=True)
class Appended:
    """Events one command (or table creation) added, versions ``first..last`` inclusive.

    ``duplicate`` is true when the command id had already been applied: the events are
    those of that first application and nothing was written this time.
    """

    first_version: int
    last_version: int
    events: tuple[common_pb2.StoredEvent, ...]
    duplicate: bool

    @property
    def head(self) -> Head:
        """The head right after these events (GENESIS for a table created without any)."""
        return Head(self.last_version, self.events[-1].hash if self.events else GENESIS)


@dataclass(frozen=True, slots=True)
class Lookup:
    """What the command path reads before deciding, in one round trip: the table's head
    (``None``: no such table), its game, and the command's first outcome, if any."""

    head: Head | None
    game: str
    prior: Appended | common_pb2.Rejection | None


class TableNotFound(LookupError):
    """No table has this id."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"no table {table_id!r}")
        self.table_id = table_id


class TableExists(Exception):
    """A table with this id was created before."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id!r} already exists")
        self.table_id = table_id


class VersionConflict(Exception):
    """The writer's expected head is stale; ``head`` is the table's actual one."""

    def __init__(self, table_id: str, expected: Head, head: Head) -> None:
        super().__init__(f"table {table_id!r} is at version {head.version}, not {expected.version}")
        self.table_id = table_id
        self.expected = expected
        self.head = head


class CommandAlreadyDecided(Exception):
    """The command id already has an outcome of the other kind; ``outcome`` is that one."""

    outcome: Appended | common_pb2.Rejection


class CommandRejected(CommandAlreadyDecided):
    """``append`` found the command id already rejected: that rejection stands."""

    def __init__(self, command_id: str, rejection: common_pb2.Rejection) -> None:
        super().__init__(f"command {command_id!r} was rejected before: {rejection.code}")
        self.command_id = command_id
        self.rejection = rejection
        self.outcome = rejection


class CommandApplied(CommandAlreadyDecided):
    """``record_rejection`` found the command id already applied: those events stand."""

    def __init__(self, command_id: str, appended: Appended) -> None:
        super().__init__(f"command {command_id!r} was applied before")
        self.command_id = command_id
        self.appended = appended
        self.outcome = appended


class CommandIdReused(Exception):
    """The seat used this command id before for a different command."""

    def __init__(self, command_id: str) -> None:
        super().__init__(f"command id {command_id!r} was used before for a different command")
        self.command_id = command_id


class NotDurable(Exception):
    """The write may be applied but was not confirmed durable in time (see
    :mod:`services.eventstore.durability`): it is not acknowledged.

    Retrying the same command id is safe: it returns the stored outcome.
    """

    def __init__(self, table_id: str, timeout_ms: int, detail: str = "") -> None:
        why = f": {detail}" if detail else ""
        super().__init__(
            f"table {table_id!r}: durability not confirmed within {timeout_ms} ms{why}"
        )
        self.table_id = table_id
        self.timeout_ms = timeout_ms
