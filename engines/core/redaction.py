"""One redaction policy for every game: which event fields are secret, and from whom.

A game declares its secrets as data, next to its events, instead of writing ``redact``
by hand::

    REDACTION = Redaction(pb.Event, {
        "game_started": (Secret("plot_stack"), Secret("plot_objectives")),   # nobody
        "objectives_dealt": (Secret("cards", owner="seat"),),                # its seat
        "game_set_up": (Secret("deals.characters", owner=BY_INDEX),),        # deals[k] is seat k's
    })

How a secret is hidden (the same in every game, and what client authors can rely on):

- a repeated field keeps its length and every hidden value becomes the field type's
  zero (``0``, ``""``, an empty message): a client still sees how many cards were dealt;
- a single field is cleared to its zero;
- nothing else in the event changes.

``owner`` says who may see the value: ``None`` nobody (deck orders), a field name of the
same message holding the owner's seat (``"seat"``), or :data:`BY_INDEX` when the first
part of the path is a repeated message whose ``k``-th element belongs to seat ``k``.
``when`` limits a secret to the events where it applies (a first-game deal is public).
The policy is checked against the ``Event`` message when it is built, so a misspelt
field stops the import.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from engines.core.recorders import oneof_kinds

__all__ = ["BY_INDEX", "Redaction", "Secret", "zero_of"]

E = TypeVar("E", bound=Message)
# Descriptors are typed loosely: the C (upb) and Python implementations differ in stubs.
Field = Any

BY_INDEX = "[index]"


@dataclass(frozen=True, slots=True)
class Secret:
    """One secret field of an event kind (see the module docstring)."""

    path: str
    owner: str | None = None
    when: Callable[[Any], bool] | None = None

    @property
    def parts(self) -> tuple[str, ...]:
        return tuple(self.path.split("."))

    def applies(self, body: Message) -> bool:
        return self.when is None or bool(self.when(body))


def _is_repeated(field: Field) -> bool:
    return bool(field.is_repeated)


def _field(descriptor: Any, name: str, where: str) -> Field:
    field = descriptor.fields_by_name.get(name)
    if field is None:
        raise TypeError(f"{where}: {descriptor.full_name} has no field {name!r}")
    return field


def _check(body: Any, kind: str, secret: Secret) -> None:
    where = f"secret {kind}.{secret.path}"
    descriptor = body
    for depth, name in enumerate(secret.parts):
        field = _field(descriptor, name, where)
        last = depth == len(secret.parts) - 1
        if not last:
            if field.message_type is None:
                raise TypeError(f"{where}: {name!r} is not a message")
            descriptor = field.message_type
    if secret.owner == BY_INDEX:
        first = _field(body, secret.parts[0], where)
        if not (_is_repeated(first) and first.message_type is not None and len(secret.parts) > 1):
            raise TypeError(f"{where}: BY_INDEX needs a repeated message as its first part")
    elif secret.owner is not None:
        owner = _field(body, secret.owner, where)
        integers = (
            FieldDescriptor.CPPTYPE_INT32,
            FieldDescriptor.CPPTYPE_INT64,
            FieldDescriptor.CPPTYPE_UINT32,
            FieldDescriptor.CPPTYPE_UINT64,
        )
        if owner.is_repeated or owner.cpp_type not in integers:
            raise TypeError(f"{where}: owner {secret.owner!r} is not a seat number")


def zero_of(field: Field) -> Any:
    """The zero value of one element of a scalar field (repeated or not)."""
    if field.cpp_type == FieldDescriptor.CPPTYPE_STRING:
        return b"" if field.type == FieldDescriptor.TYPE_BYTES else ""
    if field.cpp_type == FieldDescriptor.CPPTYPE_BOOL:
        return False
    if field.cpp_type in (FieldDescriptor.CPPTYPE_FLOAT, FieldDescriptor.CPPTYPE_DOUBLE):
        return 0.0
    return 0


def _blank(message: Message, name: str) -> None:
    """Hide ``message.name`` keeping its length (see the module docstring)."""
    field = message.DESCRIPTOR.fields_by_name[name]
    if not _is_repeated(field):
        message.ClearField(name)
        return
    values = getattr(message, name)
    count = len(values)
    if field.message_type is not None:
        del values[:]
        for _ in range(count):
            values.add()
    else:
        values[:] = [zero_of(field)] * count


def _holders(message: Message, parts: Sequence[str]) -> Iterator[Message]:
    """Every message that holds the last part of ``parts``, walking repeated parents."""
    if len(parts) == 1:
        yield message
        return
    child = getattr(message, parts[0])
    field = message.DESCRIPTOR.fields_by_name[parts[0]]
    if _is_repeated(field):
        for element in child:
            yield from _holders(element, parts[1:])
    elif message.HasField(parts[0]):
        yield from _holders(child, parts[1:])


def _hidden_from_seat(body: Message, secret: Secret, seat: int | None) -> bool:
    """Whether ``seat`` may not see ``secret`` in ``body`` (BY_INDEX: some element of it)."""
    if secret.owner is None or secret.owner == BY_INDEX or seat is None:
        return True
    return bool(getattr(body, secret.owner) != seat)


class Redaction(Generic[E]):
    """A game's secrets (see the module docstring); :meth:`redact` applies them."""

    def __init__(self, event_type: type[E], secrets: Mapping[str, Sequence[Secret]]) -> None:
        self.event_type = event_type
        self.oneof = event_type.DESCRIPTOR.oneofs[0].name
        kinds = set(oneof_kinds(event_type))
        for kind, listed in secrets.items():
            if kind not in kinds:
                raise TypeError(f"{event_type.DESCRIPTOR.full_name} has no event {kind!r}")
            body = event_type.DESCRIPTOR.fields_by_name[kind].message_type
            for secret in listed:
                _check(body, kind, secret)
        self.secrets: dict[str, tuple[Secret, ...]] = {k: tuple(v) for k, v in secrets.items()}

    def hidden_from(self, body: Message, kind: str, seat: int | None) -> list[Secret]:
        """The secrets of this event body that ``seat`` (``None``: a spectator) may not see
        (for :data:`BY_INDEX` secrets, those with at least one element hidden)."""
        hidden = []
        for secret in self.secrets.get(kind, ()):
            if not secret.applies(body):
                continue
            if _hidden_from_seat(body, secret, seat):
                hidden.append(secret)
        return hidden

    def redact(self, event: E, seat: int | None) -> E:
        """``event`` as ``seat`` may see it; the same object when nothing is hidden."""
        kind = event.WhichOneof(self.oneof)
        if kind is None:
            return event
        hidden = self.hidden_from(getattr(event, kind), kind, seat)
        if not hidden:
            return event
        shown = type(event)()
        shown.CopyFrom(event)
        body = getattr(shown, kind)
        for secret in hidden:
            parts = secret.parts
            if secret.owner == BY_INDEX:
                for index, element in enumerate(getattr(body, parts[0])):
                    if index != seat:
                        for holder in _holders(element, parts[1:]):
                            _blank(holder, parts[-1])
            else:
                for holder in _holders(body, parts):
                    _blank(holder, parts[-1])
        return shown
