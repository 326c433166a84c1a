"""The event hash chain, and the salted commitments through which hidden values enter it.

Every reader of a table (spectators included) gets each event's hash, so a hash must not
give away what it protects: a hash over a hidden card could be opened by trying every
card. So the hash covers only what every reader can see, and each hidden value enters the
chain through a commitment salted with a secret derived from the table's seed. The seed
is committed (``sha256(seed)``) when the table is created and revealed by its last event.

* ``salt(v, who) = HMAC-SHA256(seed, "salt:<table_id>:<v>:<who>")``, ``who`` a seat
  number or ``"all"`` (:class:`Salts`).
* ``commit(salt, *parts) = sha256(salt || len(part) as 8 bytes big-endian || part ...)``
  (:func:`commit`): each part is length-prefixed, so no two lists of parts collide.
* For event ``v`` with game payload ``p`` produced by command bytes ``c``:
  ``seat_commitments[k] = commit(salt(v, k), redact(p, k))`` for every seat ``k`` (no part
  when seat ``k`` sees nothing of it), and ``commitment = commit(salt(v, "all"), p, c)``.
  Every seat gets a commitment, whether or not it sees more than a spectator, so which
  seats hold a secret is not told by the chain either.
* ``hash = sha256(prev_hash || EventLink bytes)``, where the :class:`EventLink` holds
  version, command id, seat, time, the spectator's form of the event (or nothing, when a
  spectator sees nothing of it; the revealed seed as it is) and the commitments
  (:func:`link`). The first event's ``prev_hash`` is :data:`GENESIS` (32 zero bytes).

Who can check what: anyone can check every link at any time (:func:`verify_chain` takes
``StoredEvent`` and ``RedactedEvent`` alike); a seat is handed its own salts, so it can
check the commitment to its own view of each event while the game runs
(:func:`opens_own_commitment`); once the seed is revealed, anyone can derive every salt
and check every commitment against the full log (``engines.core.audit``).

The salt messages cannot collide with the rules' ``Rng`` keys (``"<table_id>:<v>"``): a
table id has no ``:``.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from dataclasses import dataclass, field

from engines.core.canonical import message_bytes
from engines.core.rng import KeyedMac
from proto import common_pb2

__all__ = [
    "EVERYONE",
    "GENESIS",
    "ChainCheck",
    "Linked",
    "Salts",
    "commit",
    "link",
    "opens_own_commitment",
    "seal",
    "seal_all",
    "sealed_hash",
    "verify_chain",
]

GENESIS = bytes(32)
EVERYONE = "all"


@dataclass(frozen=True, slots=True)
class Salts:
    """The salts of one table, derived from its seed (secret until the game ends)."""

    seed: bytes
    table_id: str
    _mac: KeyedMac = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # A command takes a salt per seat and event: the seed's pads are hashed once.
        object.__setattr__(self, "_mac", KeyedMac(self.seed))

    def of(self, version: int, who: int | str) -> bytes:
        """``salt(version, who)``: ``who`` is a seat number or :data:`EVERYONE`."""
        return self._mac.digest(f"salt:{self.table_id}:{version}:{who}".encode())


def commit(salt: bytes, *parts: bytes) -> bytes:
    """``sha256(salt || len(part) || part ...)``, lengths as 8 bytes big-endian."""
    digest = hashlib.sha256(salt)
    for part in parts:
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.digest()


# What a hash covers has the same field names in both: any reader can check a chain.
Linked = common_pb2.StoredEvent | common_pb2.RedactedEvent


def link(event: Linked) -> common_pb2.EventLink:
    """The part of ``event`` its hash covers: what every reader can see."""
    linked = common_pb2.EventLink(
        version=event.version,
        command_id=event.command_id,
        seat=event.seat,
        time_ms=event.time_ms,
        seat_commitments=list(event.seat_commitments),
        commitment=event.commitment,
    )
    if event.HasField("seed_revealed"):
        linked.seed_revealed.CopyFrom(event.seed_revealed)
    elif event.HasField("control"):
        linked.control.CopyFrom(event.control)
    elif event.HasField("public_payload"):
        linked.public_payload = event.public_payload
    return linked


def sealed_hash(event: Linked) -> bytes:
    """The hash ``event`` must carry, computed from its link and ``prev_hash``."""
    return hashlib.sha256(event.prev_hash + message_bytes(link(event))).digest()


def seal(event: common_pb2.StoredEvent, prev_hash: bytes) -> common_pb2.StoredEvent:
    """A copy of ``event`` linked to ``prev_hash`` and carrying its own hash."""
    sealed = common_pb2.StoredEvent()
    sealed.CopyFrom(event)
    sealed.prev_hash = prev_hash
    sealed.hash = sealed_hash(sealed)
    return sealed


def seal_all(
    events: Iterable[common_pb2.StoredEvent], prev_hash: bytes = GENESIS
) -> list[common_pb2.StoredEvent]:
    """Copies of ``events`` (numbered already) chained one after the other onto ``prev_hash``."""
    sealed = []
    for event in events:
        sealed.append(seal(event, prev_hash))
        prev_hash = sealed[-1].hash
    return sealed


def opens_own_commitment(event: common_pb2.RedactedEvent, seat: int) -> bool:
    """Whether the salt and seat payload handed to ``seat`` open its commitment."""
    commitments = list(event.seat_commitments)
    if not 0 <= seat < len(commitments):
        return False
    parts = (event.seat_payload,) if event.HasField("seat_payload") else ()
    return hmac.compare_digest(commit(event.salt, *parts), commitments[seat])


@dataclass(frozen=True, slots=True)
class ChainCheck:
    """The result of walking a log: ``first_bad_version`` is 0 when all holds."""

    ok: bool
    first_bad_version: int
    head_version: int
    head_hash: bytes
    reason: str = ""


def verify_chain(events: Iterable[Linked], start: int = 1, prev: bytes = GENESIS) -> ChainCheck:
    """Walk the log from version ``start`` (linked to ``prev``): versions consecutive,
    links intact, hashes right. Needs nothing secret."""
    expected_version = start
    for event in events:
        bad = ""
        if event.version != expected_version:
            bad = f"expected version {expected_version}, found {event.version}"
        elif event.prev_hash != prev:
            bad = f"version {event.version} does not link to the event before it"
        elif event.hash != sealed_hash(event):
            bad = f"version {event.version} was altered after it was written"
        if bad:
            return ChainCheck(False, expected_version, expected_version - 1, prev, bad)
        prev = event.hash
        expected_version += 1
    return ChainCheck(True, 0, expected_version - 1, prev)
