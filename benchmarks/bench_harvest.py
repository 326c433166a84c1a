"""Harvest: complete random games per second, per player count (``make bench``)."""

from __future__ import annotations

import random
import time

from engines.core.contract import TableConfig
from engines.core.play import Table
from engines.harvest.engine import ENGINE

GAMES = 20


def _random_game(seats: int, seed: int) -> int:
    """One game chosen uniformly among legal commands; the number of commands."""
    choices = random.Random(seed)
    config = TableConfig(f"bench-{seats}-{seed}", seats)
    table = Table.create(ENGINE, config, seed.to_bytes(8, "big"))
    table.play(lambda t, seat: choices.choice(ENGINE.legal_commands(t.state, seat)))
    return len(table.commands)


def main() -> None:
    for seats in (1, 2, 3, 4):
        start = time.perf_counter()
        commands = sum(_random_game(seats, seed) for seed in range(GAMES))
        elapsed = time.perf_counter() - start
        print(
            f"harvest {seats}p: {GAMES / elapsed:7.1f} games/s "
            f"({commands / elapsed:8.0f} commands/s, {commands / GAMES:.0f} commands/game)",
            flush=True,
        )


if __name__ == "__main__":
    main()
