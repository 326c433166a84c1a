"""Between the rules' plain values and the protobuf messages of ``proto/freunde.proto``.

Enum numbers are the position in the matching tuple of state.py plus one (0 is
"unspecified" or "none"), so the two can never drift apart silently.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from engines.core import codes
from engines.core.hexgrid import Hex
from engines.core.messages import MessageBytes
from engines.core.messages import built_once as events_built_once
from engines.freunde.state import COLOURS, IMPROVEMENTS, KINDS, WEATHERS
from proto import freunde_pb2 as pb

__all__ = [
    "WEATHER_NAMES",
    "Bodies",
    "EventBytes",
    "built_once",
    "colour_code",
    "colour_name",
    "event",
    "hex_msg",
    "hex_of",
    "improvement_code",
    "improvement_name",
    "kind_code",
    "kind_name",
    "required_hex",
    "weather_code",
    "weather_name",
]


K = TypeVar("K", bound=Hashable)
M = TypeVar("M")


class Bodies(dict[K, M]):
    """Command bodies built once per key on first use (``bodies[key]``) and shared after:
    the kit copies a listed body into the command it builds, so one is never changed. A
    dict rather than a cached function: a listing looks up a body per move, and a dict
    read is a step in C where a cached call makes a key of its arguments each time."""

    def __init__(self, build: Callable[[K], M]) -> None:
        super().__init__()
        self._build = build

    def __missing__(self, key: K) -> M:
        body = self[key] = self._build(key)
        return body


@functools.lru_cache(maxsize=4096)
def hex_msg(h: Hex) -> pb.Hex:
    """The message of a hex, built once per hex: every message built with it copies it,
    so it is shared, and must never be changed."""
    return pb.Hex(q=h[0], r=h[1])


# Freunde's frequent events, built once per set of arguments (see the core's
# ``built_once``).
built_once = events_built_once(pb.Event.FromString)

# Freunde's commonest events, kept as their bytes (the core's ``MessageBytes``), and a
# fresh event parsed from an entry.
EventBytes = MessageBytes
event = pb.Event.FromString


def hex_of(msg: pb.Hex) -> Hex:
    return (msg.q, msg.r)


def required_hex(body: Any, field: str) -> Hex:
    """A hex field of a command body; a missing one is refused, never read as the pond."""
    if not body.HasField(field):
        raise codes.COMMAND_MISSING_FIELD(field=f"hex ({field})")
    hexagon = getattr(body, field)
    return (hexagon.q, hexagon.r)


def _names(names: tuple[str, ...]) -> dict[int, str]:
    """The name of each enum number; a look-up with "" for a number unknown or unspecified
    (``.get(code, "")``) is one step, where a function of the number would be a call: the
    recorders read a name for every weather rolled."""
    return dict(enumerate(names, start=1))


_COLOUR_NAMES = _names(COLOURS)
_IMPROVEMENT_NAMES = _names(IMPROVEMENTS)
WEATHER_NAMES = _names(WEATHERS)
_KIND_NAMES = _names(KINDS)


def colour_code(colour: str) -> pb.Colour.ValueType:
    return pb.Colour.ValueType(COLOURS.index(colour) + 1)


def colour_name(code: int) -> str:
    return _COLOUR_NAMES.get(code, "")


def improvement_code(improvement: str) -> pb.Improvement.ValueType:
    if improvement not in IMPROVEMENTS:
        return pb.IMPROVEMENT_NONE
    return pb.Improvement.ValueType(IMPROVEMENTS.index(improvement) + 1)


def improvement_name(code: int) -> str:
    return _IMPROVEMENT_NAMES.get(code, "")


def weather_code(weather: str) -> pb.Weather.ValueType:
    return pb.Weather.ValueType(WEATHERS.index(weather) + 1)


def weather_name(code: int) -> str:
    return WEATHER_NAMES.get(code, "")


def kind_code(kind: str) -> pb.ObjectiveKind.ValueType:
    return pb.ObjectiveKind.ValueType(KINDS.index(kind) + 1)


def kind_name(code: int) -> str:
    return _KIND_NAMES.get(code, "")
