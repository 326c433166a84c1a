"""Table options: the one check of what a client asks for against what a game declares.

The gateway runs it before calling an engine (so a wrong option is a 422 naming it) and
the engine service runs it again on ``CreateTable`` (so no other caller can get past it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.core.contract import OptionSpec

__all__ = ["OptionError", "resolve_options"]

# Strings are names and labels; nothing a game declares needs more.
_MAX_STR = 200


class OptionError(ValueError):
    """An option the game does not declare (``option.unknown``) or a value it does not
    accept (``option.invalid``); ``option`` names it."""

    def __init__(self, code: str, option: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.option = option
        self.message = message


def _refusal(spec: OptionSpec, value: Any) -> str | None:
    """Why ``value`` does not fit ``spec``, or ``None`` when it does."""
    if spec.kind == "bool":
        return None if isinstance(value, bool) else "must be true or false"
    if spec.kind == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            return "must be a whole number"
        low = spec.minimum if spec.minimum is not None else -(2**31)
        high = spec.maximum if spec.maximum is not None else 2**31 - 1
        return None if low <= value <= high else f"must be from {low} to {high}"
    if spec.kind == "str":
        if not isinstance(value, str):
            return "must be a string"
        return None if len(value) <= _MAX_STR else f"must be at most {_MAX_STR} characters"
    if spec.kind == "choice":
        if isinstance(value, str) and value in spec.choices:
            return None
        return f"must be one of {', '.join(spec.choices)}"
    raise ValueError(f"option {spec.name!r} has an unknown kind {spec.kind!r}")


def resolve_options(specs: Sequence[OptionSpec], given: Mapping[str, Any]) -> dict[str, Any]:
    """Every declared option, with the given values (plain JSON values) checked.

    Raises :class:`OptionError` for the first unknown option or unfitting value.
    """
    known = {spec.name: spec for spec in specs}
    for name in sorted(given):
        if name not in known:
            listed = ", ".join(sorted(known)) or "none"
            raise OptionError("option.unknown", name, f"no option {name!r} (options: {listed})")
    resolved: dict[str, Any] = {}
    for name, spec in known.items():
        if name not in given:
            resolved[name] = spec.default
            continue
        why = _refusal(spec, given[name])
        if why is not None:
            raise OptionError("option.invalid", name, f"option {name!r} {why}")
        resolved[name] = given[name]
    return resolved
