"""The event hash chain: a sealed log verifies, any edit of what it covers is found at its
version, and hidden values enter it only through salted commitments."""

from __future__ import annotations

import hashlib
import hmac

import pytest

import engines
from engines.core.bots import RandomBot
from engines.core.contract import TableConfig
from engines.core.disclosure import render
from engines.core.hashchain import (
    EVERYONE,
    GENESIS,
    Salts,
    commit,
    opens_own_commitment,
    seal,
    verify_chain,
)
from engines.core.play import Table
from proto import common_pb2

SEED = b"hash-chain-seed"
FREUNDE = engines.get("freunde")


@pytest.fixture(scope="module")
def table() -> Table:
    played = Table.create(FREUNDE, TableConfig("unit-chain", 3, {}), SEED)
    bot = RandomBot(5)
    while len(played.commands) < 40:
        seat = FREUNDE.outcome(played.state).to_act[0]
        played.execute(seat, bot.choose(FREUNDE, played.state, seat))
    assert not FREUNDE.outcome(played.state).finished
    return played


def _log(table: Table) -> list[common_pb2.StoredEvent]:
    return table.stored_log()


def test_salts_and_commitments_follow_the_documented_formulas() -> None:
    """salt = HMAC-SHA256(seed, "salt:<table>:<v>:<who>"); commit length-prefixes each part."""
    salts = Salts(b"seed", "t1")
    assert salts.of(7, 2) == hmac.new(b"seed", b"salt:t1:7:2", hashlib.sha256).digest()
    assert salts.of(7, EVERYONE) == hmac.new(b"seed", b"salt:t1:7:all", hashlib.sha256).digest()
    salt = salts.of(7, 2)
    expected = hashlib.sha256(salt + (2).to_bytes(8, "big") + b"ab" + bytes(8)).digest()
    assert commit(salt, b"ab", b"") == expected
    # Length prefixes: moving bytes from one part to the next changes the commitment.
    assert commit(salt, b"a", b"b") != commit(salt, b"ab", b"")
    assert commit(salt) != commit(salt, b"")


def test_a_sealed_log_verifies(table: Table) -> None:
    """Versions 1..n, each linked to the one before."""
    log = _log(table)
    check = verify_chain(log)
    assert check.ok, check.reason
    assert check.head_version == len(log) and check.first_bad_version == 0
    assert log[0].prev_hash == GENESIS


@pytest.mark.parametrize("field", ["public_payload", "commitment", "seat_commitments", "time_ms"])
def test_an_edit_of_what_the_hash_covers_is_detected_at_its_version(
    table: Table, field: str
) -> None:
    """The public form, the commitments and even the time are under the hash."""
    log = _log(table)
    target = log[4]
    if field == "public_payload":
        target.public_payload += b"\x00"
    elif field == "commitment":
        target.commitment = bytes(32)
    elif field == "seat_commitments":
        target.seat_commitments[1] = bytes(32)
    else:
        target.time_ms += 1
    check = verify_chain(log)
    assert not check.ok and check.first_bad_version == 5


def test_the_hidden_payload_is_not_under_the_hash_but_under_its_commitment(table: Table) -> None:
    """A hash over a hidden card could be opened by trying cards, so the payload enters the
    chain through the salted commitment: editing it leaves the links intact and breaks the
    commitment, which anyone can check once the seed is out (see the audit)."""
    log = _log(table)
    target = log[4]
    salts = Salts(SEED, "unit-chain")
    assert target.commitment == commit(
        salts.of(target.version, EVERYONE), target.payload, target.command
    )
    target.payload += b"\x00"
    assert verify_chain(log).ok
    assert target.commitment != commit(
        salts.of(target.version, EVERYONE), target.payload, target.command
    )


def test_a_resealed_edit_breaks_the_next_link(table: Table) -> None:
    """Re-sealing a forged event still breaks the link from the event after it."""
    log = _log(table)
    forged = common_pb2.StoredEvent()
    forged.CopyFrom(log[1])
    forged.public_payload = b"forged"
    log[1] = seal(forged, log[0].hash)
    check = verify_chain(log)
    assert not check.ok
    assert check.first_bad_version == 3


def test_a_missing_event_is_detected(table: Table) -> None:
    """Dropping an event leaves a version gap."""
    log = _log(table)
    del log[1]
    check = verify_chain(log)
    assert not check.ok
    assert check.first_bad_version == 2


def test_every_reader_can_check_the_links_and_a_seat_its_own_secrets(table: Table) -> None:
    """What a spectator or a seat is given verifies as a chain; each seat's salt and view
    open its own commitment and no other seat's."""
    log = _log(table)
    salts = Salts(SEED, "unit-chain")
    for viewer in (None, 0, 1, 2):
        shown = [render(FREUNDE, event, viewer, salts) for event in log]
        assert verify_chain(shown).ok
        if viewer is None:
            assert not any(event.salt for event in shown)
            continue
        assert all(opens_own_commitment(event, viewer) for event in shown)
        other = (viewer + 1) % 3
        assert not any(opens_own_commitment(event, other) for event in shown)
