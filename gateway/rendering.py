"""Events as JSON for one viewer.

A stored event becomes ``{version, command_id, seat, time_ms, event, hash}`` where
``event`` is the protobuf JSON of the game event as the viewer may see it (``null``
when it may see nothing of it) and ``hash`` is lowercase hex. The seed revealed at the
end of a game appears as ``seed_revealed`` (hex) instead of ``event``.
"""

from __future__ import annotations

import json
from typing import Any

from engines.core.contract import Engine
from engines.core.messages import to_json
from proto import common_pb2, engine_pb2

__all__ = ["render_redacted", "render_stored"]


def render_stored(
    engine: Engine[Any, Any, Any], stored: common_pb2.StoredEvent, seat: int | None
) -> dict[str, Any]:
    """An unredacted stored event, redacted here with the game's own ``redact``."""
    rendered: dict[str, Any] = {
        "version": stored.version,
        "command_id": stored.command_id,
        "seat": stored.seat,
        "time_ms": stored.time_ms,
        "event": None,
        "hash": stored.hash.hex(),
    }
    body = stored.WhichOneof("body")
    if body == "payload":
        event = engine.event_type.FromString(stored.payload)
        visible = engine.redact(event, seat)
        rendered["event"] = None if visible is None else to_json(visible)
    elif body == "seed_revealed":
        rendered["seed_revealed"] = stored.seed_revealed.seed.hex()
    return rendered


def render_redacted(event: engine_pb2.RedactedEvent) -> dict[str, Any]:
    """An event the engine service already redacted for the viewer."""
    rendered: dict[str, Any] = {
        "version": event.version,
        "command_id": event.command_id,
        "seat": event.seat,
        "time_ms": event.time_ms,
        "event": None,
        "hash": event.hash.hex(),
    }
    if event.event_json:
        data = json.loads(event.event_json)
        revealed = data.get("seed_revealed") if isinstance(data, dict) else None
        if isinstance(revealed, dict) and set(data) == {"seed_revealed"}:
            rendered["seed_revealed"] = str(revealed.get("seed", ""))
        else:
            rendered["event"] = data
    return rendered
