"""Bardwood Grove: random games per second, greedy and random scores, and how often every
piece of content is used (``make bench``).

python -m benchmarks bardwood                      # everything below
python -m benchmarks.bench_bardwood usage 1000     # only the content-usage counts
python -m benchmarks.bench_bardwood balance 40     # greedy self-play, wins by Character
python -m benchmarks.bench_bardwood --digest 300   # one hash over 300 games a seat count

The content-usage run plays ``BW_BENCH_USAGE_GAMES`` (default 1000) uniformly random
games, a third at each player count, options rotating, and prints how often each card,
Creature, Legend, Motif, Perform spot, map space, Location, Tempo area and Character
bonus was used; anything never used is listed at the end.

``balance N`` plays N greedy self-play games at 2, 3 and 4 players, with the first-game
cards and with the unlocked content, and prints each Character's wins out of the games
it played, its mean score and how often the first player won (RULES.md › Balance).

``--digest N`` plays N seeded random games at 2, 3 and 4 players (options rotating) and
prints one SHA-256 over them (see :mod:`benchmarks.digest`): compare it before and after
a change that must not change behaviour.
"""

from __future__ import annotations

import hashlib
import os
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from benchmarks.digest import play_into
from engines.bardwood.content import content
from engines.bardwood.engine import ENGINE
from engines.core.contract import TableConfig
from engines.core.options import resolve_options
from engines.core.play import Table

GAMES = 10
DUELS = 12
OPTIONS: tuple[dict[str, Any], ...] = (
    {},
    {"short_game": True},
    {"loudstones": True, "unlocked": True},
)


def _table(seats: int, seed: int, options: dict[str, Any] | None = None) -> Table:
    config = TableConfig(
        f"bench-{seats}-{seed}", seats, resolve_options(ENGINE.info.options, options or {})
    )
    return Table.create(ENGINE, config, seed.to_bytes(8, "big"))


def _random_game(seats: int, seed: int, options: dict[str, Any] | None = None) -> Table:
    """One game chosen uniformly among the legal commands."""
    choices = random.Random(seed)
    table = _table(seats, seed, options)
    table.play(lambda t, seat: choices.choice(ENGINE.legal_commands(t.state, seat)))
    return table


def _bot_game(
    seats: int, seed: int, kinds: list[str], options: dict[str, Any] | None = None
) -> Table:
    bots = [ENGINE.bots[kind](seed * 10 + seat) for seat, kind in enumerate(kinds)]
    table = _table(seats, seed, options)
    table.play(lambda t, seat: bots[seat].choose(ENGINE, t.state, seat))
    return table


def _totals(table: Table) -> list[float]:
    breakdown = ENGINE.outcome(table.state).breakdown
    return [int(breakdown[str(seat)]["total_halves"]) / 2 for seat in range(table.config.seats)]


def speed() -> None:
    for seats in (2, 3, 4):
        start = time.perf_counter()
        commands = sum(len(_random_game(seats, seed).commands) for seed in range(GAMES))
        elapsed = time.perf_counter() - start
        print(
            f"bardwood {seats}p random: {GAMES / elapsed:6.2f} games/s "
            f"({commands / elapsed:7.0f} commands/s, {commands / GAMES:.0f} commands/game)",
            flush=True,
        )


def duels() -> None:
    """Greedy against random seats, and greedy against itself."""
    for seats in (2, 4):
        wins = 0.0
        greedy: list[float] = []
        rest: list[float] = []
        for seed in range(DUELS):
            seat = seed % seats
            kinds = ["random"] * seats
            kinds[seat] = "greedy"
            table = _bot_game(seats, seed, kinds)
            totals = _totals(table)
            winners = ENGINE.outcome(table.state).winners
            wins += 1 / len(winners) if seat in winners else 0
            greedy.append(totals[seat])
            rest.extend(t for s, t in enumerate(totals) if s != seat)
        print(
            f"bardwood {seats}p greedy vs random: greedy wins {wins / DUELS:.0%}, "
            f"mean score greedy {statistics.mean(greedy):.1f}, random {statistics.mean(rest):.1f}",
            flush=True,
        )
    for seats in (2, 3, 4):
        scores: list[float] = []
        turns: list[int] = []
        by_character: dict[str, float] = {}
        first_wins: float = 0
        for seed in range(DUELS):
            table = _bot_game(seats, 100 + seed, ["greedy"] * seats)
            scores.extend(_totals(table))
            state = table.state
            turns.extend(p.turns for p in state.players)
            winners = ENGINE.outcome(state).winners
            for seat in winners:
                character = state.players[seat].character
                by_character[character] = by_character.get(character, 0) + 1 / len(winners)
            first_wins += 1 / len(winners) if state.first_player in winners else 0
        print(
            f"bardwood {seats}p greedy self-play: score mean {statistics.mean(scores):.1f} "
            f"(min {min(scores):g}, max {max(scores):g}), {statistics.mean(turns):.1f} turns "
            f"each, first player wins {first_wins / DUELS:.0%}, wins by Character "
            + ", ".join(f"{c} {n:g}" for c, n in sorted(by_character.items())),
            flush=True,
        )


