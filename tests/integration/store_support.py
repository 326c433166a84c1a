"""Helpers for the event-store tests (no tests here)."""

from __future__ import annotations

import hashlib

from services.eventstore import CommandKey


def command_key(command_id: str, seat: int = 0, command: bytes | None = None) -> CommandKey:
    """The key the engine service would give ``seat``'s ``command_id`` for ``command``
    (by default a command of its own, so each id names one command)."""
    what = command if command is not None else command_id.encode()
    return CommandKey(seat, command_id, hashlib.sha256(what).digest())
