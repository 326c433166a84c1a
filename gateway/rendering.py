"""Events as JSON for one viewer, from what the engine service rendered for it.

The engine service decides what a viewer sees of each stored event
(``engines.core.disclosure.render``, the one redaction of stored events); here its
``RedactedEvent`` only changes form. A rendered event is::

    {version, command_id, seat, time_ms, event, text, hash, prev_hash, public_payload,
     seat_commitments, commitment, salt?, seat_payload?, seed_revealed?, control?}

``event`` is the protobuf JSON of the game event as the viewer may see it (``null``
when it may see nothing of it), ``text`` the same event in one line of words (``null``
when hidden); hashes, commitments and salts are lowercase hex, protobuf
bytes base64. ``public_payload`` and the commitments are what the hash covers, so any
client can check every link; a seat's ``salt`` and ``seat_payload`` open its own
commitment. The seed revealed at the end of a game appears as ``seed_revealed`` (hex).
"""

from __future__ import annotations

import base64
import json
from typing import Any

import orjson

from engines.core.control import as_plain
from proto import common_pb2

__all__ = ["event_out", "render_redacted"]


def render_redacted(event: common_pb2.RedactedEvent, *, parse: bool = True) -> dict[str, Any]:
    """An event the engine service rendered for the viewer, as JSON data (``parse``:
    with its game event parsed; else ``event`` is left ``None`` for the caller)."""
    rendered: dict[str, Any] = {
        "version": event.version,
        "command_id": event.command_id,
        "seat": event.seat,
        "time_ms": event.time_ms,
        "event": json.loads(event.event_json) if parse and event.event_json else None,
        "text": event.text or None,
        "hash": event.hash.hex(),
        "prev_hash": event.prev_hash.hex(),
        "public_payload": _base64(event.public_payload)
        if event.HasField("public_payload")
        else None,
        "seat_commitments": [commitment.hex() for commitment in event.seat_commitments],
        "commitment": event.commitment.hex(),
    }
    if event.salt:
        rendered["salt"] = event.salt.hex()
    if event.HasField("seat_payload"):
        rendered["seat_payload"] = _base64(event.seat_payload)
    if event.HasField("seed_revealed"):
        rendered["seed_revealed"] = event.seed_revealed.seed.hex()
    if event.HasField("control"):
        rendered["control"] = as_plain(event.control)
    return rendered


def _base64(data: bytes) -> str:
    return base64.b64encode(data).decode()


# What EventOut renders for the keys render_redacted leaves out.
_ABSENT = {"seed_revealed": None, "salt": None, "seat_payload": None, "control": None}


def event_out(event: common_pb2.RedactedEvent) -> dict[str, Any]:
    """The event as ``EventOut`` renders it (every field, ``null`` where absent), built
    without the model for the command path, to be written by orjson: the game event
    stays the JSON text the engine service wrote (an ``orjson.Fragment``), never parsed."""
    rendered = {**_ABSENT, **render_redacted(event, parse=False)}
    if event.event_json:
        rendered["event"] = orjson.Fragment(event.event_json)
    return rendered
