"""The attack on the hash chain's secrets, shared by the property test and the e2e test.

An attacker holds what it can read of one event (a ``RedactedEvent``: the spectator's form,
the commitments, the hashes; a seat also its own salt and view) and wants a value hidden
from it. It knows the scheme and the game's content, so it tries every candidate value:
it builds the full event with that value, recomputes everything the chain would give for
it with the secrets it holds (a seat: its own salt; after the end: every salt the seed
gives) and keeps the candidates that agree with what it read. Learning nothing means every
candidate agrees; a leak means some do not.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from google.protobuf.message import Message

from engines.core.canonical import message_bytes
from engines.core.contract import Engine
from engines.core.disclosure import disclose, seen_by
from engines.core.hashchain import Salts, commit, link, seal
from proto import common_pb2

# One step of a path into a message: a field, and the index in it when it is repeated.
Step = tuple[str, int | None]
FieldPath = tuple[Step, ...]

_ENGINES = Path(__file__).resolve().parents[1] / "engines"


def _ids(game: str, file: str, key: str) -> tuple[Any, ...]:
    data = json.loads((_ENGINES / game / "data" / file).read_text(encoding="utf-8"))
    return tuple(entry["id"] for entry in data[key])


def domains(game: str) -> Mapping[str, tuple[Any, ...]]:
    """Every value each hidden field can take: the game's whole content of that kind."""
    if game == "freunde":
        tiles = _ids("freunde", "tiles.json", "plots")
        objectives = _ids("freunde", "objectives.json", "objectives")
        return {
            "game_started.plot_stack": tiles,
            "game_started.plot_objectives": objectives,
            "game_started.gardener_objectives": objectives,
            "game_started.panda_objectives": objectives,
            "objectives_dealt.cards": objectives,
            "plots_drawn.tiles": tiles,
            "objective_drawn.card": objectives,
            "objective_returned.card": objectives,
        }
    if game == "bardwood":
        cards = (
            *_ids("bardwood", "cards.json", "cards"),
            *_ids("bardwood", "fans.json", "super_fans"),
            *_ids("bardwood", "fans.json", "fans"),
            *_ids("bardwood", "creatures.json", "creatures"),
        )
        return {"card_drawn.card": cards}
    characters = _ids("harvest", "characters.json", "characters")
    farmhouses = _ids("harvest", "farmhouses.json", "farmhouses")
    return {
        "game_set_up.deals.characters": characters,
        "game_set_up.deals.farmhouses": farmhouses,
        "start_kept.character": characters,
        "start_kept.farmhouse": farmhouses,
    }


def field_name(path: FieldPath) -> str:
    """``game_set_up.deals.characters`` for ``(("game_set_up", None), ("deals", 1), ...)``."""
    return ".".join(name for name, _ in path)


def leaves(message: Message, prefix: FieldPath = ()) -> Iterator[tuple[FieldPath, Any]]:
    """Every scalar value set in ``message``, with its path."""
    for field, value in message.ListFields():
        repeated = field.is_repeated
        items = list(enumerate(value)) if repeated else [(None, value)]
        for index, item in items:
            path = (*prefix, (field.name, index))
            if field.message_type is not None:
                yield from leaves(item, path)
            else:
                yield path, item


_MISSING = object()


def value_at(message: Message | None, path: FieldPath) -> Any:
    """The value at ``path``, or a marker when the message does not hold it."""
    current: Any = message
    for name, index in path:
        if current is None:
            return _MISSING
        value = getattr(current, name)
        if index is not None:
            if index >= len(value):
                return _MISSING
            value = value[index]
        current = value
    return current


def with_value(message: Message, path: FieldPath, value: Any) -> Message:
    """A copy of ``message`` with ``value`` at ``path``."""
    copy = type(message)()
    copy.CopyFrom(message)
    parent: Any = copy
    for name, index in path[:-1]:
        parent = getattr(parent, name) if index is None else getattr(parent, name)[index]
    name, index = path[-1]
    if index is None:
        setattr(parent, name, value)
    else:
        getattr(parent, name)[index] = value
    return copy


def hidden_from(
    engine: Engine[Any, Any, Any], event: Message, viewer: int | None
) -> list[tuple[FieldPath, Any]]:
    """The values of ``event`` that ``viewer`` does not receive."""
    shown = engine.redact(event, viewer)
    return [(path, value) for path, value in leaves(event) if value_at(shown, path) != value]


def _read(
    readable: common_pb2.RedactedEvent, name: Literal["public_payload", "seat_payload"]
) -> bytes | None:
    return bytes(getattr(readable, name)) if readable.HasField(name) else None


