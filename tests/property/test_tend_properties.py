"""Random Tend games through the kit's conformance check, at 1, 2, 4 and 8 players.

Every game ends after 12 rounds, only listed commands are played and each is accepted,
replay gives the same state, and the rulebook's limits hold after every command (the
invariants below). Deep games also try unlisted and mutated commands on every step,
check every viewer's view and re-execute the whole game from its commands.

Tend keeps no secret (decks are drawn from unordered pools when revealed, scratch-off
squares when scratched), so there is nothing for a seat to see of another's. The
secrets tests attack the one hidden thing, what an unscratched square holds: it is in no
state, view or event, and is drawn only when the square is scratched, with the odds of a
printed card.

The budget is small by default (``BW_PROPERTY_SCALE`` multiplies it): ``GAMES`` per seat
count and chunk, one deep game in each group of ``DEEP_EVERY``.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from typing import Any, cast

import pytest

from engines.core.contract import TableConfig
from engines.core.messages import to_json
from engines.core.options import resolve_options
from engines.core.play import Table
from engines.core.polyomino import neighbors
from engines.core.rng import Rng
from engines.core.testing import budget, conformance, play_random_game
from engines.tend.bots import kind_first
from engines.tend.cargo import filled
from engines.tend.content import content
from engines.tend.engine import ENGINE
from engines.tend.farm_area import die_cells
from engines.tend.scratch_off import bottom_row, in_top, preview, square_of
from engines.tend.scratch_off import remaining as remaining_squares
from engines.tend.state import TendState
from proto import tend_pb2 as pb

GAMES = {1: 4, 2: 3, 4: 2}
DEEP_EVERY = {1: 2, 2: 3, 4: 4}
OPTIONS: tuple[dict[str, Any], ...] = ({}, {"advanced_cards": False}, {"round_timer": True})


def check_limits(state: TendState) -> None:
    """What the rulebook never allows, whatever is played."""
    c = content()
    assert state.round <= 12
    for die_id, die in c.dice.items():
        assert sum(d.die == die_id for p in state.players for d in p.dice) <= die.count
    for player in state.players:
        covered = [cell for d in player.dice for cell in die_cells(d)]
        assert len(covered) == len(set(covered)) and set(covered) <= c.farm.cells
        assert not set(player.tilled) & set(player.fences)
        assert player.purse >= 0 and len(player.chosen) <= 2
        assert all(0 <= charges <= 2 for _, charges in player.energy)
        assert c.level_start <= player.chop_level and c.level_start <= player.mine_level
        for feature, space in player.crossed:
            assert 0 <= space < len(c.features[feature].spaces)
        assert sum(c.features[f].group == "lure" for f, _ in player.rows_done) <= 1
        boxes = filled(player)
        assert sum(len(cells) for _, cells in player.shipped) == len(boxes), "no box twice"
        for cell, good in boxes.items():
            kind = c.goods[good].type
            for n in neighbors(cell):
                other = boxes.get(n)
                if other is not None and c.goods[other].type == kind:
                    assert any(cell in cs and n in cs for g, cs in _cells(player)), (cell, n)
        for area in ("woods", "mine"):
            scratch = player.scratch(area)
            done = {square for square, _ in scratch.scratched}
            assert not done & set(scratch.rocks)
            for top in (True, False):
                found = Counter(s for n, s in scratch.scratched if in_top(n) == top)
                left = Counter(preview(area, scratch, top))
                assert not found - left, "every scratched content came from its preview"
            unlocked = any(bottom_row(n) for n in done)
            assert unlocked == (c.scratch_areas[area].unlocks in player.areas)


def _cells(player: Any) -> list[tuple[str, set[tuple[int, int]]]]:
    grid = content().manifest.grid
    return [(g, {grid.cell(n) for n in numbers}) for g, numbers in player.shipped]


def _conform(seats: int, chunk: int) -> None:
    games = budget(GAMES[seats])
    seeds = range(1000 * seats + chunk * games, 1000 * seats + (chunk + 1) * games)
    report = conformance(
        ENGINE,
        seats,
        seeds=seeds,
        options=OPTIONS,
        deep_every=DEEP_EVERY[seats],
        invariants=check_limits,
        pick=kind_first,
    )
    assert report.games == games
    assert all(len(s) == seats for s in report.scores)


@pytest.mark.parametrize("seats", [1, 2, 4])
@pytest.mark.parametrize("chunk", [0, 1])
def test_random_games_conform(seats: int, chunk: int) -> None:
    """Random games end, agree with decide, replay and re-execute, and keep the limits."""
    _conform(seats, chunk)


def test_eight_player_games_conform() -> None:
    """Eight players at once (the largest table the engine seats). A deep game here costs
    a minute of CPU, so one game in every eight is deep: none at the default budget,
    some once ``BW_PROPERTY_SCALE`` is 3 or more."""
    games = budget(3)
    for index in range(games):
        table, _ = play_random_game(
            ENGINE,
            8,
            8000 + index,
            options=OPTIONS[index % len(OPTIONS)],
            deep=index % 8 == 7,
            invariants=check_limits,
            pick=kind_first,
        )
        assert ENGINE.outcome(table.state).finished and table.state.round == 12


def _table(seed: int, seats: int = 2) -> Table:
    config = TableConfig(f"secrets-{seed}", seats, resolve_options(ENGINE.info.options, {}))
    return Table.create(ENGINE, config, seed.to_bytes(8, "big"))


def _before_a_scratch(seed: int) -> tuple[Any, int, Any]:
    """A random game's position where its seat to act may chop or mine, and that command."""
    rnd = random.Random(seed)
    table = _table(seed)
    while True:
        outcome = ENGINE.outcome(table.state)
        assert not outcome.finished, "no scratch in this game"
        seat = rnd.choice(outcome.to_act)
        legal = ENGINE.legal_commands(table.state, seat)
        scratches = [c for c in legal if c.WhichOneof("kind") in ("chop", "mine")]
        if scratches:
            return table.state, seat, scratches[0]
        table.execute(seat, kind_first(legal, rnd))


