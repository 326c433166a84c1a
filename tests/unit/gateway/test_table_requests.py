"""Table creation input: options are checked against the game's declared options, seeds
are hex of a sensible length, and SSE resumes where the client says."""

from __future__ import annotations

import json

import orjson
import pytest

from engines.core.contract import GameInfo, OptionSpec
from gateway.api.routes.events import _resume_point
from gateway.api.routes.tables import checked_options, checked_seed
from gateway.errors import ApiError
from gateway.rendering import event_out, render_redacted
from gateway.schemas.responses import EventOut
from proto import common_pb2

INFO = GameInfo(
    game="toy",
    title="Toy",
    min_seats=2,
    max_seats=4,
    options=(
        OptionSpec("fast", "bool", False, "Play fast."),
        OptionSpec("rounds", "int", 10, "How many rounds.", minimum=1, maximum=50),
        OptionSpec("map", "choice", "small", "Which map.", ("small", "large")),
    ),
)


def test_declared_options_are_passed_on_json_encoded() -> None:
    """Each option value reaches the engine as JSON text."""
    options = checked_options(INFO, {"fast": True, "rounds": 3, "map": "large"})
    assert {name: json.loads(text) for name, text in options.items()} == {
        "fast": True,
        "rounds": 3,
        "map": "large",
    }


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"speed": 1}, "option.unknown"),
        ({"fast": "yes"}, "option.invalid"),
        ({"rounds": True}, "option.invalid"),
        ({"rounds": 2.5}, "option.invalid"),
        ({"map": "huge"}, "option.invalid"),
        ({"rounds": -5}, "option.invalid"),
        ({"rounds": 10**30}, "option.invalid"),
    ],
)
def test_undeclared_or_mistyped_options_are_refused(options: dict, code: str) -> None:
    """A wrong option is a 422 naming the problem, before any engine is asked."""
    with pytest.raises(ApiError) as refused:
        checked_options(INFO, options)
    assert (refused.value.status, refused.value.code) == (422, code)
    assert refused.value.details["option"] == next(iter(options))


@pytest.mark.parametrize("seed", ["zz", "00" * 8, "00" * 65, "abc"])
def test_seeds_must_be_hex_of_16_to_64_bytes(seed: str) -> None:
    """Too short, too long or not hex: 422 seed.invalid."""
    with pytest.raises(ApiError) as refused:
        checked_seed(seed)
    assert refused.value.code == "seed.invalid"


def test_a_good_seed_or_none_is_accepted() -> None:
    """No seed means the engine draws one; a hex seed is passed as bytes."""
    assert checked_seed(None) == b""
    assert checked_seed("ab" * 32) == bytes([0xAB] * 32)


@pytest.mark.parametrize(
    ("after", "header", "start"),
    [
        (0, None, 0),
        (5, None, 5),
        (5, "12", 12),
        (5, " 7 ", 7),
        (5, "junk", 5),
        (5, "-3", 5),
        (5, "9" * 32, 5),
        (5, "\u00b2", 5),
    ],
)
def test_streams_resume_after_last_event_id(after: int, header: str | None, start: int) -> None:
    """A numeric Last-Event-ID wins over ?after; anything else is ignored."""
    assert _resume_point(after, header) == start


def test_the_revealed_seed_is_shown_apart_from_game_events() -> None:
    """The engine's seed event becomes `seed_revealed`; a hidden event has `event: null`;
    what the chain covers is shown to everyone, a seat's opening only to that seat."""
    seed = common_pb2.RedactedEvent(
        version=9, seed_revealed=common_pb2.SeedRevealed(seed=b"\xab\xcd"), hash=b"\x01"
    )
    hidden = common_pb2.RedactedEvent(version=8, hash=b"\x02", seat_commitments=[b"\x03"])
    shown = common_pb2.RedactedEvent(
        version=7,
        event_json='{"turn_ended": {"seat": 1}}',
        public_payload=b"\x0a\x00",
        commitment=b"\x04",
        salt=b"\x05",
        seat_payload=b"\x0a\x02\x08\x01",
    )
    assert render_redacted(seed)["seed_revealed"] == "abcd"
    assert render_redacted(seed)["event"] is None
    assert render_redacted(hidden)["event"] is None and "seed_revealed" not in render_redacted(
        hidden
    )
    assert render_redacted(hidden)["public_payload"] is None
    assert render_redacted(hidden)["seat_commitments"] == ["03"]
    assert "salt" not in render_redacted(hidden) and "seat_payload" not in render_redacted(hidden)
    rendered = render_redacted(shown)
    assert rendered["event"] == {"turn_ended": {"seat": 1}}
    assert rendered["public_payload"] == "CgA=" and rendered["commitment"] == "04"
    assert rendered["salt"] == "05" and rendered["seat_payload"] == "CgIIAQ=="


def test_a_command_reply_is_built_in_the_shape_of_its_response_model() -> None:
    """The command route builds its JSON without the model: every event has every field
    EventOut renders, null where absent, and the same values."""
    events = [
        common_pb2.RedactedEvent(
            version=9, seed_revealed=common_pb2.SeedRevealed(seed=b"\xab"), hash=b"\x01"
        ),
        common_pb2.RedactedEvent(version=8, hash=b"\x02", seat_commitments=[b"\x03"]),
        common_pb2.RedactedEvent(
            version=7,
            command_id="c7",
            seat=1,
            time_ms=5,
            event_json='{"turn_ended": {"seat": 1}}',
            text="Seat 1 ends the turn.",
            public_payload=b"\x0a\x00",
            commitment=b"\x04",
            salt=b"\x05",
            seat_payload=b"\x0a\x02\x08\x01",
        ),
    ]
    for event in events:
        written = json.loads(orjson.dumps(event_out(event)))
        assert written == EventOut(**render_redacted(event)).model_dump(mode="json")
