"""The only source of chance in rules code.

Algorithm (pinned by test vectors in ``tests/unit/core/test_rng.py``):

* key  = HMAC-SHA256(key=seed, msg=f"{table_id}:{version}".encode())
* block_i = HMAC-SHA256(key=key, msg=i as 8 bytes big-endian), i = 0, 1, 2, ...
* the stream is block_0 || block_1 || ...; ``u64`` takes the next 8 bytes big-endian.
* ``below(n)`` draws ``u64`` values and rejects those >= 2**64 - (2**64 % n), then
  returns the value mod n, so every result is exactly equally likely.
* ``shuffle`` is Fisher-Yates from the last index down, with ``below(i + 1)``.

A command applied at version ``v`` (the table's head before it) gets
``Rng(seed, table_id, v)``; set-up gets version 0. Re-running the command log with
the revealed seed therefore reproduces every shuffle and roll.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from hashlib import sha256
from typing import Protocol, TypeVar

__all__ = ["KeyedMac", "Rng", "hmac_sha256"]

T = TypeVar("T")

_U64 = 1 << 64

# HMAC-SHA256 (RFC 2104) from two SHA-256 hashes: SHA-256's block is 64 bytes, and the
# key is padded to it and xored with 0x36 (inner) or 0x5c (outer), here by translation.
_BLOCK = 64
_INNER = bytes(x ^ 0x36 for x in range(256))
_OUTER = bytes(x ^ 0x5C for x in range(256))


class _Hash(Protocol):
    """What the HMAC here asks of a ``hashlib`` hash object."""

    def update(self, data: bytes, /) -> None: ...

    def digest(self) -> bytes: ...

    def copy(self) -> _Hash: ...


# SHA-256 with a key's inner and outer pads hashed in, before the message.
_Pads = tuple[_Hash, _Hash]


def _pads(key: bytes) -> _Pads:
    """SHA-256 with the key's inner and outer pads hashed in (RFC 2104)."""
    if len(key) > _BLOCK:
        key = sha256(key).digest()
    key = key.ljust(_BLOCK, b"\0")
    return sha256(key.translate(_INNER)), sha256(key.translate(_OUTER))


def _keyed(inner: _Hash, outer: _Hash, message: bytes) -> bytes:
    """HMAC-SHA256 of ``message`` under the key whose pads ``inner`` and ``outer`` have
    hashed in (see ``_pads``; both are used up)."""
    inner.update(message)
    outer.update(inner.digest())
    return outer.digest()


def hmac_sha256(key: bytes, message: bytes) -> bytes:
    """The bytes of ``hmac.digest(key, message, "sha256")`` in about half its time for
    the short keys and messages drawn here: ``hmac.digest`` sets up OpenSSL's MAC on
    every call, which costs more than the two hashes themselves."""
    return _keyed(*_pads(key), message)


class KeyedMac:
    """HMAC-SHA256 under one key whose pads are hashed once, for a key that signs many
    messages (a table's seed keys every salt of the chain): each message then costs two
    hash copies and two short hashes."""

    __slots__ = ("_inner", "_outer")

    def __init__(self, key: bytes) -> None:
        self._inner, self._outer = _pads(key)

    def digest(self, message: bytes) -> bytes:
        return _keyed(self._inner.copy(), self._outer.copy(), message)


# A table's seed keys the first HMAC of every command that draws: its pads are hashed
# once and copied for each (a hash object's copy costs less than hashing the pad's
# block again).
_seed_mac = functools.lru_cache(maxsize=64)(KeyedMac)


class Rng:
    """A deterministic byte stream keyed by (seed, table id, version)."""

    __slots__ = ("_block", "_buffer", "_key", "_seed", "_table_id", "_version")

    def __init__(self, seed: bytes, table_id: str, version: int) -> None:
        # The key is derived at the first draw: most commands draw nothing.
        self._seed = seed
        self._table_id = table_id
        self._version = version
        self._key = b""
        self._block = 0
        self._buffer = b""

    def _take(self, n: int) -> bytes:
        if not self._key:
            stream = f"{self._table_id}:{self._version}".encode()
            self._key = _seed_mac(self._seed).digest(stream)
        while len(self._buffer) < n:
            counter = self._block.to_bytes(8, "big")
            self._buffer += hmac_sha256(self._key, counter)
            self._block += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def u64(self) -> int:
        """The next 64 bits of the stream as an unsigned integer."""
        return int.from_bytes(self._take(8), "big")

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = _U64 - (_U64 % n)
        while True:
            value = self.u64()
            if value < limit:
                return value % n

    def between(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]``."""
        return low + self.below(high - low + 1)

    def choice(self, items: Sequence[T]) -> T:
        """One item, uniformly."""
        return items[self.below(len(items))]

    def shuffle(self, items: Sequence[T]) -> tuple[T, ...]:
        """A uniformly shuffled copy (Fisher-Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out)
