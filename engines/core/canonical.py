"""Canonical JSON, digests of states and messages, and the typed way back to a state.

Two folds of the same log must give byte-identical canonical forms, so the encoding
is fixed here once: JSON with sorted keys, no whitespace, ASCII only; dataclasses as
objects of their fields, tuples and lists as arrays, sets and frozensets as arrays
sorted by their own canonical bytes, enums by value, bytes as lowercase hex,
protobuf messages by their deterministic wire bytes in hex. Floats are refused:
rules state never needs them and their text form is not canonical.

:func:`canonical_json` is the one JSON text of everything the services store or hash
(read models, views, legal commands, table options). It escapes every non-ASCII
character: the bytes are then the same whatever encoding a reader assumes, and a lone
surrogate a client smuggled into a string becomes ``\\udXXX`` instead of text that
cannot be written as UTF-8.

:func:`from_plain` reads canonical data back into the type it was made from, guided by
the dataclasses' type hints only (state snapshots are stored this way, never pickled):
data of any other shape is refused with :class:`PlainFormError`, never executed.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

import orjson
from google.protobuf.message import DecodeError, Message

__all__ = [
    "PlainFormError",
    "canonical_bytes",
    "canonical_json",
    "digest",
    "from_plain",
    "message_bytes",
    "to_plain",
]

T = TypeVar("T")


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


# orjson's text where it is the same as json.dumps's; what it would write otherwise, or not
# at all, it refuses (subclasses of str, int, dict and list, dataclasses; raised as
# TypeError), and json.dumps writes it.
_ORJSON_CANONICAL = (
    orjson.OPT_SORT_KEYS
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)


def _encode(plain: Any) -> str:
    """The canonical text; orjson writes it unless the data holds what orjson writes
    otherwise than json.dumps: non-ASCII text (escaped here), lone surrogates, integers
    beyond 64 bits, keys that are not strings."""
    try:
        text = orjson.dumps(plain, option=_ORJSON_CANONICAL)
    except TypeError:
        return _encode_slowly(plain)
    return text.decode("ascii") if text.isascii() else _encode_slowly(plain)


def _encode_slowly(plain: Any) -> str:
    return json.dumps(plain, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def canonical_json(data: Any) -> str:
    """The canonical JSON text of plain data (sorted keys, no spaces, ASCII only)."""
    return _encode(data)


def canonical_bytes(value: Any) -> bytes:
    """The canonical encoding of a state or any plain value."""
    return _encode(to_plain(value)).encode("ascii")


def digest(value: Any) -> str:
    """SHA-256 of the canonical bytes, as lowercase hex."""
    return hashlib.sha256(canonical_bytes(value)).hexdigest()


class PlainFormError(ValueError):
    """Data that is not the canonical form of the type asked for."""


def from_plain(kind: type[T], plain: Any) -> T:
    """The value of type ``kind`` whose :func:`to_plain` is ``plain``.

    Supported: ``None``, ``bool``, ``int``, ``str``, ``bytes``, enums, protobuf messages,
    dataclasses (their type hints say how to read each field), ``tuple[X, ...]``,
    fixed tuples, ``list``, ``set``/``frozenset``, ``dict``/``Mapping`` and unions of these.
    """
    value: T = _read(kind, plain)
    return value


def _read(kind: Any, plain: Any) -> Any:
    if kind is None or kind is type(None):
        return _expect(plain, plain is None, "null")
    origin = typing.get_origin(kind)
    if origin is not None:
        return _read_generic(kind, origin, typing.get_args(kind), plain)
    if kind is bool:
        return _expect(plain, isinstance(plain, bool), "a boolean")
    if kind is int:
        return _expect(plain, isinstance(plain, int) and not isinstance(plain, bool), "an integer")
    if kind is str:
        return _expect(plain, isinstance(plain, str), "a string")
    if kind is bytes:
        return bytes.fromhex(_expect(plain, isinstance(plain, str), "hex"))
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return kind(plain)
    if isinstance(kind, type) and issubclass(kind, Message):
        try:
            return kind.FromString(bytes.fromhex(_expect(plain, isinstance(plain, str), "hex")))
        except DecodeError as bad:
            raise PlainFormError(f"not a {kind.__name__}: {bad}") from None
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return _read_dataclass(kind, plain)
    raise PlainFormError(f"no typed reading of {kind!r}")


def _read_generic(kind: Any, origin: Any, args: tuple[Any, ...], plain: Any) -> Any:
    if origin is typing.Union or origin is types.UnionType:
        for option in args:
            try:
                return _read(option, plain)
            except (PlainFormError, ValueError, TypeError):
                continue
        raise PlainFormError(f"{_shown(plain)} is none of {kind!r}")
    if origin is typing.Literal:
        return _expect(plain, plain in args, f"one of {args!r}")
    if origin in (dict, Mapping, typing.Mapping):
        key_kind, value_kind = args
        items = _expect(plain, isinstance(plain, dict), "an object")
        return {_read_key(key_kind, key): _read(value_kind, v) for key, v in items.items()}
    items = _expect(plain, isinstance(plain, list), "an array")
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_read(args[0], item) for item in items)
        if len(args) != len(items):
            raise PlainFormError(f"expected {len(args)} items, found {len(items)}")
        return tuple(_read(arg, item) for arg, item in zip(args, items, strict=True))
    if origin is list:
        return [_read(args[0], item) for item in items]
    if origin in (frozenset, set):
        return origin(_read(args[0], item) for item in items)
    raise PlainFormError(f"no typed reading of {kind!r}")


def _read_key(kind: Any, key: str) -> Any:
    if kind is str:
        return key
    try:
        return _read(kind, json.loads(key))
    except json.JSONDecodeError:
        raise PlainFormError(f"key {_shown(key)} is not canonical JSON") from None


def _read_dataclass(kind: type[Any], plain: Any) -> Any:
    fields = _expect(plain, isinstance(plain, dict), "an object")
    hints = _hints(kind)
    names = [f.name for f in dataclasses.fields(kind) if f.init]
    if set(fields) != set(names):
        raise PlainFormError(f"{kind.__name__} has fields {sorted(names)}, not {sorted(fields)}")
    return kind(**{name: _read(hints[name], fields[name]) for name in names})


_HINTS: dict[type[Any], dict[str, Any]] = {}


def _hints(kind: type[Any]) -> dict[str, Any]:
    """A dataclass's resolved type hints (computed once per class)."""
    hints = _HINTS.get(kind)
    if hints is None:
        hints = _HINTS[kind] = typing.get_type_hints(kind)
    return hints


def _expect(plain: Any, ok: bool, what: str) -> Any:
    if not ok:
        raise PlainFormError(f"expected {what}, found {_shown(plain)}")
    return plain


def _shown(plain: Any) -> str:
    text = repr(plain)
    return text if len(text) <= 40 else text[:37] + "..."
