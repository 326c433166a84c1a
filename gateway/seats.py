"""Seat tokens: generated at table creation, shown once, stored only as SHA-256 hashes.

A request names its seat with ``Authorization: Bearer <token>``. The token is hashed and
compared with every seat's stored hash in constant time, so neither a match nor its
position leaks through timing.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

__all__ = ["bearer_token", "new_tokens", "seat_of", "token_hash"]

TOKEN_BYTES = 32


def new_tokens(seats: int) -> list[str]:
    """One fresh secret token per seat."""
    return [secrets.token_urlsafe(TOKEN_BYTES) for _ in range(seats)]


def token_hash(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


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
