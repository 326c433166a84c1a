"""The behaviour digest the rules benchmarks share: one SHA-256 over seeded random games.

``python -m benchmarks.bench_<game> --digest N`` plays N seeded games per player count
with :func:`play_into` and prints the hashes: every event of every game and every list
of legal commands met on the way. The player picks uniformly from the legal commands
sorted by their bytes, so the digest does not depend on the order ``legal_commands``
lists them in. Run it before and after a change that must not change behaviour (a
refactoring, a speed-up) and compare the lines; ``tests/engines/test_digests.py`` does
so for a few games of each engine against hashes recorded before the rules speed-ups.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from google.protobuf.message import Message

from engines.core.contract import Engine, TableConfig
from engines.core.play import Table

__all__ = ["Hash", "play_into", "sorted_picker"]


class Hash(Protocol):
    """What ``hashlib`` objects offer that the digest needs."""

    def update(self, data: bytes, /) -> None: ...


def sorted_picker(
    engine: Engine[Any, Any, Any], choices: random.Random, total: Hash
) -> Callable[[Table, int], Message]:
    """A uniform player over the legal commands sorted by their bytes, feeding every
    list it is offered into ``total``."""

    def pick(table: Table, seat: int) -> Message:
        listed = sorted(
            c.SerializeToString(deterministic=True)
            for c in engine.legal_commands(table.state, seat)
        )
        total.update(b"".join(listed))
        chosen = engine.command_type()
        chosen.ParseFromString(choices.choice(listed))
        return chosen

    return pick


def play_into(engine: Engine[Any, Any, Any], config: TableConfig, seed: int, total: Hash) -> Table:
    """Play one seeded game (table seed and player both from ``seed``) into ``total``:
    the legal-command lists as they are offered, then every event of the log."""
    table = Table.create(engine, config, seed.to_bytes(8, "big"))
    table.play(sorted_picker(engine, random.Random(seed), total))
    for event in table.events:
        total.update(event.SerializeToString(deterministic=True))
    return table
