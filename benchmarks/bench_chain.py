"""What keeping secrets out of the hash chain costs, per command and per event.

    python -m benchmarks chain

In process, no Redis: seeded random games of each game are played once; then each
command's batch is turned into stored events the way the engine service does it
(``Table.stored_log``: payload and command bytes, public form, one salted commitment per
seat and one for the whole event, then the chain), and each stored event is rendered for one seat
(``render``: what ``/events`` serves). Beside them, the rules' own work for the same
commands (``decide`` + ``evolve``), and the stored size of an event with and without
its public form and commitments.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import engines
from engines.core.canonical import message_bytes
from engines.core.contract import TableConfig
from engines.core.disclosure import render
from engines.core.hashchain import Salts
from engines.core.play import Table
from proto import common_pb2

GAMES = 6
SEATS = 3
REPEAT = 5


def _played(game: str, n: int) -> Table:
    engine = engines.get(game)
    options: dict[str, Any] = {"round_limit": 6} if game == "freunde" else {}
    table = Table.create(engine, TableConfig(f"bench-{n}", SEATS, options), b"bench-%d" % n)
    chooser = random.Random(n)
    table.play(lambda t, seat: chooser.choice(engine.legal_commands(t.state, seat)))
    return table


def _best_of(step: Callable[[], Any]) -> float:
    """The fastest of a few runs of ``step``, in seconds (the least disturbed one)."""
    times = []
    for _ in range(REPEAT):
        started = time.perf_counter()
        step()
        times.append(time.perf_counter() - started)
    return min(times)


def _without_disclosure(stored: common_pb2.StoredEvent) -> common_pb2.StoredEvent:
    bare = common_pb2.StoredEvent()
    bare.CopyFrom(stored)
    for name in ("public_payload", "seat_commitments", "commitment"):
        bare.ClearField(name)
    return bare


def _figures(game: str) -> None:
    engine = engines.get(game)
    tables = [_played(game, n) for n in range(GAMES)]
    commands = sum(len(t.commands) for t in tables)
    events = sum(len(t.events) for t in tables)

    def rules() -> None:
        for table in tables:
            again = Table.create(engine, table.config, table.seed)
            for record in table.commands:
                again.execute(record.seat, record.command)

    def disclosure() -> None:
        for table in tables:
            table.stored_log()

    logs = [t.stored_log() for t in tables]

    def rendering() -> None:
        for table, log in zip(tables, logs, strict=True):
            salts = Salts(table.seed, table.config.table_id)
            for stored in log:
                render(engine, stored, 0, salts)

    rules_s, disclosure_s, render_s = _best_of(rules), _best_of(disclosure), _best_of(rendering)
    bare = [len(message_bytes(_without_disclosure(e))) for log in logs for e in log]
    full = [len(message_bytes(e)) for log in logs for e in log]
    print(
        f"{game} ({SEATS} seats, {commands} commands, {events} events): rules "
        f"{rules_s / commands * 1e6:.0f} us a command; public form, commitments and chain "
        f"{disclosure_s / commands * 1e6:.0f} us a command "
        f"({disclosure_s / events * 1e6:.0f} us an event); rendering for a seat "
        f"{render_s / events * 1e6:.0f} us an event; stored event "
        f"{statistics.mean(full):.0f} bytes on average ({statistics.mean(bare):.0f} without "
        f"public form and commitments)"
    )


def main() -> None:
    for game in ("freunde", "harvest"):
        _figures(game)


if __name__ == "__main__":
    main()