def balance(games: int) -> None:
    """Greedy self-play: each Character's wins of the games it played, mean scores, and
    the first player's share of the wins (ties shared)."""
    for label, options in (("first-game cards", {}), ("unlocked content", {"unlocked": True})):
        for seats in (2, 3, 4):
            played: Counter[str] = Counter()
            won: dict[str, float] = {}
            scores: dict[str, list[float]] = {}
            first_wins = 0.0
            for seed in range(games):
                table = _bot_game(seats, 1000 + seed, ["greedy"] * seats, options)
                state = table.state
                winners = ENGINE.outcome(state).winners
                for seat, total in enumerate(_totals(table)):
                    character = state.players[seat].character
                    played[character] += 1
                    scores.setdefault(character, []).append(total)
                    if seat in winners:
                        won[character] = won.get(character, 0) + 1 / len(winners)
                first_wins += 1 / len(winners) if state.first_player in winners else 0
            print(
                f"bardwood {seats}p, {label}, {games} games: wins "
                + ", ".join(f"{c} {won.get(c, 0):g}/{n}" for c, n in sorted(played.items()))
                + "; mean "
                + ", ".join(f"{c} {statistics.mean(v):.1f}" for c, v in sorted(scores.items()))
                + f"; first player wins {first_wins / games:.0%}",
                flush=True,
            )


def _tally(event: Any, used: Counter[str], instruments: dict[int, str]) -> None:
    """What one event shows was used (``instruments``: each seat's, always in Song slot 0)."""
    kind = event.WhichOneof("kind")
    body = getattr(event, kind)
    if kind == "character_chosen":
        instruments[body.seat] = content().character(body.character).instrument
    note: dict[str, Callable[[], list[str]]] = {
        "card_used": lambda: [f"card {instruments[body.seat]}"] if body.slot == 0 else [],
        "card_played": lambda: [f"card {body.card}"],
        "improv_placed": lambda: [f"card {body.card}"],
        "card_discarded": lambda: [f"card {body.card}"],
        "fan_cheered": lambda: [f"card {body.card}", f"fan effect {body.card}/{body.choice}"],
        "card_bought": lambda: [f"card {body.card}"],
        "creature_soothed": lambda: [f"creature {body.creature}"],
        "creature_placed": lambda: [f"creature {body.card}"],
        "rune_placed": lambda: [f"rune {body.to.split(':')[0]} {body.to.split(':')[1]}"],
        "motif_chosen": lambda: [f"motif {body.motif}"],
        "location_used": lambda: [f"location {body.location}"],
        "bard_placed": lambda: [f"space {body.space}"],
        "bard_moved": lambda: [f"space {body.space}"],
        "tempo_turned": lambda: [f"tempo area {body.area}"],
        "badges_spent": lambda: [f"badge reward {body.reward}"],
        "legend_told": lambda: [f"legend tier {body.tier}"],
        "event_offer_used": lambda: [f"event offer {body.event}"],
        "challenged": lambda: ["challenge"],
        "boasted": lambda: ["boast"],
    }
    for key in note.get(kind, list)():
        used[key] += 1


def _expected() -> list[str]:
    """Every piece of content a full run should see used."""
    c = content()
    out = [f"card {card}" for card in c.cards if c.card(card).kind != "creature"]
    out += [f"creature {creature}" for creature in c.creatures]
    out += [f"rune legend {legend.id}" for legend in c.legends]
    out += [f"rune perform {spot}" for spot in range(len(c.perform_spots))]
    out += [f"motif {motif.id}" for motif in c.motifs]
    out += [f"location {loc.id}" for loc in c.locations]
    out += [f"space {space.id}" for space in c.spaces]
    out += [f"tempo area {area}" for area in range(len(c.tempo_areas))]
    out += [f"badge reward {reward.id}" for reward in c.badge_rewards]
    out += [f"legend tier {tier.tier}" for tier in c.tiers]
    out += [f"event offer {event.id}" for event in c.events if event.offer_gain]
    for fan in (*c.fans, *(ch.super_fan for ch in c.characters)):
        out += [f"fan effect {fan}/{i}" for i in range(len(c.card(fan).cheer))]
    return out


def usage(games: int) -> None:
    used: Counter[str] = Counter()
    start = time.perf_counter()
    for game in range(games):
        seats = 2 + game % 3
        table = _random_game(seats, 10_000 + game, OPTIONS[(game // 3) % len(OPTIONS)])
        instruments: dict[int, str] = {}
        for event in table.events:
            _tally(event, used, instruments)
    elapsed = time.perf_counter() - start
    expected = _expected()
    print(f"bardwood content usage over {games} random games ({elapsed:.0f} s):", flush=True)
    for key in sorted(set(expected) | set(used)):
        print(f"  {key:40s} {used[key]:8d}")
    never = [key for key in expected if not used[key]]
    print(f"never used: {', '.join(never) if never else 'nothing'}", flush=True)


def log_digest(games: int) -> str:
    """SHA-256 over ``games`` seeded random games at each player count."""
    total = hashlib.sha256()
    for seats in (2, 3, 4):
        for seed in range(games):
            chosen = OPTIONS[seed % len(OPTIONS)]
            options = resolve_options(ENGINE.info.options, chosen)
            play_into(ENGINE, TableConfig(f"digest-{seats}-{seed}", seats, options), seed, total)
    return total.hexdigest()


def main() -> None:
    speed()
    duels()
    usage(int(os.environ.get("BW_BENCH_USAGE_GAMES", "1000")))


if __name__ == "__main__":
    if sys.argv[1:2] == ["usage"]:
        usage(int(sys.argv[2]) if len(sys.argv) > 2 else 1000)
    elif sys.argv[1:2] == ["balance"]:
        balance(int(sys.argv[2]) if len(sys.argv) > 2 else 40)
    elif len(sys.argv) == 3 and sys.argv[1] == "--digest":
        print(log_digest(int(sys.argv[2])))
    else:
        main()
