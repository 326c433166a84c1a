"""Tend's bots: a random player and a greedy one, both choosing among the legal commands.

- ``random`` plays like a newcomer with a goal: it draws a "calling" for the game (two
  of the four tasks it favours, as the rulebook speaks of a player's calling; Elizabeth
  focuses on mining and fishing) and an order to fill its manifest rows in. Each step
  it picks a kind of move at random (choose a card, chop, ship, sell...; a uniform pick
  over commands would mostly ship goods to random boxes, since one good has many
  placements), then mostly a command its goal prefers: cards and options offering the
  tasks it is after, squares deeper in the woods and mine, any fishing area it has
  opened beyond the pond, the seasoned explorer and the sheet parts of its calling and
  then the rows it has gone furthest with, the next free boxes of its manifest rows.
  Half the times it would groundskeep while a good it holds fits a space it wants, it
  spends instead; half the times it would ship, sell, gift or groundskeep a good that
  completes a row it started, it completes the row (such spaces rank first). The tasks
  it is after grow with the game: a fisher also chops and mines for what its broken
  bridge lacks and for the way down to the lake and the grotto (and works on the
  bridge first), whoever has opened an area beyond the pond also fishes, and whoever
  dug its way down to the lake or the grotto fishes first, there first. It rarely
  finishes early and rarely swaps neighbour cards, so its games still reach every part
  of the rules.
- ``greedy`` looks one command ahead and takes the one that most raises its
  :func:`worth`: the points it would score now, plus what its sheets promise (progress
  towards upgrades, badges and unlocks, manifest rows towards their bonus tasks, the
  season objectives to come, crops and animals, tasks and actions in hand, neighbour
  cards as likely as their goods are to come its way). Ties are broken at random. It
  swaps a neighbour card at most once a side each neighbour phase (when a new draw is
  worth more on average) and never moves animals (moves that could go on for ever).

Bots are players, not rules: they use their own seeded ``random.Random``, and the
greedy look-ahead decides with fixed ``Rng`` streams of its own, so it never sees the
table's draws before they happen; each look-ahead starts its streams afresh, so a bot's
game depends on its seed and the table alone, not on what was played before it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from google.protobuf.message import Message

from engines.core.errors import RuleViolation
from engines.core.rng import Rng
from engines.tend.content import TASKS, Card, Feature, Option, content
from engines.tend.farm_area import animal_spots, cells, crop_spots
from engines.tend.measures import holds, measure
from engines.tend.scoring import final_score
from engines.tend.scratch_off import remaining
from engines.tend.state import Player, Scratch, TendState, added
from engines.tend.task_phase import awaiting_half
from proto import tend_pb2 as pb

__all__ = ["BOTS", "GreedyBot", "RandomBot", "kind_first", "worth"]

# Kinds a random player seldom wants: ending a task or phase early, swapping neighbours.
_RARELY = {"finish": 0.15, "discard_neighbour": 0.1, "move_animal": 0.2, "call_time": 0.2}


def _kind(command: Message) -> str:
    return command.WhichOneof("kind") or ""


def kind_first(legal: Sequence[Message], rnd: random.Random, _state: Any = None) -> Message:
    """A kind of move at random (some rarely), then one of its commands."""
    by_kind: dict[str, list[Message]] = {}
    for command in legal:
        by_kind.setdefault(_kind(command), []).append(command)
    kinds = sorted(by_kind)
    weights = [_RARELY.get(k, 1.0) for k in kinds]
    chosen = rnd.choices(kinds, weights)[0]
    return rnd.choice(by_kind[chosen])


class _Bot:
    """A seeded player: its own ``random.Random``, and the seat's legal commands."""

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    @staticmethod
    def _legal(engine: Any, state: TendState, seat: int) -> list[Message]:
        legal: list[Message] = engine.legal_commands(state, seat)
        if not legal:
            raise RuntimeError(f"seat {seat} has no legal command")
        return legal


