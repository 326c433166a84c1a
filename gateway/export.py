"""The export format of a finished table, and its offline verification.

JSON Lines. The first line is the header::

    {"format": "boardwright-export/2", "table_id", "game", "seats", "options",
     "seed_commitment" (hex), "created_ms", "head_version", "head_hash" (hex)}

then one line per stored event, in version order::

    {"version", "command_id", "seat", "time_ms",
     "payload" (base64 of the game Event) | "seed" (hex, the revealed seed),
     "command" (base64 of the game Command; first event of a command's batch only),
     "public_payload" (base64 of the Event as a spectator saw it; absent when hidden),
     "seat_commitments" ([hex], one per seat), "commitment" (hex),
     "prev_hash" (hex), "hash" (hex),
     "event" / "command_json" (the same messages as protobuf JSON, for people)}

Binary fields are base64 (protobuf bytes) or hex (hashes, commitments and the seed, as
everywhere else in the API). Those fields rebuild each ``StoredEvent`` exactly, so
:func:`verify_export` can run the one audit of ``engines.core.audit`` on them: the hash
chain (which covers the public forms and commitments, never a hidden value), every event
and command decoding as the game's, the public forms, the seed against its commitment,
every commitment opened with the salts the seed gives, and the re-execution of the whole
game; plus a check of this format's own: that the readable JSON says what the bytes say.

Version 1 (``boardwright-export/1``) chained the whole event, hidden fields included; it
is not read any more.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from google.protobuf.message import DecodeError, Message

import engines
from engines.core.audit import Check, TableFacts, audit_log
from engines.core.canonical import message_bytes
from engines.core.clock import ClockRules
from engines.core.contract import Engine
from engines.core.control import as_plain
from engines.core.messages import to_json
from proto import common_pb2

__all__ = [
    "FORMAT",
    "Check",
    "ExportError",
    "Verdict",
    "event_line",
    "export_lines",
    "header_line",
    "parse_export",
    "verify_export",
]

FORMAT = "boardwright-export/2"


class ExportError(ValueError):
    """The file is not a Boardwright export."""


def header_line(meta: common_pb2.TableMeta, head_version: int, head_hash: bytes) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "table_id": meta.table_id,
        "game": meta.game,
        "seats": meta.seats,
        "options": {name: json.loads(value) for name, value in sorted(meta.options.items())},
        "seed_commitment": meta.seed_commitment.hex(),
        "created_ms": meta.created_ms,
        "seat_bots": list(meta.seat_bots),
        "clock": _clock(meta),
        "head_version": head_version,
        "head_hash": head_hash.hex(),
    }


def _clock(meta: common_pb2.TableMeta) -> dict[str, Any] | None:
    if not meta.HasField("clock"):
        return None
    clock = meta.clock
    return {
        "turn_seconds": clock.turn_seconds,
        "total_seconds": clock.total_seconds,
        "on_timeout": clock.on_timeout,
    }


def event_line(stored: common_pb2.StoredEvent, game: str) -> dict[str, Any]:
    engine = engines.get(game)
    line: dict[str, Any] = {
        "version": stored.version,
        "command_id": stored.command_id,
        "seat": stored.seat,
        "time_ms": stored.time_ms,
    }
    body = stored.WhichOneof("body")
    if body == "payload":
        line["payload"] = _base64(stored.payload)
        _readable_json(line, "event", engine.event_type, stored.payload)
    elif body == "seed_revealed":
        line["seed"] = stored.seed_revealed.seed.hex()
    elif body == "control":
        line["control"] = _base64(message_bytes(stored.control))
        line["control_json"] = as_plain(stored.control)
    if stored.command:
        line["command"] = _base64(stored.command)
        _readable_json(line, "command_json", engine.command_type, stored.command)
    if stored.HasField("public_payload"):
        line["public_payload"] = _base64(stored.public_payload)
    line["seat_commitments"] = [commitment.hex() for commitment in stored.seat_commitments]
    line["commitment"] = stored.commitment.hex()
    line["prev_hash"] = stored.prev_hash.hex()
    line["hash"] = stored.hash.hex()
    return line


def _readable_json(
    line: dict[str, Any], name: str, message_type: type[Message], data: bytes
) -> None:
    """Add the readable JSON of ``data``; bytes that are not the game's message get none
    (the export still carries them, and verifying it says what is wrong)."""
    try:
        line[name] = to_json(message_type.FromString(data))
    except DecodeError:
        return


def export_lines(
    meta: common_pb2.TableMeta, log: Sequence[common_pb2.StoredEvent]
) -> Iterator[str]:
    """The export, one JSON text per line (each ending in a newline)."""
    head = log[-1] if log else None
    header = header_line(meta, head.version if head else 0, head.hash if head else bytes(32))
    yield json.dumps(header, sort_keys=True) + "\n"
    for stored in log:
        yield json.dumps(event_line(stored, meta.game), sort_keys=True) + "\n"


def stored_from_line(line: dict[str, Any]) -> common_pb2.StoredEvent:
    """The ``StoredEvent`` an event line describes; raises :class:`ExportError`."""
    try:
        stored = common_pb2.StoredEvent(
            version=int(line["version"]),
            command_id=str(line["command_id"]),
            seat=int(line["seat"]),
            time_ms=int(line["time_ms"]),
            seat_commitments=[bytes.fromhex(c) for c in line.get("seat_commitments", [])],
            commitment=bytes.fromhex(line.get("commitment", "")),
            prev_hash=bytes.fromhex(line["prev_hash"]),
            hash=bytes.fromhex(line["hash"]),
        )
        if "payload" in line:
            stored.payload = base64.b64decode(line["payload"], validate=True)
        elif "seed" in line:
            stored.seed_revealed.seed = bytes.fromhex(line["seed"])
        elif "control" in line:
            control = base64.b64decode(line["control"], validate=True)
            stored.control.CopyFrom(common_pb2.TableControlEvent.FromString(control))
        if "command" in line:
            stored.command = base64.b64decode(line["command"], validate=True)
        if "public_payload" in line:
            stored.public_payload = base64.b64decode(line["public_payload"], validate=True)
    except (KeyError, TypeError, ValueError, binascii.Error) as bad:
        raise ExportError(f"event line is malformed: {bad}") from None
    return stored


def parse_export(
    lines: Iterable[str],
) -> tuple[dict[str, Any], list[dict[str, Any]], list[common_pb2.StoredEvent]]:
    """The header, the raw event lines and the rebuilt stored events."""
    rows = []
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            row = json.loads(text)
        except ValueError as bad:
            raise ExportError(f"line {number} is not JSON: {bad}") from None
        if not isinstance(row, dict):
            raise ExportError(f"line {number} is not a JSON object")
        rows.append(row)
    if not rows:
        raise ExportError("the file is empty")
    header, event_rows = rows[0], rows[1:]
    if header.get("format") != FORMAT:
        raise ExportError(f"not a {FORMAT} file (format {header.get('format')!r})")
    return header, event_rows, [stored_from_line(row) for row in event_rows]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The outcome of every check; ``ok`` only when all of them passed."""

    table_id: str
    game: str
    checks: tuple[Check, ...] = field(default_factory=tuple)

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(check.ok for check in self.checks)


