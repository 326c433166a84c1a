"""Canonical bytes and SHA-256 digests of states and messages.

Two folds of the same log must give byte-identical canonical forms, so the encoding
is fixed here once: JSON with sorted keys, no whitespace, ASCII only; dataclasses as
objects of their fields, tuples and lists as arrays, sets and frozensets as arrays
sorted by their own canonical bytes, enums by value, bytes as lowercase hex,
protobuf messages by their deterministic wire bytes in hex. Floats are refused:
rules state never needs them and their text form is not canonical.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
from collections.abc import Mapping
from typing import Any

from google.protobuf.message import Message

__all__ = ["canonical_bytes", "digest", "message_bytes", "to_plain"]


def message_bytes(message: Message) -> bytes:
    """The deterministic wire form of a protobuf message."""
    return message.SerializeToString(deterministic=True)


def to_plain(value: Any) -> Any:
    """``value`` as JSON-ready data in canonical order (see module docstring)."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, enum.Enum):
        return to_plain(value.value)
    if isinstance(value, float):
        raise TypeError("floats have no canonical form; use integers")
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, Message):
        return message_bytes(value).hex()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {_key(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [to_plain(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((to_plain(v) for v in value), key=_encode)
    raise TypeError(f"no canonical form for {type(value).__name__}")


def _key(key: Any) -> str:
    plain = to_plain(key)
    return plain if isinstance(plain, str) else _encode(plain)


def _encode(plain: Any) -> str:
    return json.dumps(plain, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def canonical_bytes(value: Any) -> bytes:
    """The canonical encoding of a state or any plain value."""
    return _encode(to_plain(value)).encode("ascii")


def digest(value: Any) -> str:
    """SHA-256 of the canonical bytes, as lowercase hex."""
    return hashlib.sha256(canonical_bytes(value)).hexdigest()
