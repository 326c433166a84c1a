"""Canonical bytes and digests: equal values encode equally, different ones do not."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, replace
from typing import Any

import pytest

import engines
from engines.core.bots import RandomBot
from engines.core.canonical import (
    PlainFormError,
    canonical_bytes,
    canonical_json,
    digest,
    from_plain,
)
from engines.core.contract import TableConfig
from engines.core.messages import to_json
from engines.core.play import Table
from proto import common_pb2


class Colour(enum.Enum):
    GREEN = "green"


class Weekday(enum.IntEnum):
    MON = 1


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


def test_canonical_json_is_one_ascii_text() -> None:
    """Sorted keys, no spaces, every non-ASCII character escaped; a lone surrogate (which
    cannot be written as UTF-8) becomes an escape too. Its bytes are canonical_bytes'."""
    data = {"b": "Grüße", "a": ["\ud800", 1, None, True]}
    text = canonical_json(data)
    assert text == '{"a":["\\ud800",1,null,true],"b":"Gr\\u00fc\\u00dfe"}'
    assert text.encode("ascii") == canonical_bytes(data)
    assert json.loads(text) == data


@dataclass(frozen=True)
class Hand:
    seat: int
    cards: tuple[int, ...]
    marks: frozenset[tuple[int, int]]
    colour: Colour | None
    by_hex: dict[tuple[int, int], str]
    names: dict[str, bool]
    token: bytes
    seed: common_pb2.SeedRevealed
    last: tuple[Plot, ...] = ()


def _hand() -> Hand:
    return Hand(
        seat=2,
        cards=(3, 1, 2),
        marks=frozenset({(1, 2), (0, 5)}),
        colour=Colour.GREEN,
        by_hex={(0, 1): "x", (-1, 2): "y"},
        names={"b": True, "a": False},
        token=b"\x00\xff",
        seed=common_pb2.SeedRevealed(seed=b"\x01"),
        last=(Plot(Colour.GREEN, (0, 1), frozenset({"m"})),),
    )


def test_from_plain_reads_back_exactly_what_to_plain_wrote() -> None:
    """Every supported shape round-trips to an equal value of the same types."""
    hand = _hand()
    again = from_plain(Hand, json.loads(canonical_bytes(hand)))
    assert again == hand
    assert type(again.cards) is tuple and type(again.marks) is frozenset
    assert again.colour is Colour.GREEN and isinstance(again.last[0], Plot)
    assert canonical_bytes(again) == canonical_bytes(hand)
    assert from_plain(Hand, json.loads(canonical_bytes(replace(hand, colour=None)))).colour is None


@pytest.mark.parametrize(
    "edit",
    [
        pytest.param(lambda d: d.pop("seat"), id="missing-field"),
        pytest.param(lambda d: d.update(extra=1), id="unknown-field"),
        pytest.param(lambda d: d.update(seat=True), id="bool-for-int"),
        pytest.param(lambda d: d.update(seat="2"), id="text-for-int"),
        pytest.param(lambda d: d.update(cards={"a": 1}), id="object-for-array"),
        pytest.param(lambda d: d.update(colour="purple"), id="no-such-enum-value"),
        pytest.param(lambda d: d.update(token="zz"), id="not-hex"),
        pytest.param(lambda d: d.update(by_hex={"not json": "x"}), id="bad-key"),
        pytest.param(lambda d: d.update(seed="ff"), id="not-a-message"),
        pytest.param(lambda d: d["last"][0].update(at=[0, 1, 2]), id="tuple-length"),
    ],
)
def test_from_plain_refuses_data_of_any_other_shape(edit: Any) -> None:
    """Data that is not the canonical form of the type is refused, never guessed at."""
    data = json.loads(canonical_bytes(_hand()))
    edit(data)
    with pytest.raises(ValueError):
        from_plain(Hand, data)


def test_from_plain_refuses_types_it_cannot_read() -> None:
    """A dataclass field typed Any has no typed reading."""

    @dataclass(frozen=True)
    class Loose:
        anything: Any

    with pytest.raises(PlainFormError):
        from_plain(Loose, {"anything": 1})


def _reference(data: Any) -> str:
    """The canonical text as the standard library writes it, byte for byte."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


@pytest.mark.parametrize(
    "data",
    [
        {"name": "Zoë", "seat": 1},
        {"k\u00e9y": 1, "key": 2},
        ["\udfff", "ok"],
        {"big": 2**64, "small": -(2**63) - 1, "edge": 2**63},
        {1: "a", 2: "b"},
        {"mixed": (1, [2, (3,)]), "e": Colour.GREEN.value},
        Weekday.MON,
        {"z": {"y": {"x": None, "w": False}}, "": ""},
    ],
)
def test_canonical_json_writes_what_the_standard_library_writes(data: Any) -> None:
    """The fast encoder and the standard library agree on every shape the data may take,
    the ones the fast one hands back to the library included (non-ASCII text, lone
    surrogates, integers beyond 64 bits, keys that are not strings, int subclasses)."""
    assert canonical_json(data) == _reference(data)


@pytest.mark.parametrize("game", engines.GAMES)
def test_every_view_and_legal_command_of_a_game_is_written_as_the_standard_library_would(
    game: str,
) -> None:
    """What the services store and send — views of every seat and the spectator, the
    outcome, legal commands and events — along a seeded random game."""
    engine = engines.get(game)
    seats = min(engine.info.min_seats + 1, engine.info.max_seats)
    table = Table.create(engine, TableConfig(f"canon-{game}", seats), b"canon")
    bot = RandomBot(3)
    checked = 0
    for step in range(300):
        outcome = engine.outcome(table.state)
        if outcome.finished:
            break
        seat = outcome.to_act[0]
        if step % 7 == 0:
            for viewer in (None, *range(seats)):
                view = engine.view(table.state, viewer)
                assert canonical_json(view) == _reference(view)
            legal = [to_json(command) for command in engine.legal_commands(table.state, seat)]
            assert canonical_json(legal) == _reference(legal)
            checked += 1
        events = table.execute(seat, bot.choose(engine, table.state, seat))
        plain = [to_json(event) for event in events]
        assert canonical_json(plain) == _reference(plain)
    assert checked > 5
