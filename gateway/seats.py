"""Seat tokens and invite codes: generated here, shown once, stored only as SHA-256 hashes.

A token reads ``<table id>.<secret>``: it names its table (so a player can be found from
any of its tokens) and holds 32 random bytes. A request names its seat with
``Authorization: Bearer <token>``; the token is hashed and compared with every seat's
stored hash in constant time, so neither a match nor its position leaks through timing.
Tables from before seats were claimable kept their tokens' hashes in the table's meta;
those tokens are still checked there (:func:`seat_of`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

__all__ = [
    "bearer_token",
    "new_invite",
    "new_token",
    "new_tokens",
    "seat_of",
    "token_digest",
    "token_hash",
    "token_table",
]

TOKEN_BYTES = 32


def new_token(table_id: str) -> str:
    """A fresh secret token for a seat of ``table_id``."""
    return f"{table_id}.{secrets.token_urlsafe(TOKEN_BYTES)}"


def new_tokens(table_id: str, seats: int) -> list[str]:
    """One fresh secret token per seat."""
    return [new_token(table_id) for _ in range(seats)]


def new_invite() -> str:
    """An invite code for an unlisted table (short enough to read out, 80 random bits)."""
    return secrets.token_urlsafe(10)


def token_hash(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def token_digest(token: str) -> str:
    """The hex SHA-256 a seating record keeps of a token or an invite code."""
    return hashlib.sha256(token.encode()).hexdigest()


def token_table(token: str) -> str | None:
    """The table a token names; ``None`` for a token without one (an older table's)."""
    table_id, dot, secret = token.partition(".")
    return table_id if dot and table_id and secret else None


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header; ``None`` if absent.

    A header in another scheme, or an empty token, is returned as ``""`` so the caller
    can refuse it as an invalid token rather than treat the caller as a spectator.
    """
    if authorization is None:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer":
        return ""
    return token.strip()


def seat_of(token: str, token_hashes: Sequence[bytes]) -> int | None:
    """The seat whose stored hash matches ``token``; ``None`` when none does."""
    presented = token_hash(token)
    found: int | None = None
    for seat, stored in enumerate(token_hashes):
        if hmac.compare_digest(presented, bytes(stored)) and found is None:
            found = seat
    return found