def verify_export(lines: Iterable[str]) -> Verdict:
    """Check an exported log offline with the one audit, and its readable JSON."""
    header, rows, log = parse_export(lines)
    table_id, game = str(header.get("table_id", "")), str(header.get("game", ""))
    try:
        engine = engines.get(game)
    except engines.UnknownGame:
        return Verdict(
            table_id, game, (Check("engine", False, f"no engine for game {game!r} is installed"),)
        )
    try:
        facts = TableFacts(
            table_id=table_id,
            seats=int(header["seats"]),
            seed_commitment=bytes.fromhex(str(header["seed_commitment"])),
            options=dict(header.get("options") or {}),
            seat_bots=tuple(str(bot) for bot in header.get("seat_bots") or ()),
            clock=_clock_rules(header.get("clock")),
        )
    except (KeyError, TypeError, ValueError) as bad:
        raise ExportError(f"the header is malformed: {bad}") from None
    audit = audit_log(engine, facts, log, require_seed=True)
    checks = list(audit.checks)
    if audit.chain.ok and (
        audit.chain.head_version != header.get("head_version")
        or audit.chain.head_hash.hex() != header.get("head_hash")
    ):
        checks[0] = Check("hash chain", False, "the header's head does not match the last event")
    checks.insert(1, _readable(engine, rows, log))
    return Verdict(table_id, game, tuple(checks))


def _clock_rules(clock: Any) -> ClockRules | None:
    if not clock:
        return None
    return ClockRules.of(
        common_pb2.TurnClock(
            turn_seconds=int(clock["turn_seconds"]),
            total_seconds=int(clock["total_seconds"]),
            on_timeout=str(clock["on_timeout"]),
        )
    )


def _readable(
    engine: Engine[Any, Any, Any],
    rows: Sequence[dict[str, Any]],
    log: Sequence[common_pb2.StoredEvent],
) -> Check:
    name = "readable JSON"
    for row, stored in zip(rows, log, strict=True):
        try:
            if "event" in row and row["event"] != to_json(
                engine.event_type.FromString(stored.payload)
            ):
                return Check(name, False, f"version {stored.version}: event JSON differs")
            if "command_json" in row and row["command_json"] != to_json(
                engine.command_type.FromString(stored.command)
            ):
                return Check(name, False, f"version {stored.version}: command JSON differs")
        except DecodeError:
            return Check(name, False, f"version {stored.version}: bytes do not decode")
    return Check(name, True, "every event and command JSON matches its bytes")


def _base64(data: bytes) -> str:
    return base64.b64encode(data).decode()
