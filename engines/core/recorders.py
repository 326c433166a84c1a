"""``evolve`` as a registry: one small recorder per event kind, checked when it loads.

A recorder writes a fact into the state and nothing else: it never draws, never checks
a rule, never decides what happens next (the rule that produced the event did that in
``decide``). Declare them next to each other in the game's ``evolve.py``::

    RECORDERS = Recorders(pb.Event)

    @RECORDERS.on("plot_placed")
    def plot_placed(state: FreundeState, event: pb.PlotPlaced) -> FreundeState:
        return replace(state, plots=(*state.plots, (event.at, event.tile)))

    RECORDERS.on("turn_ended")(unchanged)

The game's :class:`~engines.core.game.Game` calls :meth:`Recorders.check` when it is
built (at import time of the game's ``engine`` module), so an event kind of the
``Event`` oneof with no recorder, or a recorder for a kind that does not exist, stops
the import with the names spelled out.

Each event is recorded once on the way to a table's next state: ``Game.decided`` folds
a command's events as it decides them and hands the state after them to the caller
(the engine service, :class:`~engines.core.play.Table`), which keeps it rather than
folding the events again. A game whose rules record their events as they build them
(Bardwood's ``Batch``) says ``remembers=True``: :meth:`Recorders.evolve` then remembers
its last answers by the identity of the state and the event and gives the same state
object back when the kit folds those events again; otherwise ``evolve`` is
:meth:`Recorders.record`, where remembering would only cost. An event is a fact once
decided: it is never changed in place (redaction and the chain work on copies).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from google.protobuf.message import Message

__all__ = ["Recorder", "Recorders", "changed", "oneof_kinds", "unchanged"]

S = TypeVar("S")
Recorder = Callable[[S, Any], S]
F = TypeVar("F", bound=Callable[..., Any])

# How many recent (state, event) answers a remembering evolve keeps: a command's events
# and those of the steps that follow it, with room to spare; forgotten all at once when full.
REMEMBERED = 32


def oneof_kinds(message_type: type[Message]) -> tuple[str, ...]:
    """The field names of ``message_type``'s one oneof (a game's ``Command`` or ``Event``)."""
    oneofs = message_type.DESCRIPTOR.oneofs
    if len(oneofs) != 1:
        raise TypeError(f"{message_type.DESCRIPTOR.name} must have exactly one oneof")
    return tuple(field.name for field in oneofs[0].fields)


R = TypeVar("R")
_NEW = object.__new__
_SET = object.__setattr__


def changed(record: R, **changes: Any) -> R:
    """``record`` with ``changes``: ``dataclasses.replace`` for a state's frozen
    dataclasses that keep their fields in an instance ``__dict__`` (no slots, no
    init-only fields, nothing checked in ``__init__``), without its per-field Python
    steps, since recorders call it for every event: one dict merge in C, several times
    cheaper than setting each field (profiled in Freunde and Harvest)."""
    fields = record.__dict__
    values = {**fields, **changes}
    # A name that is no field would have added an entry (a record's dict holds exactly
    # its fields, all set by __init__ or by this copy).
    if len(values) != len(fields):
        raise TypeError(f"{type(record).__name__} has no field among {sorted(changes)}")
    new: R = _NEW(type(record))
    _SET(new, "__dict__", values)
    return new


def unchanged(state: S, _event: Any) -> S:
    """The recorder of an event that is a record only (its facts live in other events)."""
    return state


class Recorders(Generic[S]):
    """The recorders of one game's events (see the module docstring)."""

    def __init__(self, event_type: type[Message], *, remembers: bool = False) -> None:
        self.event_type = event_type
        self.oneof = event_type.DESCRIPTOR.oneofs[0].name
        self._kinds = oneof_kinds(event_type)
        self._recorders: dict[str, Recorder[S]] = {}
        # id(event) -> (state, event, state after): the entry holds both objects, so the
        # id cannot be taken by another event while it lives, and ``is`` checks the state.
        self._recent: dict[int, tuple[S, Message, S]] = {}
        # Chosen once here: ``evolve`` runs for every event, and a method choosing on each
        # call would add a step every time.
        self.evolve: Callable[[S, Message], S] = self._remembered if remembers else self.record

    def on(self, kind: str) -> Callable[[F], F]:
        """Register the decorated function as the recorder of ``kind``."""
        if kind not in self._kinds:
            raise TypeError(f"{self.event_type.DESCRIPTOR.full_name} has no event {kind!r}")
        if kind in self._recorders:
            raise TypeError(f"event {kind!r} already has a recorder")

        def register(recorder: F) -> F:
            self._recorders[kind] = recorder
            return recorder

        return register

    def check(self) -> None:
        """Raise ``TypeError`` naming every event kind without a recorder."""
        missing = [kind for kind in self._kinds if kind not in self._recorders]
        if missing:
            raise TypeError(
                f"{self.event_type.DESCRIPTOR.full_name}: no recorder for {', '.join(missing)}"
            )

    def _remembered(self, state: S, event: Message) -> S:
        """:meth:`record`, except that the same ``state`` and ``event`` objects give the
        same state object as last time (``remembers=True``)."""
        key = id(event)
        known = self._recent.get(key)
        if known is not None and known[0] is state:
            return known[2]
        after = self.record(state, event)
        if len(self._recent) >= REMEMBERED:
            self._recent.clear()
        self._recent[key] = (state, event, after)
        return after

    def record(self, state: S, event: Message) -> S:
        """Record ``event`` in ``state``; an empty event records nothing."""
        kind = event.WhichOneof(self.oneof)
        if kind is None:
            return state
        return self._recorders[kind](state, getattr(event, kind))
