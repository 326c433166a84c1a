"""What each reader may see of a stored event, in the one place that decides it.

:func:`disclose` runs when an event is written: it records the spectator's form of the
event and the salted commitments (see :mod:`engines.core.hashchain`), so the hash that
every reader gets covers nothing hidden. :func:`render` runs when an event is read: it
gives one viewer (a seat, or ``None`` for a spectator) the event as the game's ``redact``
lets it see it, with everything the hash covers, its one line of words (the game's
``describe_event`` of what the viewer sees), and a seat its own salt and redaction so it
can open its own commitment. The engine service's reads and command replies both go
through :func:`render`; nothing else redacts stored events.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from google.protobuf.message import Message

from engines.core.canonical import canonical_json, message_bytes
from engines.core.contract import Engine
from engines.core.control import describe as describe_control
from engines.core.hashchain import EVERYONE, Salts, commit
from engines.core.messages import to_json
from proto import common_pb2

__all__ = [
    "SEED_REVEALED_TEXT",
    "control_batch",
    "disclose",
    "render",
    "seed_event",
    "seen_by",
    "stored_batch",
]

SEED_REVEALED_TEXT = (
    "The game is over: its seed is revealed, so every shuffle and roll can be checked"
)


def seen_by(engine: Engine[Any, Any, Any], event: Message, viewer: int | None) -> bytes | None:
    """The bytes of ``event`` as ``viewer`` may see it; ``None`` when it sees nothing."""
    shown = engine.redact(event, viewer)
    return None if shown is None else message_bytes(shown)


def disclose(
    engine: Engine[Any, Any, Any],
    stored: common_pb2.StoredEvent,
    seats: int,
    salts: Salts,
    event: Message | None = None,
) -> common_pb2.StoredEvent:
    """A copy of ``stored`` (numbered, with its payload and command) carrying its public
    form and commitments; ``event`` is the decoded payload when the caller has it."""
    disclosed = common_pb2.StoredEvent()
    disclosed.CopyFrom(stored)
    for name in ("public_payload", "seat_commitments", "commitment"):
        disclosed.ClearField(name)
    _disclose_into(engine, disclosed, seats, salts, event)
    return disclosed


def _disclose_into(
    engine: Engine[Any, Any, Any],
    draft: common_pb2.StoredEvent,
    seats: int,
    salts: Salts,
    event: Message | None,
) -> None:
    """Give ``draft`` (with no disclosure yet) its public form and commitments, in place."""
    if draft.WhichOneof("body") != "payload":
        return
    if event is None:
        event = engine.event_type.FromString(draft.payload)
    public = seen_by(engine, event, None)
    if public is not None:
        draft.public_payload = public
    version = draft.version
    for seat in range(seats):
        own = seen_by(engine, event, seat)
        parts = () if own is None else (own,)
        draft.seat_commitments.append(commit(salts.of(version, seat), *parts))
    draft.commitment = commit(salts.of(version, EVERYONE), draft.payload, draft.command)


def stored_batch(
    engine: Engine[Any, Any, Any],
    salts: Salts,
    seats: int,
    *,
    after: int,
    command_id: str,
    seat: int,
    time_ms: int,
    events: Sequence[Message],
    command: Message | None = None,
    reveal: bool = False,
) -> list[common_pb2.StoredEvent]:
    """One command's events (or the set-up's) as the store keeps them, not yet chained:
    numbered from ``after + 1``, the command on the first, each disclosed; with
    ``reveal`` (the game ended with them) the revealed seed comes last."""
    batch = []
    for version, event in enumerate(events, start=after + 1):
        draft = common_pb2.StoredEvent(
            version=version,
            command_id=command_id,
            seat=seat,
            time_ms=time_ms,
            payload=message_bytes(event),
        )
        if command is not None and version == after + 1:
            draft.command = message_bytes(command)
        # The draft is this function's own: disclosed in place, not copied.
        _disclose_into(engine, draft, seats, salts, event)
        batch.append(draft)
    if reveal:
        batch.append(seed_event(salts, after + len(batch) + 1, command_id, time_ms))
    return batch


def seed_event(salts: Salts, version: int, command_id: str, time_ms: int) -> common_pb2.StoredEvent:
    """The system event that reveals the table's seed: the last of its log."""
    return common_pb2.StoredEvent(
        version=version,
        command_id=command_id,
        seat=-1,
        time_ms=time_ms,
        seed_revealed=common_pb2.SeedRevealed(seed=salts.seed),
    )


def control_batch(
    *,
    after: int,
    command_id: str,
    seat: int,
    time_ms: int,
    events: Sequence[common_pb2.TableControlEvent],
) -> list[common_pb2.StoredEvent]:
    """Table-control events as the store keeps them, not yet chained: public as they are,
    so they carry no commitments (like the revealed seed)."""
    return [
        common_pb2.StoredEvent(
            version=version, command_id=command_id, seat=seat, time_ms=time_ms, control=event
        )
        for version, event in enumerate(events, start=after + 1)
    ]


def render(
    engine: Engine[Any, Any, Any],
    stored: common_pb2.StoredEvent,
    viewer: int | None,
    salts: Salts,
    event: Message | None = None,
) -> common_pb2.RedactedEvent:
    """``stored`` as ``viewer`` may see it; a seat also gets its salt of the event.
    ``event`` is the decoded payload when the caller has it (a seat's view only)."""
    shown = common_pb2.RedactedEvent(
        version=stored.version,
        command_id=stored.command_id,
        seat=stored.seat,
        time_ms=stored.time_ms,
        hash=stored.hash,
        prev_hash=stored.prev_hash,
        seat_commitments=list(stored.seat_commitments),
        commitment=stored.commitment,
    )
    if stored.HasField("public_payload"):
        shown.public_payload = stored.public_payload
    body = stored.WhichOneof("body")
    if body == "seed_revealed":
        shown.seed_revealed.CopyFrom(stored.seed_revealed)
        shown.text = SEED_REVEALED_TEXT
        return shown
    if body == "control":
        shown.control.CopyFrom(stored.control)
        shown.text = describe_control(stored.control)
        return shown
    if body != "payload":
        return shown
    if viewer is None:
        # The spectator's form is the one the chain covers, as it was written.
        if stored.HasField("public_payload"):
            public = engine.event_type.FromString(stored.public_payload)
            shown.event_json = canonical_json(to_json(public))
            shown.text = engine.describe_event(public, None)
        return shown
    if event is None:
        event = engine.event_type.FromString(stored.payload)
    visible = engine.redact(event, viewer)
    if visible is not None:
        shown.event_json = canonical_json(to_json(visible))
        shown.seat_payload = message_bytes(visible)
        shown.text = engine.describe_event(visible, viewer)
    shown.salt = salts.of(stored.version, viewer)
    return shown
