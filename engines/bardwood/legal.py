"""Candidates for ``legal_commands``: every body a rule's own check accepts.

Each rule is written as a check (which refuses, with the rule's code, anything the rule
would refuse) followed by building its events. Its candidate list is the plausible
bodies filtered by that same check, so a move can declare ``exact=True`` and the kit
need not build every candidate's events; the conformance check proves the two agree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from engines.bardwood.state import BardwoodState
from engines.core.errors import RuleViolation

__all__ = ["passing"]

B = TypeVar("B")


def passing(
    check: Callable[[BardwoodState, Any, int], object],
    state: BardwoodState,
    seat: int,
    bodies: Iterable[B],
) -> list[B]:
    """The ``bodies`` that ``check`` accepts from ``seat``."""
    accepted = []
    for body in bodies:
        try:
            check(state, body, seat)
        except RuleViolation:
            continue
        accepted.append(body)
    return accepted
