"""Canonical bytes and digests: equal values encode equally, different ones do not."""

from __future__ import annotations

import enum
from dataclasses import dataclass

import pytest

from engines.core.canonical import canonical_bytes, digest
from proto import common_pb2


class Colour(enum.Enum):
    GREEN = "green"


@dataclass(frozen=True)
class Plot:
    colour: Colour
    at: tuple[int, int]
    marks: frozenset[str]


def test_frozensets_encode_in_a_fixed_order() -> None:
    """Set order never leaks into the bytes."""
    a = Plot(Colour.GREEN, (0, 1), frozenset({"x", "y", "z"}))
    b = Plot(Colour.GREEN, (0, 1), frozenset({"z", "y", "x"}))
    assert canonical_bytes(a) == canonical_bytes(b)
    assert canonical_bytes(a) == b'{"at":[0,1],"colour":"green","marks":["x","y","z"]}'


def test_digest_changes_with_any_field() -> None:
    """A one-field difference gives a different digest."""
    a = Plot(Colour.GREEN, (0, 1), frozenset())
    b = Plot(Colour.GREEN, (1, 0), frozenset())
    assert digest(a) != digest(b)
    assert len(digest(a)) == 64


def test_mappings_with_non_string_keys_are_canonical() -> None:
    """Tuple keys are encoded by their canonical text, sorted."""
    one = canonical_bytes({(1, 2): "a", (0, 5): "b"})
    assert one == canonical_bytes({(0, 5): "b", (1, 2): "a"})
    assert one == b'{"[0,5]":"b","[1,2]":"a"}'


def test_messages_bytes_and_none_encode() -> None:
    """Protobuf messages encode by deterministic bytes; bytes as hex."""
    message = common_pb2.SeedRevealed(seed=b"\x01\x02")
    assert canonical_bytes({"m": message, "b": b"\xff", "n": None}) == (
        b'{"b":"ff","m":"0a020102","n":null}'
    )


def test_floats_are_refused() -> None:
    """Floats have no canonical text, so state must not hold them."""
    with pytest.raises(TypeError):
        canonical_bytes({"x": 0.5})