class RandomBot(_Bot):
    """Random goals, purposeful steps (see the module docstring)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        rows = content().manifest.grid.rows
        # Drawn once a game: the two tasks this player favours (its "calling", as the
        # rulebook says; Elizabeth's is mining and fishing) and the order it fills its
        # manifest rows in.
        self._calling = frozenset(self._random.sample(TASKS, 2))
        self._row_rank = dict(zip(self._random.sample(range(rows), rows), range(rows), strict=True))

    def choose(self, engine: Any, state: TendState, seat: int) -> Message:
        legal = self._legal(engine, state, seat)
        command = kind_first(legal, self._random)
        kind = _kind(command)
        player = state.players[seat]
        wants = _wants(player, self._calling)
        # Wood, stone and ore that fit a space it is after go there more often than into
        # farm marks (the bridge's planks were mostly groundskept). Shipping, selling and
        # gifting keep their share: they are what fills the manifest, buys animals and
        # crosses the neighbour tracks.
        if kind == "groundskeep" and self._random.random() < 0.5 and _wished(player, wants, legal):
            kind = "spend"
        # What it holds and would ship, sell, gift or groundskeep goes, half the time, to
        # the last space of a row it started instead: rows of four or five goods of a
        # kind (the smokehouse, the silver badge's five fish) were left one short.
        if kind in _OTHER_USES and self._random.random() < 0.5 and _finishing(player, legal):
            kind = "spend"
        same = [c for c in legal if _kind(c) == kind]
        if kind == "spend":
            return self._best(same, lambda c: _spend_wish(player, wants, c.spend))
        if kind == "ship":
            return self._first(same, lambda c: self._packing(c.ship.cells))
        if self._random.random() >= 0.8:
            return command
        if kind in ("chop", "mine"):
            return self._best(same, lambda c: getattr(c, kind).square // _SCRATCH_COLS)
        if kind == "cast":
            # Water it dug its way to first, then any area it opened beyond the pond:
            # always the farthest left the river unfished by whoever had opened the lake
            # or the grotto too, and any beyond the pond alike left the grotto, opened
            # late, nearly unfished.
            return self._best(same, lambda c: (c.cast.area in _AREA_TASK, c.cast.area != "pond"))
        first = _first_wants(player)
        if kind == "choose_card":
            return self._best(
                same,
                lambda c: (
                    _offers(_card(state, c.choose_card.slot), first),
                    _offers(_card(state, c.choose_card.slot), wants),
                ),
            )
        if kind == "choose_option":
            card = content().cards[state.row[player.card]]
            options = card.top if awaiting_half(state, player) == "top" else card.bottom
            return self._best(
                same,
                lambda c: (
                    _option_offers(options[c.choose_option.option], first),
                    _option_offers(options[c.choose_option.option], wants),
                ),
            )
        if kind == "choose_task":
            return self._best(
                same, lambda c: (c.choose_task.task in first, c.choose_task.task in wants)
            )
        return command

    def _best(self, commands: list[Message], key: Any) -> Message:
        """One of the commands ``key`` ranks highest, at random among equals."""
        top = max(key(c) for c in commands)
        return self._random.choice([c for c in commands if key(c) == top])

    def _first(self, commands: list[Message], key: Any) -> Message:
        """One of the commands ``key`` ranks lowest, at random among equals."""
        low = min(key(c) for c in commands)
        return self._random.choice([c for c in commands if key(c) == low])

    def _packing(self, cells: Sequence[int]) -> tuple[tuple[int, int], ...]:
        """Where a placement sits in this player's filling order (earliest first)."""
        cols = content().manifest.grid.cols
        return tuple(sorted((self._row_rank[c // cols], c % cols) for c in cells))


# The sheet parts each calling works towards: its tool, the projects its goods fill, and
# for fishing its areas; every calling likes the seasoned explorer.
_CALLING_FEATURES = {
    "tend": frozenset(
        {"farm_tools", "trellis", "chicken", "sheep", "cow", "farm_stand", "gold_badge"}
    ),
    "chop": frozenset({"hatchet", "wood_badge", "workshop"}),
    "mine": frozenset({"pickaxe", "copper_badge", "platinum_badge", "well"}),
    "fish": frozenset(
        {
            "bridge",
            "fishing_rod",
            "angler_rod",
            "spinner_lure",
            "feather_lure",
            "worm_lure",
            "silver_badge",
            "smokehouse",
        }
    ),
}
_EVERY_CALLING = frozenset({"seasoned_explorer"})


def _card(state: TendState, slot: int) -> Card:
    return content().cards[state.row[slot]]


def _option_offers(option: Option, calling: frozenset[str]) -> bool:
    return any(e.kind == "task" and (e.name in calling or e.name == "any") for e in option)


def _offers(card: Card, calling: frozenset[str]) -> bool:
    return any(_option_offers(o, calling) for o in (*card.top, *card.bottom))


# The tasks that take a fisher to water it has not reached: the woods' planks and the
# mine's stone mend the bridge to the river, the woods' and the mine's bottom rows open
# the lake and the grotto.
_BRIDGE_TASK = {"wood": "chop", "stone": "mine"}
_AREA_TASK = {a.unlocks: a.task for a in content().scratch_areas.values()}


def _wants(player: Player, calling: frozenset[str]) -> frozenset[str]:
    """The tasks a player is after now: its calling; for a fisher, the tasks that open
    the areas it has not reached (what its broken bridge lacks, the way down to the lake
    and the grotto); fishing too once it has opened an area beyond the pond (a newcomer
    tries the water it opened)."""
    wants = set(calling)
    if "fish" in calling:
        if "river" not in player.areas:
            bridge = content().features["bridge"].spaces
            crossed = {s for f, s in player.crossed if f == "bridge"}
            lacks = {g for n, g in enumerate(bridge) if n not in crossed}
            wants |= {_BRIDGE_TASK[g] for g in lacks if g in _BRIDGE_TASK}
        wants |= {task for area, task in _AREA_TASK.items() if area not in player.areas}
    if player.areas:
        wants.add("fish")
    return frozenset(wants)


def _first_wants(player: Player) -> frozenset[str]:
    """The task a player is after before any other: fishing, once it has dug its way
    down to the lake or the grotto (the water a long dig opens, mostly in the last
    rounds, is what it wants to try)."""
    return frozenset({"fish"}) if any(a in _AREA_TASK for a in player.areas) else frozenset()


def _spend_wish(player: Player, wants: frozenset[str], spend: Any) -> float:
    """How much a player after ``wants`` wants this space: the seasoned explorer and,
    for whoever wants to fish, the broken bridge first (each asks little of a kind and
    opens much), then the sheet parts of its tasks, then the rows it has gone furthest
    with."""
    favoured = spend.feature in _EVERY_CALLING or any(
        spend.feature in _CALLING_FEATURES[task] for task in wants
    )
    first = spend.feature in _EVERY_CALLING or (spend.feature == "bridge" and "fish" in wants)
    finishes = 2 * _finishes(player, spend.feature, spend.space)
    return _row_share(player, spend.feature, spend.space) + favoured + first + finishes


_OTHER_USES = frozenset({"ship", "sell", "gift", "groundskeep"})


def _finishes(player: Player, feature_id: str, space: int) -> bool:
    """Whether crossing ``space`` completes its row (or unlined grid)."""
    feature = content().features[feature_id]
    row = feature.row_of(space)
    spaces = feature.row_spaces(row) if feature.lined else range(len(feature.spaces))
    crossed = sum(1 for f, s in player.crossed if f == feature_id and s in spaces)
    return crossed == len(spaces) - 1


def _finishing(player: Player, legal: Sequence[Any]) -> bool:
    """Whether something in hand completes a row this player has started."""
    return any(
        _kind(c) == "spend" and _finishes(player, c.spend.feature, c.spend.space) for c in legal
    )


def _wished(player: Player, wants: frozenset[str], legal: Sequence[Any]) -> bool:
    """Whether a good in hand fits a space this player is after."""
    return any(_kind(c) == "spend" and _spend_wish(player, wants, c.spend) >= 1 for c in legal)


_SCRATCH_COLS = content().scratch.cols


def _row_share(player: Player, feature_id: str, space: int) -> float:
    """How much of its row (or unlined grid) a space's row has crossed already."""
    feature = content().features[feature_id]
    row = feature.row_of(space)
    spaces = feature.row_spaces(row) if feature.lined else range(len(feature.spaces))
    crossed = sum(1 for f, s in player.crossed if f == feature_id and s in spaces)
    return crossed / len(spaces)


# -- greedy --------------------------------------------------------------------------------

_UNLOCK = {
    "area": 9.0,
    "tool": 12.0,
    "rod": 8.0,
    "lure": 8.0,
    "energy": 5.0,
    "ability": 5.0,
    "explorer": 8.0,
    "animal": 5.0,
    "trellis": 2.0,
    "task": 3.0,
    "buyback": 1.0,
}
_ACTION = {"tend": 2.0, "chop": 2.2, "mine": 2.4, "fish": 2.2, "any": 2.4}
_RESHUFFLING = frozenset({"move_animal"})
# Moves whose outcome is drawn: the look-ahead averages a few draws of its own.
_DRAWING = frozenset({"chop", "mine", "cast", "discard_neighbour"})
_LOOKAHEADS = 4


def _feature_value(feature: Feature, row: int, late: float) -> float:
    """What completing a row (or the whole grid) of a feature is worth to a player;
    what lasts (upgrades, unlocks) is worth less as the game runs out (``late``)."""
    value = 0.0
    for effect in feature.rewards[row]:
        if effect.kind == "good":
            info = content().goods[effect.name]
            value += (info.coins or 0) + len(info.shape)
        elif effect.kind == "coins":
            value += 0.5 * effect.amount
        elif effect.kind in ("tilled", "fence"):
            value += 0.3 * effect.amount
        else:
            value += _UNLOCK.get(effect.kind, 2.0) * late
    if feature.group == "badge":
        value += feature.points / 2
    return value


def _sheet_progress(state: TendState, player: Player) -> float:
    """Crossed spaces count for the share of their row's reward they bring closer; the
    share grows with the square of the progress, so goods go where they complete rows
    rather than a space here and there."""
    late = max(0.2, (13 - state.round) / 12)
    features = content().features
    crossed: dict[tuple[str, int], int] = {}
    for feature_id, space in player.crossed:
        feature = features[feature_id]
        row = feature.row_of(space) if feature.lined else 0
        crossed[(feature_id, row)] = crossed.get((feature_id, row), 0) + 1
    value = 0.0
    done = set(player.rows_done)
    for (feature_id, row), count in crossed.items():
        feature = features[feature_id]
        size = len(feature.rows[row]) if feature.lined else len(feature.spaces)
        share = 1.0 if (feature_id, row) in done else 0.6 * count / size
        value += share * _feature_value(feature, row, late)
    return value


_OBJECTIVE_NOW = 0.8
_OBJECTIVE_LATER = 0.8


def _objectives_ahead(state: TendState, player: Player) -> float:
    ahead = 0.0
    for season in range(len(player.objectives) + 1, 4):
        objective = content().objectives[state.objectives[season - 1]]
        weight = _OBJECTIVE_NOW if season == len(player.objectives) + 1 else _OBJECTIVE_LATER
        ahead += weight * measure(player, objective.measure) / objective.every * objective.points
    return ahead


def _farm(player: Player) -> float:
    """Dice on the farm, room to plant and to keep animals, fences that close pens."""
    return _farm_value(
        player.tilled, player.fences, player.trellises, player.dice, player.owed_animals
    )


@lru_cache(maxsize=8192)
def _farm_value(
    tilled: tuple[int, ...],
    fences: tuple[int, ...],
    trellises: tuple[int, ...],
    dice: tuple[Any, ...],
    owed: tuple[str, ...],
) -> float:
    # Cached on the farm's own marks: most moves a greedy player weighs leave the farm
    # as it was, and finding pens and plots is most of the cost of its estimate.
    c = content()
    farm = Player(tilled=tilled, fences=fences, trellises=trellises, dice=dice)
    value = sum(6.0 if c.dice[d.die].kind == "animal" else 4.0 for d in dice)
    value += 0.1 * min(len(tilled), 40) + 1.5 * len(trellises)
    value += sum(1.5 for crop in c.crops if crop_spots(farm, crop))
    value += sum(2.0 for animal in c.animals if animal_spots(farm, animal))
    fenced = cells(fences)
    joined = sum(
        1
        for r, col in fenced
        if any((r + dr, col + dc) in fenced for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
    )
    return value + 0.1 * len(fenced) + 0.15 * joined + 4.0 * len(owed)


def _option_value(player: Player, option: Option) -> float:
    value = 0.0
    for effect in option:
        if effect.kind == "task":
            upgraded = effect.name in player.tools or (effect.name == "fish" and player.lure)
            value += _ACTION[effect.name] * (1 + effect.bonus + int(upgraded))
        elif effect.kind == "good":
            info = content().goods.get(effect.name)
            each = 4.0 if info is None else ((info.coins or 1) + len(info.shape)) / 2
            value += effect.amount * each
        elif effect.kind == "coins":
            value += 0.4 * effect.amount
        else:
            value += 0.3 * effect.amount
    return value


def _card_value(state: TendState, player: Player) -> float:
    """The card in hand: its best option still to choose, and its bottom half to come."""
    if player.card < 0:
        return 0.0
    card = content().cards[state.row[player.card]]
    value = 0.0
    if not player.chose:
        options = card.top if player.half == "top" else card.bottom
        value += max(_option_value(player, o) for o in options)
    if player.half == "top" and card.condition is not None:
        likely = 0.9 if holds(player, card.condition) else 0.3
        value += likely * max(_option_value(player, o) for o in card.bottom)
    return value


@lru_cache(maxsize=4096)
def _supply(
    woods: Scratch, mine: Scratch, areas: tuple[str, ...], dice: tuple[Any, ...]
) -> dict[str, float]:
    """How readily a player comes by each good, from what it can still reach: the goods
    left under its woods and mine (the bottom halves, harder to reach, count a quarter),
    the fish of the tables it may fish, and the harvests of its dice; 1.0 means "often"."""
    seen: dict[str, float] = {}
    for area, scratch in (("woods", woods), ("mine", mine)):
        for top, weight in ((True, 1.0), (False, 0.25)):
            for square in remaining(area, scratch, top):
                if square.good:
                    seen[square.good] = seen.get(square.good, 0.0) + weight
    c = content()
    for area in ("pond", *areas):
        for row in c.tables[area].grid:
            for fish in row:
                if fish:
                    seen[fish] = seen.get(fish, 0.0) + 0.4
    for die in dice:
        for face in c.dice[die.die].faces:
            for good in face.harvest:
                seen[good] = seen.get(good, 0.0) + 1.0
    return {good: min(1.0, amount / 4) for good, amount in seen.items()}


_NEIGHBOUR_BOX = 1.0


def _neighbours(state: TendState, player: Player) -> float:
    """Boxes the cards beside the tracks may still cross, as likely as their goods are
    to come by; alone every box is 3 points, at a table about 2."""
    cards = content().neighbour_cards
    tracks = content().neighbour_tracks
    supply = _supply(player.woods, player.mine, player.areas, player.dice)
    # Half what a gift would bring: a card is only a chance, and a gifted card's side
    # is refilled at the next neighbour phase.
    per_box = _NEIGHBOUR_BOX * (1.5 if state.seats == 1 else 1.0)
    value = 0.0
    for side, crossed in (("left", player.track_left), ("right", player.track_right)):
        card = player.card_beside(side)
        room = len(tracks[side]) - crossed
        if card and room:
            likely = max(supply.get(g, 0.1) for g in cards[card].goods)
            value += min(cards[card].bonus, room) * per_box * likely
        elif room and state.round < 12:
            value += per_box * 0.5
    return value


_MANIFEST_ROW = 8.0


def _manifest_rows(player: Player) -> float:
    """Manifest rows on their way to a bonus task: the fuller, the more (squared); a
    completed row keeps its worth, so completing one is never a loss."""
    grid = content().manifest.grid
    filled = [0] * grid.rows
    for _, boxes in player.shipped:
        for cell in boxes:
            filled[cell // grid.cols] += 1
    return sum(_MANIFEST_ROW * (n / grid.cols) ** 2 for n in filled)


_COIN = 0.3


def _in_hand(state: TendState, player: Player) -> float:
    value = _COIN * player.purse + 0.5 * len(player.pending)
    if player.task is not None:
        value += player.task.actions * _ACTION.get(player.task.kind, 2.0)
    value += sum(_ACTION[w.task] * (1 + w.bonus) for w in (*player.line, *player.bonus))
    return value + _card_value(state, player)


def worth(state: TendState, seat: int) -> float:
    """The greedy player's estimate of a seat's position (see the module docstring)."""
    player = state.players[seat]
    score = final_score(state, seat).total
    upgrades = 1.5 * sum(c for _, c in player.energy) + 2.0 * (
        player.chop_level + player.mine_level
    )
    explored = 0.4 * (len(player.woods.scratched) + len(player.mine.scratched))
    return (
        score
        + _objectives_ahead(state, player)
        + _sheet_progress(state, player)
        + _farm(player)
        + _in_hand(state, player)
        + _neighbours(state, player)
        + _manifest_rows(player)
        + upgrades
        + explored
    )


def _swap_key(state: TendState, command: Any) -> tuple[int, str]:
    return state.round, command.discard_neighbour.side


class GreedyBot(_Bot):
    """One command ahead, for the most :func:`worth` (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        # The sides whose card it swapped this neighbour phase (round, side).
        self._swapped: set[tuple[int, str]] = set()

    def choose(self, engine: Any, state: TendState, seat: int) -> Message:
        legal = self._legal(engine, state, seat)
        # Moving animals never ends a phase, and a swapped card may be swapped again: a
        # greedy player that found them always a little better would never stop. So it
        # swaps each side's card at most once a neighbour phase, and never moves animals.
        useful = [
            c
            for c in legal
            if _kind(c) not in _RESHUFFLING
            and (_kind(c) != "discard_neighbour" or _swap_key(state, c) not in self._swapped)
        ]
        legal = useful or legal
        chosen = self._best_of(engine, state, seat, legal)
        if _kind(chosen) == "discard_neighbour":
            self._swapped.add(_swap_key(state, chosen))
        return chosen

    def _best_of(self, engine: Any, state: TendState, seat: int, legal: list[Message]) -> Message:
        best: list[Message] = []
        best_value = float("-inf")
        for command in _best_draws(state.players[seat], legal):
            value = self._after(engine, state, command, seat)
            if value > best_value + 1e-9:
                best, best_value = [command], value
            elif abs(value - best_value) <= 1e-9:
                best.append(command)
        return self._random.choice(best)

    def _after(self, engine: Any, state: TendState, command: Message, seat: int) -> float:
        """The worth after ``command``; a move that draws is averaged over a few draws."""
        draws = _LOOKAHEADS if _kind(command) in _DRAWING else 1
        total = 0.0
        for n in range(draws):
            # A fresh stream each time: an ``Rng`` is consumed as it draws, and a shared
            # one would make each choice depend on every look-ahead made before it.
            rng = Rng(b"tend-greedy-lookahead", "bot", n)
            try:
                after = engine.decided(state, command, seat, rng).state
            except RuleViolation:
                return float("-inf")
            total += worth(after, seat)
        return total / draws


def _best_draws(player: Player, legal: list[Message]) -> list[Message]:
    """``legal`` without the draws that cannot be best: drawing one mark on one square or
    another changes only the farm's worth, so among the draws of a mark only those
    whose farm is worth most need the full look-ahead (most of a greedy game's
    look-aheads were draws, a hundred squares for each mark)."""
    draws: dict[int, pb.Draw] = {
        n: command.draw  # type: ignore[attr-defined]
        for n, command in enumerate(legal)
        if _kind(command) == "draw"
    }
    farms = {n: _farm(_drawn(player, d.mark, d.cell)) for n, d in draws.items()}
    most: dict[str, float] = {}
    for n, value in farms.items():
        most[draws[n].mark] = max(most.get(draws[n].mark, value), value)
    return [
        c for n, c in enumerate(legal) if n not in draws or farms[n] >= most[draws[n].mark] - 1e-9
    ]


def _drawn(player: Player, mark: str, cell: int) -> Player:
    """The farm with one more mark (as ``evolve`` draws it)."""
    if mark == "tilled":
        return replace(player, tilled=added(player.tilled, cell))
    if mark == "fence":
        return replace(player, fences=added(player.fences, cell))
    return replace(player, trellises=(*player.trellises, cell))


BOTS: dict[str, Any] = {"random": RandomBot, "greedy": GreedyBot}