def agrees_without_seed(
    engine: Engine[Any, Any, Any],
    candidate: Message,
    readable: common_pb2.RedactedEvent,
    viewer: int | None,
) -> bool:
    """Would the chain give ``viewer`` what it read, had the event been ``candidate``?

    Everything ``viewer`` can recompute without the seed: the public form, its own view
    and the commitment its salt opens, and the hash over all of that and the rest.
    """
    public = seen_by(engine, candidate, None)
    if public != _read(readable, "public_payload"):
        return False
    linked = link(readable)
    if public is not None:
        linked.public_payload = public
    if viewer is not None:
        own = seen_by(engine, candidate, viewer)
        if own != _read(readable, "seat_payload"):
            return False
        opened = commit(readable.salt, *(() if own is None else (own,)))
        if opened != readable.seat_commitments[viewer]:
            return False
        linked.seat_commitments[viewer] = opened
    again = hashlib.sha256(readable.prev_hash + message_bytes(linked)).digest()
    return again == readable.hash


def agrees_with_seed(
    engine: Engine[Any, Any, Any],
    candidate: Message,
    readable: common_pb2.RedactedEvent,
    command: bytes,
    seats: int,
    salts: Salts,
) -> bool:
    """The same once the seed is out: every salt is known, so every commitment and the
    hash are recomputed from the candidate (and the command, published with the log)."""
    draft = common_pb2.StoredEvent(
        version=readable.version,
        command_id=readable.command_id,
        seat=readable.seat,
        time_ms=readable.time_ms,
        payload=message_bytes(candidate),
        command=command,
    )
    again = seal(disclose(engine, draft, seats, salts, candidate), readable.prev_hash)
    return again.hash == readable.hash


@dataclass(frozen=True, slots=True)
class Attempt:
    """One hidden value attacked by one reader: the candidates that agree with its reading."""

    field: str
    truth: Any
    domain: tuple[Any, ...]
    agreeing: tuple[Any, ...]

    @property
    def learned_nothing(self) -> bool:
        return set(self.agreeing) == set(self.domain)

    @property
    def recovered(self) -> bool:
        return self.agreeing == (self.truth,)


def attack(
    engine: Engine[Any, Any, Any],
    event: Message,
    readable: common_pb2.RedactedEvent,
    viewer: int | None,
    *,
    seed_known: tuple[Salts, bytes, int] | None = None,
) -> list[Attempt]:
    """Attack every value of ``event`` hidden from ``viewer`` with what it read.

    ``seed_known``: (salts, command bytes, seats) once the seed is revealed.
    """
    game = engine.info.game
    attempts = []
    for path, truth in hidden_from(engine, event, viewer):
        name = field_name(path)
        domain = domains(game).get(name)
        assert domain is not None, f"{game}: no candidate values for hidden field {name}"
        assert truth in domain, f"{game}: {name} = {truth!r} is outside its domain"
        agreeing = []
        for candidate_value in domain:
            candidate = with_value(event, path, candidate_value)
            if seed_known is None:
                agrees = agrees_without_seed(engine, candidate, readable, viewer)
            else:
                salts, command, seats = seed_known
                agrees = agrees_with_seed(engine, candidate, readable, command, seats, salts)
            if agrees:
                agreeing.append(candidate_value)
        attempts.append(Attempt(name, truth, domain, tuple(agreeing)))
    return attempts


def readable_from_json(row: Mapping[str, Any]) -> common_pb2.RedactedEvent:
    """What an HTTP client read of one event (``GET /events``), as a ``RedactedEvent``."""
    readable = common_pb2.RedactedEvent(
        version=row["version"],
        command_id=row["command_id"],
        seat=row["seat"],
        time_ms=row["time_ms"],
        hash=bytes.fromhex(row["hash"]),
        prev_hash=bytes.fromhex(row["prev_hash"]),
        seat_commitments=[bytes.fromhex(c) for c in row["seat_commitments"]],
        commitment=bytes.fromhex(row["commitment"]),
    )
    if row.get("public_payload") is not None:
        readable.public_payload = base64.b64decode(row["public_payload"])
    if row.get("seed_revealed") is not None:
        readable.seed_revealed.seed = bytes.fromhex(row["seed_revealed"])
    if row.get("salt") is not None:
        readable.salt = bytes.fromhex(row["salt"])
    if row.get("seat_payload") is not None:
        readable.seat_payload = base64.b64decode(row["seat_payload"])
    return readable


def readers(seats: int) -> Sequence[int | None]:
    """The spectator and every seat."""
    return (None, *range(seats))
