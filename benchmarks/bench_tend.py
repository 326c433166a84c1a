"""Tend (``make bench``): complete random games per second, the scores random and greedy
bots reach, and how often each piece of reconstructed content is used.

``python -m benchmarks tend`` runs it alone. ``BW_TEND_USAGE_GAMES`` (default 1000) sets
how many random games the content-usage counts play. Run as a module it takes options::

    python -m benchmarks.bench_tend --coverage 1000   # only the content usage
    python -m benchmarks.bench_tend --scores          # only the bot scores
    python -m benchmarks.bench_tend --digest 300      # one hash over 300 games a seat count

``--digest N`` plays N seeded random games per player count (options rotating) and
prints one SHA-256 over them (see :mod:`benchmarks.digest`): compare it before and after
a change that must not change behaviour.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import statistics
import sys
import time
from collections import Counter
from typing import Any

from benchmarks.digest import play_into
from engines.core.contract import TableConfig
from engines.core.options import resolve_options
from engines.core.play import Table
from engines.tend.bots import GreedyBot, RandomBot
from engines.tend.content import TASKS, content
from engines.tend.engine import ENGINE
from engines.tend.task_phase import awaiting_half

SPEED_GAMES = {1: 40, 2: 20, 4: 20, 8: 6}
DIGEST_OPTIONS: tuple[dict[str, bool], ...] = (
    {},
    {"advanced_cards": False},
    {"round_timer": True},
)


def _table(seats: int, seed: int, name: str) -> Table:
    config = TableConfig(f"{name}-{seats}-{seed}", seats, resolve_options(ENGINE.info.options, {}))
    return Table.create(ENGINE, config, seed.to_bytes(8, "big"))


def _uniform_game(seats: int, seed: int) -> int:
    """One game chosen uniformly among legal commands; the number of commands."""
    choices = random.Random(seed)
    table = _table(seats, seed, "speed")
    table.play(lambda t, seat: choices.choice(ENGINE.legal_commands(t.state, seat)))
    return len(table.commands)


def _speed() -> None:
    for seats, games in SPEED_GAMES.items():
        start = time.perf_counter()
        commands = sum(_uniform_game(seats, seed) for seed in range(games))
        elapsed = time.perf_counter() - start
        print(
            f"tend {seats}p: {games / elapsed:7.1f} random games/s "
            f"({commands / elapsed:6.0f} commands/s, {commands / games:.0f} commands/game)",
            flush=True,
        )


def _bot_game(kinds: str, seed: int) -> Table:
    """A game with a bot per seat (``g`` greedy, ``r`` random), seats acting in random order."""
    table = _table(len(kinds), seed, "bots")
    bots = [(GreedyBot if k == "g" else RandomBot)(seed * 10 + n) for n, k in enumerate(kinds)]
    order = random.Random(seed)
    while not ENGINE.outcome(table.state).finished:
        seat = order.choice(ENGINE.outcome(table.state).to_act)
        table.execute(seat, bots[seat].choose(ENGINE, table.state, seat))
    return table


STRATEGIES = (*TASKS, "cargo", "animals", "badges")
"""The one-strategy players of ``--focused``: one of the four tasks, shipping every good
it can, buying animals and fencing pens, or filling badge projects."""


class _FocusedGreedy(GreedyBot):
    """A greedy player with one strategy: among the legal commands it takes only those
    of its strategy when some are and some are not (the best of them by the greedy
    estimate); otherwise it plays as the greedy bot does."""

    def __init__(self, seed: int, strategy: str) -> None:
        super().__init__(seed)
        self.strategy = strategy

    def choose(self, engine: Any, state: Any, seat: int) -> Any:
        legal = engine.legal_commands(state, seat)
        player = state.players[seat]
        kept = [c for c in legal if self._fits(state, player, c)]
        if kept and len(kept) < len(legal):
            return self._best_of(engine, state, seat, kept)
        return super().choose(engine, state, seat)

    def _fits(self, state: Any, player: Any, command: Any) -> bool:
        kind = command.WhichOneof("kind")
        features = content().features
        if self.strategy == "cargo":
            return bool(kind == "ship")
        if self.strategy == "badges":
            return bool(kind == "spend" and features[command.spend.feature].group == "badge")
        if self.strategy == "animals":
            if kind == "spend":
                return bool(features[command.spend.feature].group == "animals")
            if kind == "groundskeep":
                return bool(command.groundskeep.mark == "fence")
        task = "tend" if self.strategy == "animals" else self.strategy
        if kind == "choose_card":
            card = content().cards[state.row[command.choose_card.slot]]
            return self._offers(task, (*card.top, *card.bottom))
        if kind == "choose_option":
            card = content().cards[state.row[player.card]]
            options = card.top if awaiting_half(state, player) == "top" else card.bottom
            return self._offers(task, (options[command.choose_option.option],))
        if kind == "choose_task":
            return bool(command.choose_task.task == task)
        return False

    @staticmethod
    def _offers(task: str, options: Any) -> bool:
        return any(e.kind == "task" and e.name in (task, "any") for o in options for e in o)


def _focused(games: int, strategies: tuple[str, ...] = STRATEGIES, verbose: bool = False) -> None:
    """Each strategy in ``games`` seeded four-player games against three greedy players
    (its seat rotating): its share of the wins (ties shared; 25% is an even game), its
    mean score against theirs, and what every seat did with each good."""
    print(f"one-strategy greedy player against 3 greedy players, {games} games each:")
    goods = _GoodsStudy()
    for strategy in strategies:
        share = 0.0
        own: list[int] = []
        others: list[int] = []
        for seed in range(games):
            focused = seed % 4
            table = _table(4, seed, f"focused-{strategy}")
            bots = [
                _FocusedGreedy(seed * 10 + n, strategy)
                if n == focused
                else GreedyBot(seed * 10 + n)
                for n in range(4)
            ]
            pick = random.Random(seed)
            while not ENGINE.outcome(table.state).finished:
                seat = pick.choice(ENGINE.outcome(table.state).to_act)
                table.execute(seat, bots[seat].choose(ENGINE, table.state, seat))
            winners = table.state.winners
            share += (focused in winners) / len(winners)
            totals = [f.total for f in table.state.final]
            own.append(totals[focused])
            others += totals[:focused] + totals[focused + 1 :]
            goods.add(table)
            if verbose:
                print(
                    f"    {strategy} game {seed}: seat {focused}, "
                    f"scores {totals}, won by {list(winners)}"
                )
        print(
            f"  {strategy:<8} won {share / games:4.0%}  mean {statistics.mean(own):6.1f} "
            f"({min(own)}-{max(own)})  the greedy players {statistics.mean(others):6.1f}",
            flush=True,
        )
    goods.report()


class _GoodsStudy:
    """Over many games: how often each good is gained, what is done with it, and what it
    is worth then (the points its boxes score at the end when shipped, the coins it sold
    for); a good that is gained but seldom put to a use worth having would show here."""

    def __init__(self) -> None:
        self.seats = 0
        self.gained: Counter[str] = Counter()
        self.uses: dict[str, Counter[str]] = {}
        self.points: Counter[str] = Counter()
        self.coins: Counter[str] = Counter()

    def add(self, table: Table) -> None:
        self.seats += table.state.seats
        for event in table.events:
            kind = event.WhichOneof("kind") or ""
            body: Any = getattr(event, kind)
            if kind == "goods_gained":
                self.gained.update(g for g in body.goods if g in content().goods or g == "wood")
            elif kind in _USES and body.good != "coin":
                self.uses.setdefault(body.good, Counter())[_USES[kind]] += 1
            if kind == "good_sold":
                self.coins[body.good] += body.coins
        manifest = content().manifest
        for player in table.state.players:
            for good, numbers in player.shipped:
                info = content().goods[good]
                for n in numbers:
                    stall = manifest.stalls[manifest.stall_of(manifest.grid.cell(n))]
                    self.points[good] += stall.scores.get(info.type, manifest.default_score)

    def report(self) -> None:
        print(f"  goods over {self.seats} seats (gained per seat and game; the points a shipped")
        print("  one scores at the end, the coins a sold one brought; what was done with them):")
        names = sorted(set(self.gained) | set(self.uses), key=lambda g: -self.gained[g])
        for good in names:
            uses = self.uses.get(good, Counter())
            shipped, sold = uses["shipped"], uses["sold"]
            said = ", ".join(f"{u} {n}" for u, n in uses.most_common())
            worth = f"{self.points[good] / shipped:4.1f} pts" if shipped else "    -   "
            worth += f" {self.coins[good] / sold:3.1f} coins" if sold else "   -     "
            print(
                f"    {good:<17} {self.gained[good] / self.seats:5.2f}  {worth}  {said}",
                flush=True,
            )
        never = sorted(g for g in content().goods if not self.gained[g])
        print(f"  goods never gained: {', '.join(never) or 'none'}", flush=True)


def _describe(label: str, scores: list[int]) -> None:
    print(
        f"  {label:<28} mean {statistics.mean(scores):6.1f}  min {min(scores):4d}  "
        f"max {max(scores):4d}  ({len(scores)} scores)",
        flush=True,
    )


_USES = {
    "good_spent": "spent",
    "good_sold": "sold",
    "good_shipped": "shipped",
    "good_gifted": "gifted",
    "good_groundskept": "groundskept",
    "good_discarded": "let go",
}


def _uses(table: Table, seats: set[int], uses: dict[str, Counter[str]]) -> None:
    """What the given seats did with each good they gained."""
    for event in table.events:
        kind = event.WhichOneof("kind") or ""
        if kind in _USES:
            body: Any = getattr(event, kind)
            if body.seat in seats and body.good != "coin":
                uses.setdefault(body.good, Counter())[_USES[kind]] += 1


def _scores() -> None:
    print("scores (the rulebook's challenge table ranges from 111 to 275):", flush=True)
    uses: dict[str, Counter[str]] = {}
    for kinds, games in (("r", 40), ("g", 6), ("rrrr", 10), ("gggg", 3)):
        tables = [_bot_game(kinds, seed) for seed in range(games)]
        scores = [s for table in tables for s in table.state.final]
        label = f"{'greedy' if kinds[0] == 'g' else 'random'} x{len(kinds)}"
        _describe(label, [s.total for s in scores])
        if kinds[0] == "g":
            for table in tables:
                _uses(table, set(range(len(kinds))), uses)
    # A good the greedy player only ever lets go would be a resource never worth taking.
    print("  what greedy players did with each good they gained:", flush=True)
    for good in sorted(uses):
        said = ", ".join(f"{use} {n}" for use, n in uses[good].most_common())
        print(f"    {good:<17} {said}", flush=True)
    only_let_go = sorted(g for g in uses if not set(uses[g]) - {"let go"} and g in content().goods)
    unseen = sorted(g for g in content().goods if g not in uses)
    print(f"  goods greedy players only ever let go: {', '.join(only_let_go) or 'none'}")
    print(f"  goods greedy players never gained: {', '.join(unseen) or 'none'}", flush=True)
    wins = 0
    greedy_scores: list[int] = []
    random_scores: list[int] = []
    for seed in range(4):
        table = _bot_game("grgr", seed)
        totals = [f.total for f in table.state.final]
        greedy_scores += totals[0::2]
        random_scores += totals[1::2]
        wins += max(totals) in totals[0::2]
    _describe("greedy at greedy/random tables", greedy_scores)
    _describe("random at greedy/random tables", random_scores)
    print(f"  greedy won {wins} of 4 mixed tables", flush=True)


def usage_counts(games: int) -> dict[str, Counter[str]]:
    """Over ``games`` random two-player games, how often each card, space, row, good,
    objective, neighbour card and fishing or geode square was used."""
    used: dict[str, Counter[str]] = {
        k: Counter()
        for k in ("cards", "spaces", "rows", "goods", "objectives", "neighbours", "squares")
    }
    rnd = random.Random(0)
    for seed in range(games):
        table = _table(2, seed, "usage")
        bots = [RandomBot(seed), RandomBot(seed + 1)]
        while not ENGINE.outcome(table.state).finished:
            seat = rnd.choice(ENGINE.outcome(table.state).to_act)
            table.execute(seat, bots[seat].choose(ENGINE, table.state, seat))
        _count(table, used)
    return used


def every_use() -> dict[str, list[str]]:
    """Every piece of content the usage counts, by kind (squares as ``table:number``)."""
    c = content()
    return {
        "cards": list(c.cards),
        "spaces": [f"{f.id}:{n}" for f in c.features.values() for n in range(len(f.spaces))],
        "rows": [f"{f.id}:{r}" for f in c.features.values() for r in range(len(f.rows))]
        + [f"manifest:{r}" for r in range(c.manifest.grid.rows)],
        "goods": list(c.goods),
        "objectives": list(c.objectives),
        "neighbours": list(c.neighbour_cards),
        "squares": [f"{t}:{n}" for t in (*c.tables, "geode") for n in range(25)],
    }


def _usage(games: int) -> None:
    """Print how often each piece of content was used, every one of them, and which never."""
    used = usage_counts(games)
    print(f"content used in {games} random 2-player games:", flush=True)
    for kind, names in every_use().items():
        counts = used[kind]
        # An empty fishing square holds nothing to catch: it is not content to use.
        if kind == "squares":
            names = [n for n in names if _holds_something(n)]
        never = [n for n in names if not counts[n]]
        print(
            f"  {kind:<11} {len(names) - len(never):4d} of {len(names):4d} used; "
            f"fewest {min(counts[n] for n in names)}",
            flush=True,
        )
        if kind == "squares":
            _print_tables(counts)
        else:
            _print_wrapped([f"{n} {counts[n]}" for n in names])
        print(f"    never: {', '.join(never) or 'none'}", flush=True)


def _print_wrapped(items: list[str], width: int = 100) -> None:
    line = "   "
    for item in items:
        if len(line) + len(item) + 2 > width:
            print(line, flush=True)
            line = "   "
        line += f" {item},"
    if line.strip():
        print(line.rstrip(","), flush=True)


def _print_tables(counts: Counter[str]) -> None:
    """Each fishing table and the geode card as a 5 x 5 grid of catches (rows: the white
    die 2-6; columns: the black die 2-6; ``-`` an empty square)."""
    for table in (*content().tables, "geode"):
        print(f"    {table}:", flush=True)
        for row in range(5):
            cells = []
            for col in range(5):
                name = f"{table}:{row * 5 + col}"
                cells.append(f"{counts[name]:6d}" if _holds_something(name) else "     -")
            print(f"      white {row + 2}:{''.join(cells)}", flush=True)


def _holds_something(square: str) -> bool:
    table, _, number = square.partition(":")
    grid = content().geode if table == "geode" else content().tables[table]
    n = int(number)
    return bool(grid.grid[n // 5][n % 5])


def _count(table: Table, used: dict[str, Counter[str]]) -> None:
    used["objectives"].update(table.state.objectives)
    area = {}
    for event in table.events:
        kind = event.WhichOneof("kind")
        body: Any = getattr(event, kind or "")
        if kind == "card_chosen":
            used["cards"][body.card] += 1
        elif kind == "good_spent":
            used["spaces"][f"{body.feature}:{body.space}"] += 1
        elif kind == "row_completed":
            used["rows"][f"{body.feature}:{body.row}"] += 1
        elif kind == "goods_gained":
            used["goods"].update(body.goods)
        elif kind in ("good_gifted", "gift_taken"):
            used["neighbours"][body.card] += 1
        elif kind == "line_cast":
            area[body.seat] = body.area
        elif kind == "fish_caught":
            used["squares"][f"{area[body.seat]}:{body.square}"] += 1
        elif kind == "geode_rolled" and body.good:
            used["squares"][f"geode:{(body.white - 2) * 5 + body.black - 2}"] += 1
        elif kind == "geode_cracked":
            used["squares"][f"geode:{body.square}"] += 1


def log_digest(games: int) -> str:
    """SHA-256 over ``games`` seeded random games at 1, 2, 4 and 8 players."""
    total = hashlib.sha256()
    for seats in SPEED_GAMES:
        for seed in range(games):
            chosen = DIGEST_OPTIONS[seed % len(DIGEST_OPTIONS)]
            options = resolve_options(ENGINE.info.options, chosen)
            play_into(ENGINE, TableConfig(f"digest-{seats}-{seed}", seats, options), seed, total)
    return total.hexdigest()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_tend")
    parser.add_argument("--coverage", type=int, metavar="GAMES", help="only the content usage")
    parser.add_argument("--scores", action="store_true", help="only the bot scores")
    parser.add_argument(
        "--focused", type=int, metavar="GAMES", help="only the one-strategy greedy tables"
    )
    parser.add_argument(
        "--strategies",
        default=",".join(STRATEGIES),
        help="with --focused: the strategies to play (comma-separated)",
    )
    parser.add_argument("--verbose", action="store_true", help="with --focused: each game's scores")
    parser.add_argument(
        "--digest", type=int, metavar="GAMES", help="only the hash of seeded random games"
    )
    args = parser.parse_args(argv or [])
    if args.digest is not None:
        print(log_digest(args.digest))
        return
    if args.coverage is None and not args.scores and args.focused is None:
        _speed()
        _scores()
        _focused(4)
        _usage(int(os.environ.get("BW_TEND_USAGE_GAMES", "1000")))
    if args.focused is not None:
        _focused(args.focused, tuple(args.strategies.split(",")), args.verbose)
    if args.scores:
        _scores()
    if args.coverage is not None:
        _usage(args.coverage)


if __name__ == "__main__":
    main(sys.argv[1:])
