"""The export format of a finished table, and its offline verification.

JSON Lines. The first line is the header::

    {"format": "boardwright-export/1", "table_id", "game", "seats", "options",
     "seed_commitment" (hex), "created_ms", "head_version", "head_hash" (hex)}

then one line per stored event, in version order::

    {"version", "command_id", "seat", "time_ms",
     "payload" (base64 of the game Event) | "seed" (hex, the revealed seed),
     "command" (base64 of the game Command; first event of a command's batch only),
     "prev_hash" (hex), "hash" (hex),
     "event" / "command_json" (the same messages as protobuf JSON, for people)}

Binary fields are base64 (protobuf bytes) or hex (hashes and the seed, as everywhere else
in the API). Those fields rebuild each ``StoredEvent`` exactly, so :func:`verify_export`
can check the hash chain, the seed commitment, that the readable JSON says what the bytes
say, and finally re-run the whole game with the revealed seed.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from google.protobuf.message import DecodeError

import engines
from engines.core.canonical import message_bytes
from engines.core.contract import TableConfig
from engines.core.errors import RuleViolation
from engines.core.hashchain import verify_chain
from engines.core.messages import to_json
from engines.core.play import reexecute
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

FORMAT = "boardwright-export/1"


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
        "head_version": head_version,
        "head_hash": head_hash.hex(),
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
        line["payload"] = base64.b64encode(stored.payload).decode()
        line["event"] = to_json(engine.event_type.FromString(stored.payload))
    elif body == "seed_revealed":
        line["seed"] = stored.seed_revealed.seed.hex()
    if stored.command:
        line["command"] = base64.b64encode(stored.command).decode()
        line["command_json"] = to_json(engine.command_type.FromString(stored.command))
    line["prev_hash"] = stored.prev_hash.hex()
    line["hash"] = stored.hash.hex()
    return line


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
            prev_hash=bytes.fromhex(line["prev_hash"]),
            hash=bytes.fromhex(line["hash"]),
        )
        if "payload" in line:
            stored.payload = base64.b64decode(line["payload"], validate=True)
        elif "seed" in line:
            stored.seed_revealed.seed = bytes.fromhex(line["seed"])
        if "command" in line:
            stored.command = base64.b64decode(line["command"], validate=True)
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
class Check:
    name: str
    ok: bool
    detail: str


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
    """Check an exported log offline: chain, head, readable JSON, seed, re-execution."""
    header, rows, log = parse_export(lines)
    table_id, game = str(header.get("table_id", "")), str(header.get("game", ""))
    checks = [_chain(header, log)]
    try:
        engine = engines.get(game)
    except engines.UnknownGame:
        checks.append(Check("engine", False, f"no engine for game {game!r} is installed"))
        return Verdict(table_id, game, tuple(checks))
    checks.append(_readable(engine, rows, log))
    seed_check, seed = _seed(header, log)
    checks.append(seed_check)
    if seed is not None:
        checks.append(_reexecution(engine, header, log, seed))
    return Verdict(table_id, game, tuple(checks))


def _chain(header: dict[str, Any], log: Sequence[common_pb2.StoredEvent]) -> Check:
    chain = verify_chain(log)
    if not chain.ok:
        return Check("hash chain", False, chain.reason)
    if chain.head_version != header.get("head_version") or chain.head_hash.hex() != header.get(
        "head_hash"
    ):
        return Check("hash chain", False, "the header's head does not match the last event")
    return Check(
        "hash chain", True, f"{chain.head_version} events linked, head {chain.head_hash.hex()[:16]}"
    )


def _readable(
    engine: Any, rows: Sequence[dict[str, Any]], log: Sequence[common_pb2.StoredEvent]
) -> Check:
    for row, stored in zip(rows, log, strict=True):
        try:
            if "event" in row and row["event"] != to_json(
                engine.event_type.FromString(stored.payload)
            ):
                return Check(
                    "readable JSON",
                    False,
                    f"version {stored.version}: event JSON differs from its bytes",
                )
            if "command_json" in row and row["command_json"] != to_json(
                engine.command_type.FromString(stored.command)
            ):
                return Check(
                    "readable JSON",
                    False,
                    f"version {stored.version}: command JSON differs from its bytes",
                )
        except DecodeError:
            return Check("readable JSON", False, f"version {stored.version}: bytes do not decode")
    return Check("readable JSON", True, "every event and command JSON matches its bytes")


def _seed(
    header: dict[str, Any], log: Sequence[common_pb2.StoredEvent]
) -> tuple[Check, bytes | None]:
    revealed = [e.seed_revealed.seed for e in log if e.WhichOneof("body") == "seed_revealed"]
    if not revealed:
        return Check("seed", False, "the seed was never revealed (the game has not ended)"), None
    seed = revealed[-1]
    if hashlib.sha256(seed).hexdigest() != header.get("seed_commitment"):
        return Check(
            "seed", False, "the revealed seed does not match the published commitment"
        ), None
    return Check("seed", True, "the revealed seed matches the commitment made at creation"), seed


def _reexecution(
    engine: Any, header: dict[str, Any], log: Sequence[common_pb2.StoredEvent], seed: bytes
) -> Check:
    try:
        config = TableConfig(
            str(header["table_id"]), int(header["seats"]), dict(header.get("options") or {})
        )
        commands = [(e.seat, engine.command_type.FromString(e.command)) for e in log if e.command]
        expected = [
            message_bytes(engine.event_type.FromString(e.payload))
            for e in log
            if e.WhichOneof("body") == "payload"
        ]
        produced = reexecute(engine, config, seed, commands)
    except RuleViolation as refused:
        return Check("re-execution", False, f"a logged command is refused on re-run: {refused}")
    except (KeyError, TypeError, ValueError, DecodeError) as bad:
        return Check("re-execution", False, f"cannot re-run: {bad}")
    if produced != expected:
        at = next(
            (i + 1 for i, (a, b) in enumerate(zip(produced, expected, strict=False)) if a != b),
            min(len(produced), len(expected)) + 1,
        )
        return Check(
            "re-execution",
            False,
            f"re-running {len(commands)} commands gives different events from game event {at}",
        )
    return Check(
        "re-execution", True, f"{len(commands)} commands re-run to the same {len(expected)} events"
    )
