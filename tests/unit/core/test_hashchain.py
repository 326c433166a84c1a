"""The event hash chain: a sealed log verifies; any edit is found at its version."""

from __future__ import annotations

from engines.core.hashchain import GENESIS, seal, verify_chain
from proto import common_pb2


def _log(n: int) -> list[common_pb2.StoredEvent]:
    events = []
    prev = GENESIS
    for version in range(1, n + 1):
        event = seal(
            common_pb2.StoredEvent(
                version=version, command_id=f"c{version}", seat=0, time_ms=1000 + version,
                payload=f"event {version}".encode(),
            ),
            prev,
        )  # fmt: skip
        events.append(event)
        prev = event.hash
    return events


def test_a_sealed_log_verifies() -> None:
    """Versions 1..n, each linked to the one before."""
    check = verify_chain(_log(5))
    assert check.ok
    assert check.head_version == 5
    assert check.first_bad_version == 0


def test_an_edited_payload_is_detected_at_its_version() -> None:
    """Changing one stored event's payload breaks its own hash."""
    log = _log(5)
    log[2].payload = b"forged"
    check = verify_chain(log)
    assert not check.ok
    assert check.first_bad_version == 3


def test_a_resealed_edit_breaks_the_next_link() -> None:
    """Re-sealing a forged event still breaks the link from the event after it."""
    log = _log(5)
    forged = common_pb2.StoredEvent()
    forged.CopyFrom(log[1])
    forged.payload = b"forged"
    log[1] = seal(forged, log[0].hash)
    check = verify_chain(log)
    assert not check.ok
    assert check.first_bad_version == 3


def test_a_missing_event_is_detected() -> None:
    """Dropping an event leaves a version gap."""
    log = _log(4)
    del log[1]
    check = verify_chain(log)
    assert not check.ok
    assert check.first_bad_version == 2


def test_the_time_is_under_the_hash() -> None:
    """Even the recorded time cannot be changed unnoticed."""
    log = _log(3)
    log[0].time_ms += 1
    assert verify_chain(log).first_bad_version == 1
