"""Seat tokens: fresh secrets, hashed, matched to their seat, malformed headers refused."""

from __future__ import annotations

import pytest

from gateway.seats import bearer_token, new_tokens, seat_of, token_hash, token_table


def test_each_seat_gets_its_own_unguessable_token_naming_its_table() -> None:
    """Tokens are distinct, URL-safe, carry 256 bits and name their table."""
    tokens = new_tokens("t1", 4)
    assert len(set(tokens)) == 4
    assert all(token.startswith("t1.") and len(token) == 3 + 43 for token in tokens)
    assert {token_table(token) for token in tokens} == {"t1"}
    assert token_table("K44Pabc") is None  # a token of a table from before names none


def test_a_token_names_its_own_seat_and_no_other() -> None:
    """The hash of seat 2's token matches seat 2 only; an unknown token matches none."""
    tokens = new_tokens("t1", 3)
    hashes = [token_hash(t) for t in tokens]
    assert [seat_of(t, hashes) for t in tokens] == [0, 1, 2]
    assert seat_of("someone else", hashes) is None
    assert seat_of(tokens[0], []) is None


@pytest.mark.parametrize(
    ("header", "token"),
    [
        (None, None),
        ("Bearer abc", "abc"),
        ("bearer  abc ", "abc"),
        ("Basic abc", ""),
        ("Bearer", ""),
        ("abc", ""),
    ],
)
def test_only_a_bearer_header_yields_a_token(header: str | None, token: str | None) -> None:
    """No header means a spectator (None); any other scheme is an invalid token ("")."""
    assert bearer_token(header) == token
