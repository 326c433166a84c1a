"""Events as a rule builds them: each one recorded at once, so the next step of the same
rule reads the table as it now stands.

A rule that resolves several steps (Soothe: pay, return a Badge, reward the assistants,
take the Badges, gain the bonus, place the Creature) adds events one by one to a
:class:`Batch`; ``batch.state`` is the state after the events so far. Nothing here
decides anything: the batch only folds what the rules add.
"""

from __future__ import annotations

from typing import Any

from google.protobuf.message import Message

from engines.bardwood.evolve import RECORDERS
from engines.bardwood.state import BardwoodState
from engines.core.recorders import oneof_kinds
from proto import bardwood_pb2 as pb

__all__ = ["Batch", "event"]

_BODIES: dict[str, type[Message]] = {
    name: type(getattr(pb.Event(), name)) for name in oneof_kinds(pb.Event)
}


def event(name: str, /, **fields: Any) -> pb.Event:
    """The ``Event`` whose ``name`` body has ``fields``."""
    happened = pb.Event()
    getattr(happened, name).CopyFrom(_BODIES[name](**fields))
    return happened


class Batch:
    """The events a rule has produced so far, and the state after them."""

    __slots__ = ("events", "state")

    def __init__(self, state: BardwoodState) -> None:
        self.state = state
        self.events: list[pb.Event] = []

    def add(self, name: str, /, **fields: Any) -> None:
        """Record one event called ``name`` (a field of the ``Event`` oneof)."""
        happened = event(name, **fields)
        self.state = RECORDERS.evolve(self.state, happened)
        self.events.append(happened)
