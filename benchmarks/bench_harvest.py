"""Harvest: complete random games per second, per player count, and the greedy bot's
scores and win rate against random play (``make bench``).

    python -m benchmarks harvest                      # the figures
    python -m benchmarks.bench_harvest --digest 300   # one hash over 300 games a seat count

``--digest N`` plays N seeded random games per player count and prints one SHA-256
over them all (see :mod:`benchmarks.digest`): run it before and after a change that must
not change behaviour (a refactoring, a speed-up) and compare the two lines.
"""

from __future__ import annotations

import hashlib
import statistics
import sys
import time

from benchmarks.digest import play_into
from engines.core.bots import RandomBot
from engines.core.contract import TableConfig
from engines.core.play import Table
from engines.harvest.bots import HarvestGreedyBot
from engines.harvest.content import content
from engines.harvest.engine import ENGINE

GAMES = 20
BOT_GAMES = 10
DIGEST_OPTIONS: tuple[dict[str, bool], ...] = ({}, {"draft": True}, {"first_game": True})
CHALLENGES = tuple(c.id for c in content().challenges)


def _random_game(seats: int, seed: int) -> int:
    """One game chosen uniformly among legal commands, by the game's random bot (as
    ``bench_freunde`` plays them): it lists the legal moves and builds only the command
    it picks, the same pick from the same seeded ``random.Random`` as choosing among
    built commands; the number of commands."""
    bot = ENGINE.bots["random"](seed)
    config = TableConfig(f"bench-{seats}-{seed}", seats)
    table = Table.create(ENGINE, config, seed.to_bytes(8, "big"))
    table.play(lambda t, seat: bot.choose(ENGINE, t.state, seat))
    return len(table.commands)


def log_digest(games: int) -> str:
    """SHA-256 over the complete event logs and legal-command lists of ``games`` seeded
    random games at each player count (options rotating plain / draft / first game;
    every other solo game plays a Solo Challenge)."""
    total = hashlib.sha256()
    for seats in (1, 2, 3, 4):
        for seed in range(games):
            options: dict[str, object] = dict(DIGEST_OPTIONS[seed % len(DIGEST_OPTIONS)])
            if seats == 1 and seed % 2:
                options["challenge"] = CHALLENGES[seed // 2 % len(CHALLENGES)]
            config = TableConfig(f"digest-{seats}-{seed}", seats, options)
            play_into(ENGINE, config, seed, total)
    return total.hexdigest()


def _bot_game(seats: int, seed: int, greedy: set[int]) -> Table:
    """One game between Harvest's greedy bot (in ``greedy`` seats) and random bots."""
    bots = {
        s: HarvestGreedyBot(seed * 10 + s) if s in greedy else RandomBot(seed * 10 + s)
        for s in range(seats)
    }
    config = TableConfig(f"bots-{seats}-{seed}", seats)
    table = Table.create(ENGINE, config, seed.to_bytes(8, "big"))
    table.play(lambda t, seat: bots[seat].choose(ENGINE, t.state, seat))
    return table


def bots() -> None:
    """The greedy bot's scores solo and against a random bot (seats alternating), and
    what it leaves unused (Coins, Water, Fertilizer, Seeds: Game End's tie-break)."""
    solo = [_bot_game(1, seed, {0}).state.final[0] for seed in range(BOT_GAMES)]
    print(
        f"harvest greedy solo: score mean {statistics.mean(f.total for f in solo):.1f}, "
        f"max {max(f.total for f in solo)}, leftovers mean "
        f"{statistics.mean(f.leftovers for f in solo):.1f} ({BOT_GAMES} games)",
        flush=True,
    )
    wins, greedy_scores, random_scores = 0, [], []
    for seed in range(BOT_GAMES):
        seat = seed % 2
        state = _bot_game(2, seed, {seat}).state
        wins += state.winners == (seat,)
        greedy_scores.append(state.final[seat].total)
        random_scores.append(state.final[1 - seat].total)
    print(
        f"harvest greedy vs random (2p): greedy wins {wins}/{BOT_GAMES} "
        f"({100 * wins / BOT_GAMES:.0f}%), score mean greedy "
        f"{statistics.mean(greedy_scores):.1f} vs random {statistics.mean(random_scores):.1f}",
        flush=True,
    )


def main() -> None:
    for seats in (1, 2, 3, 4):
        start, cpu = time.perf_counter(), time.process_time()
        commands = sum(_random_game(seats, seed) for seed in range(GAMES))
        elapsed, used = time.perf_counter() - start, time.process_time() - cpu
        print(
            f"harvest {seats}p: {GAMES / elapsed:7.1f} games/s, {GAMES / used:7.1f} per CPU s "
            f"({commands / elapsed:8.0f} commands/s, {commands / GAMES:.0f} commands/game)",
            flush=True,
        )
    bots()


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--digest":
        print(log_digest(int(sys.argv[2])))
    else:
        main()
