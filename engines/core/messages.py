"""The one JSON form of commands and events used everywhere (HTTP, logs, exports), and
events built once and parsed from their bytes afterwards (:func:`built_once`).

The JSON form is the protobuf JSON mapping with the proto field names kept
(``snake_case``), which every protobuf JSON parser also accepts, and with default values
left out.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Any, ParamSpec, TypeVar

from google.protobuf import json_format
from google.protobuf.message import DecodeError, Message

from engines.core.canonical import message_bytes

__all__ = [
    "MessageBytes",
    "MessageFormatError",
    "built_once",
    "decode_exactly",
    "from_json",
    "to_json",
]

M = TypeVar("M", bound=Message)
P = ParamSpec("P")
K = TypeVar("K", bound=Hashable)


def built_once(
    parse: Callable[[bytes], M], maxsize: int = 4096
) -> Callable[[Callable[P, M]], Callable[P, M]]:
    """A decorator for a function building a message from hashable arguments: the message
    for each set of arguments is built once and afterwards parsed from its bytes
    (``parse``, the message type's ``FromString``). Every call still returns a message of
    its own; parsing is several times cheaper than building from nested messages, and
    the rules build the same few events on most commands (profiled in Freunde and
    Harvest). ``maxsize``: how many argument sets are remembered (least recently used
    forgotten)."""

    def decorate(build: Callable[P, M]) -> Callable[P, M]:
        def encode(*args: Any, **kwargs: Any) -> bytes:
            return build(*args, **kwargs).SerializeToString(deterministic=True)

        encoded: Callable[..., bytes] = functools.lru_cache(maxsize=maxsize)(encode)

        @functools.wraps(build)
        def built(*args: P.args, **kwargs: P.kwargs) -> M:
            return parse(encoded(*args, **kwargs))

        return built

    return decorate


class MessageBytes(dict[K, bytes]):
    """:func:`built_once` for a rule's very commonest messages, as a table: the message
    for each key is built once (``build(key)``) and kept as its bytes, and
    ``parse(table[key])`` gives a message of its own each time, as ``built_once`` does,
    without its wrapper's Python call (a look-up and a parse, both in C). For keys of a
    few small values (a seat, hexes, a colour), so the table stays small."""

    def __init__(self, build: Callable[[K], Message]) -> None:
        super().__init__()
        self._build = build

    def __missing__(self, key: K) -> bytes:
        data = self[key] = self._build(key).SerializeToString(deterministic=True)
        return data


class MessageFormatError(ValueError):
    """The JSON does not describe a message of the expected type."""


def to_json(message: Message) -> dict[str, Any]:
    """``message`` as plain JSON data."""
    return json_format.MessageToDict(message, preserving_proto_field_name=True)


def from_json(message_type: type[M], data: Any) -> M:
    """Parse JSON data into ``message_type``; raises :class:`MessageFormatError`."""
    if not isinstance(data, dict):
        raise MessageFormatError(f"expected a JSON object for {message_type.DESCRIPTOR.name}")
    try:
        return json_format.ParseDict(data, message_type())
    except (json_format.ParseError, TypeError, ValueError) as bad:
        raise MessageFormatError(str(bad)) from None


def decode_exactly(message_type: type[M], data: bytes) -> M:
    """``data`` as a ``message_type`` that says all it holds; raises ``DecodeError``.

    Protobuf parsing is lenient (fields it does not know are kept aside, an empty input is
    a valid message), so bytes of another game's message often parse. Here the bytes must
    be exactly the deterministic form of a ``message_type`` with its oneof set and no
    field the type does not know.
    """
    message = message_type.FromString(data)
    oneofs = message_type.DESCRIPTOR.oneofs
    if oneofs and all(message.WhichOneof(oneof.name) is None for oneof in oneofs):
        raise DecodeError(f"not a {message_type.DESCRIPTOR.name}: nothing is set")
    message.DiscardUnknownFields()
    if message_bytes(message) != data:
        raise DecodeError(f"not a {message_type.DESCRIPTOR.name}: fields it does not have")
    return message
