"""The event hash chain: every stored event seals the one before it.

``hash = sha256(prev_hash || canonical)``, where ``canonical`` is the deterministic
wire form of the ``StoredEvent`` with its ``hash`` field cleared (``prev_hash`` stays
in). The first event's ``prev_hash`` is :data:`GENESIS` (32 zero bytes).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from engines.core.canonical import message_bytes
from proto import common_pb2

__all__ = ["GENESIS", "ChainCheck", "seal", "sealed_hash", "verify_chain"]

GENESIS = bytes(32)


def sealed_hash(event: common_pb2.StoredEvent) -> bytes:
    """The hash ``event`` must carry, computed from its other fields."""
    unsealed = common_pb2.StoredEvent()
    unsealed.CopyFrom(event)
    unsealed.ClearField("hash")
    return hashlib.sha256(event.prev_hash + message_bytes(unsealed)).digest()


def seal(event: common_pb2.StoredEvent, prev_hash: bytes) -> common_pb2.StoredEvent:
    """A copy of ``event`` linked to ``prev_hash`` and carrying its own hash."""
    sealed = common_pb2.StoredEvent()
    sealed.CopyFrom(event)
    sealed.prev_hash = prev_hash
    sealed.hash = sealed_hash(sealed)
    return sealed


@dataclass(frozen=True, slots=True)
class ChainCheck:
    """The result of walking a log: ``first_bad_version`` is 0 when all holds."""

    ok: bool
    first_bad_version: int
    head_version: int
    head_hash: bytes
    reason: str = ""


def verify_chain(events: Iterable[common_pb2.StoredEvent]) -> ChainCheck:
    """Walk the log from version 1: versions consecutive, links intact, hashes right."""
    prev = GENESIS
    expected_version = 1
    for event in events:
        if event.version != expected_version:
            return ChainCheck(
                False,
                expected_version,
                expected_version - 1,
                prev,
                f"expected version {expected_version}, found {event.version}",
            )
        if event.prev_hash != prev:
            return ChainCheck(
                False,
                event.version,
                event.version - 1,
                prev,
                f"version {event.version} does not link to the event before it",
            )
        if event.hash != sealed_hash(event):
            return ChainCheck(
                False,
                event.version,
                event.version - 1,
                prev,
                f"version {event.version} was altered after it was written",
            )
        prev = event.hash
        expected_version += 1
    return ChainCheck(True, 0, expected_version - 1, prev)
