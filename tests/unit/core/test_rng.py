"""The seeded RNG: its algorithm is pinned, so a change of algorithm is caught."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest

from engines.core.rng import KeyedMac, Rng


def test_first_block_follows_the_documented_hmac_construction() -> None:
    """u64 is the first 8 bytes of HMAC(HMAC(seed, 'table:version'), counter 0)."""
    key = hmac.new(b"boardwright", b"table-1:0", hashlib.sha256).digest()
    block0 = hmac.new(key, (0).to_bytes(8, "big"), hashlib.sha256).digest()
    assert Rng(b"boardwright", "table-1", 0).u64() == int.from_bytes(block0[:8], "big")


@pytest.mark.parametrize("length", [0, 1, 32, 63, 64, 65, 200])
def test_seeds_of_any_length_follow_the_hmac_construction(length: int) -> None:
    """Seeds shorter than, equal to and longer than SHA-256's 64-byte block (a longer
    key is hashed first) key the stream as the standard library's HMAC does."""
    seed = bytes(range(length))
    key = hmac.new(seed, b"t:41", hashlib.sha256).digest()
    blocks = b"".join(
        hmac.new(key, n.to_bytes(8, "big"), hashlib.sha256).digest() for n in range(2)
    )
    rng = Rng(seed, "t", 41)
    assert [rng.u64() for _ in range(8)] == [
        int.from_bytes(blocks[i : i + 8], "big") for i in range(0, 64, 8)
    ]


@pytest.mark.parametrize("length", [0, 1, 64, 65, 200])
def test_a_keyed_mac_is_the_standard_hmac_for_every_message(length: int) -> None:
    """Its hashed pads are copied for each message, never used up by one."""
    key = bytes(range(length))
    mac = KeyedMac(key)
    for message in (b"salt:t:1:0", b"", b"salt:t:1:0", b"x" * 100):
        assert mac.digest(message) == hmac.new(key, message, hashlib.sha256).digest()


def test_u64_vectors_are_pinned() -> None:
    """Fixed vectors: these numbers change only if the algorithm changes."""
    rng = Rng(b"boardwright", "table-1", 0)
    assert [rng.u64() for _ in range(3)] == [
        6239925919023278204,
        3650304937674527863,
        9931505847495997975,
    ]
    assert Rng(b"", "", 0).u64() == 17344488361160460792


def test_die_and_shuffle_vectors_are_pinned() -> None:
    """below() and shuffle() over a pinned stream give pinned results."""
    rng = Rng(b"boardwright", "table-1", 7)
    assert [rng.below(6) for _ in range(12)] == [4, 4, 2, 0, 2, 1, 1, 3, 4, 4, 1, 4]
    assert Rng(b"boardwright", "table-1", 7).shuffle(range(10)) == (9, 5, 7, 6, 1, 2, 3, 0, 4, 8)


def test_streams_differ_by_seed_table_and_version() -> None:
    """Each (seed, table, version) names its own stream."""
    firsts = {
        Rng(seed, table, version).u64()
        for seed in (b"a", b"b")
        for table in ("t1", "t2")
        for version in (0, 1)
    }
    assert len(firsts) == 8


def test_below_is_uniform_enough() -> None:
    """Every face of a die comes up, none wildly more than the others."""
    rng = Rng(b"uniform", "t", 0)
    counts = Counter(rng.below(6) for _ in range(6000))
    assert set(counts) == set(range(6))
    assert all(800 < c < 1200 for c in counts.values())


def test_between_choice_and_shuffle_stay_in_range() -> None:
    """between() is inclusive; shuffle() is a permutation; choice() picks a member."""
    rng = Rng(b"s", "t", 3)
    values = {rng.between(2, 4) for _ in range(200)}
    assert values == {2, 3, 4}
    items = tuple("abcdefgh")
    assert sorted(rng.shuffle(items)) == sorted(items)
    assert rng.choice(items) in items


def test_below_rejects_an_empty_range() -> None:
    """There is no number below zero to draw."""
    with pytest.raises(ValueError):
        Rng(b"s", "t", 0).below(0)
