"""Freunde's engine: complete random games per second, legal_commands calls per second,
and how its greedy bot fares against random players.

    python -m benchmarks freunde                      # the figures
    python -m benchmarks.bench_freunde --digest 300   # one hash over 300 games a seat count

Pure engine, one process, no I/O. Random games are played by the game's random bot
(uniform among the legal commands) with the default table options; each figure is
measured for a fixed time budget (wall clock), and also given per CPU second. The
greedy bot (``ENGINE.bots["greedy"]``) then plays seeded games against random bots, one
seat each, its seat moving round the table: its win rate (shared wins count), the mean
scores, and how many games ended by the Emperor rather than the round limit.

``--digest N`` plays N seeded random games at 2, 3 and 4 players and prints a SHA-256
per player count and one over all (see :mod:`benchmarks.digest`): run it before and
after a change that must not change behaviour (a refactoring, a speed-up) and compare
the lines.
"""

from __future__ import annotations

import hashlib
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from google.protobuf.message import Message

from benchmarks.digest import play_into
from engines.core.contract import TableConfig
from engines.core.game import Bot
from engines.core.play import Table
from engines.freunde.engine import ENGINE
from engines.freunde.state import FreundeState

SECONDS = 8.0
# The digest's games rotate through these options: the default safeguard, and short
# games that end on it.
DIGEST_OPTIONS: tuple[dict[str, int], ...] = ({}, {"round_limit": 3}, {"round_limit": 12})


def random_game(seats: int, index: int) -> Table:
    """One complete game, uniform over the legal commands."""
    bot = ENGINE.bots["random"](index)
    table = Table.create(ENGINE, TableConfig(f"bench-{seats}-{index}", seats), b"bench")
    table.play(lambda t, seat: bot.choose(ENGINE, t.state, seat))
    return table


def games_per_second(seats: int) -> tuple[float, float, float]:
    """Complete games per wall second and per CPU second, and their mean length."""
    started, cpu, games, commands = time.perf_counter(), time.process_time(), 0, 0
    while time.perf_counter() - started < SECONDS or games == 0:
        commands += len(random_game(seats, games).commands)
        games += 1
    wall, used = time.perf_counter() - started, time.process_time() - cpu
    return games / wall, games / used, commands / games


GREEDY_GAMES = 20


@dataclass
class Duel:
    """Greedy against random bots over some games of one seat count."""

    games: int = 0
    greedy_wins: int = 0
    by_emperor: int = 0
    greedy_points: int = 0
    random_points: float = 0.0


def _seated(players: list[Bot]) -> Callable[[Table, int], Message]:
    """The seat to act lets its own bot choose."""
    return lambda table, seat: players[seat].choose(ENGINE, table.state, seat)


def greedy_against_random(seats: int, games: int = GREEDY_GAMES) -> Duel:
    """``games`` seeded games of the greedy bot against ``seats - 1`` random bots."""
    duel = Duel()
    for index in range(games):
        mine = index % seats
        players = [
            ENGINE.bots["greedy" if seat == mine else "random"](index * seats + seat)
            for seat in range(seats)
        ]
        config = TableConfig(f"duel-{seats}-{index}", seats)
        table = Table.create(ENGINE, config, index.to_bytes(8, "big"))
        table.play(_seated(players))
        outcome = ENGINE.outcome(table.state)
        duel.games += 1
        duel.greedy_wins += mine in outcome.winners
        duel.by_emperor += outcome.breakdown["end_reason"] == "emperor"
        duel.greedy_points += outcome.scores[mine]
        others = [score for seat, score in enumerate(outcome.scores) if seat != mine]
        duel.random_points += sum(others) / len(others)
    return duel


def sample_states(count: int) -> list[tuple[FreundeState, int]]:
    """Positions met in random 3-player games, with the seat to act."""
    positions: list[tuple[FreundeState, int]] = []
    index = 0
    while len(positions) < count:
        table = Table.create(ENGINE, TableConfig(f"sample-{index}", 3), b"bench")
        chooser = random.Random(index)
        while not ENGINE.outcome(table.state).finished and len(positions) < count:
            seat = ENGINE.outcome(table.state).to_act[0]
            positions.append((table.state, seat))
            table.execute(seat, chooser.choice(ENGINE.legal_commands(table.state, seat)))
        index += 1
    return positions


def legal_commands_per_second() -> tuple[float, float, float]:
    """legal_commands calls per wall and per CPU second over varied positions, mean length."""
    positions = sample_states(2_000)
    started, cpu, calls, listed = time.perf_counter(), time.process_time(), 0, 0
    while time.perf_counter() - started < SECONDS:
        for state, seat in positions:
            listed += len(ENGINE.legal_commands(state, seat))
            calls += 1
    wall, used = time.perf_counter() - started, time.process_time() - cpu
    return calls / wall, calls / used, listed / calls


def log_digest(games: int) -> list[str]:
    """SHA-256 over the complete event logs and legal-command lists of ``games`` seeded
    random games at each player count: one line per count, then one over all."""
    everything = hashlib.sha256()
    lines = []
    for seats in (2, 3, 4):
        total = hashlib.sha256()
        for seed in range(games):
            options = DIGEST_OPTIONS[seed % len(DIGEST_OPTIONS)]
            config = TableConfig(f"digest-{seats}-{seed}", seats, dict(options))
            play_into(ENGINE, config, seed, total)
        lines.append(f"{seats} players: {total.hexdigest()}")
        everything.update(total.digest())
    lines.append(f"all: {everything.hexdigest()}")
    return lines


def main() -> None:
    # Per CPU second too: on a shared machine the wall-clock figure is only a floor.
    for seats in (2, 3, 4):
        wall, cpu, length = games_per_second(seats)
        print(
            f"freunde {seats} players: {wall:8.2f} complete random games/s "
            f"({cpu:.2f} per CPU second; {length:.0f} commands per game)",
            flush=True,
        )
    wall, cpu, size = legal_commands_per_second()
    print(
        f"freunde legal_commands: {wall:10.0f} calls/s ({cpu:.0f} per CPU second; "
        f"mean {size:.1f} commands listed)",
        flush=True,
    )
    for seats in (2, 3, 4):
        duel = greedy_against_random(seats)
        print(
            f"freunde greedy vs {seats - 1} random: wins {duel.greedy_wins}/{duel.games}, "
            f"mean score {duel.greedy_points / duel.games:.1f} "
            f"(random {duel.random_points / duel.games:.1f}), "
            f"{duel.by_emperor}/{duel.games} ended by the Emperor",
            flush=True,
        )


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--digest":
        print("\n".join(log_digest(int(sys.argv[2]))))
    else:
        main()