def test_a_square_is_drawn_only_when_it_is_scratched() -> None:
    """The attack on the scratch-off card: look for what a square holds before it is
    scratched. Nothing holds it: the same scratch at the same position reveals different
    goods for different draws, always from what its half has left, each as often as a
    card printed in advance would hold it there."""
    state, seat, command = _before_a_scratch(21)
    kind = command.WhichOneof("kind")
    area = "woods" if kind == "chop" else "mine"
    square = getattr(command, kind).square
    scratch = state.players[seat].scratch(area)
    left = Counter(remaining_squares(area, scratch, in_top(square)))
    seen: Counter[Any] = Counter()
    draws = 600
    for n in range(draws):
        events = ENGINE.decide(state, command, seat, Rng(b"attack", "attack", n))
        found = [e.square_scratched for e in events if e.HasField("square_scratched")]
        seen[square_of(found[0].content)] += 1
    assert set(seen) <= set(left) and len(seen) > 1
    total = sum(left.values())
    for square_content, count in left.items():
        expected = draws * count / total
        assert abs(seen[square_content] - expected) < 5 * (expected**0.5) + 3, square_content
    assert not any(
        f.name not in ("rocks", "path", "picks_top", "picks_bottom", "scratched")
        for f in dataclasses.fields(scratch)
    ), "a scratch-off card keeps only what is printed and what is scratched"


def test_no_event_or_view_shows_an_unscratched_square() -> None:
    """Over a whole game, only a square_scratched event carries a square's content, and
    every view lists contents only for squares already scratched."""
    rnd = random.Random(5)
    table = _table(77)
    while not ENGINE.outcome(table.state).finished:
        seat = rnd.choice(ENGINE.outcome(table.state).to_act)
        before = {
            (s, area): {n for n, _ in table.state.players[s].scratch(area).scratched}
            for s in range(2)
            for area in ("woods", "mine")
        }
        command = kind_first(ENGINE.legal_commands(table.state, seat), rnd)
        events = cast(list[pb.Event], table.execute(seat, command))
        for event in events:
            if event.HasField("square_scratched"):
                body = event.square_scratched
                assert body.square not in before[(body.seat, body.area)]
            else:
                assert '"content"' not in json.dumps(to_json(event))
        for viewer in (None, 0, 1):
            for s, player in enumerate(ENGINE.view(table.state, viewer)["players"]):
                for area in ("woods", "mine"):
                    listed = [sq["square"] for sq in player[area]["scratched"]]
                    scratched = [n for n, _ in table.state.players[s].scratch(area).scratched]
                    assert listed == scratched
