"""Every piece of Tend's reconstructed content can be reached by legal commands: each
fish of every fishing table is caught by some roll of the dice, with no rod and with
each rod, and every special and badge project row is completed by the goods it shows."""

from __future__ import annotations

import pytest

from engines.tend.content import content
from engines.tend.engine import ENGINE
from engines.tend.events import table_square
from engines.tend.state import TendState
from proto import tend_pb2 as pb
from tests.engines.tend.given import (
    FISH_SLOT,
    Scripted,
    cmd,
    crossed,
    evs,
    gained,
    opening,
    position,
    step,
    unlocked,
)

ROD_OF = {"": [], "cross": ["fishing_rod"], "diagonal": ["angler_rod"]}


def _catches(state: TendState) -> list[int]:
    legal = ENGINE.legal_commands(state, 0)
    return [c.catch.square for c in legal if c.WhichOneof("kind") == "catch"]


def _fish_squares(area: str) -> set[int]:
    grid = content().tables[area].grid
    return {n for n in range(25) if grid[n // 5][n % 5]}


@pytest.mark.parametrize("rod", sorted(ROD_OF))
@pytest.mark.parametrize("area", content().areas)
def test_every_fish_of_every_table_is_caught_by_some_roll(area: str, rod: str) -> None:
    """Cast in the area for each of the 25 rolls without a 1 (the aim is then fixed):
    the fish the engine offers to catch, over all rolls, are every fish of the table."""
    history = [*opening()]
    if area != "pond":
        history.append(unlocked(0, "area", area))
    for feature in ROD_OF[rod]:
        history += [*crossed(0, feature, range(3)), unlocked(0, "rod", rod)]
    history += step(history, 0, cmd(choose_card=pb.ChooseCard(slot=FISH_SLOT)))
    fishing = position(history)
    caught: set[int] = set()
    for black in range(2, 7):
        for white in range(2, 7):
            cast = fishing.when(0, cmd(cast=pb.Cast(area=area)), Scripted(black - 1, white - 1))
            aimed = [ev.aimed for ev in evs(cast.accepted()) if ev.HasField("aimed")]
            assert [(a.square, a.rod) for a in aimed] == [(table_square(white, black), rod)]
            offered = _catches(cast.state)
            caught |= set(offered)
            if rod == "":
                assert offered == sorted({table_square(white, black)} & _fish_squares(area))
    assert caught == _fish_squares(area)


def _project_rows() -> list[tuple[str, int]]:
    return [
        (f.id, row)
        for f in content().features.values()
        if f.group in ("special", "badge")
        for row in range(len(f.rows))
    ]


def _a_good_for(icon: str) -> str:
    """The good a space shows, or for ``<type>:any`` the first good of that type."""
    return next(g for g in content().goods if content().matches(icon, g))


@pytest.mark.parametrize(("feature", "row"), _project_rows(), ids=lambda v: str(v))
def test_every_project_row_is_completed_by_the_goods_it_shows(feature: str, row: int) -> None:
    """Gain each good of the row in turn and spend it there: the last one completes the
    row, which gives its reward (a badge project's medal, a special project's ability)."""
    project = content().features[feature]
    history = [*opening()]
    last: list[pb.Event] = []
    for space in project.row_spaces(row):
        good = _a_good_for(project.spaces[space])
        history.append(gained(0, good))
        last = step(history, 0, cmd(spend=pb.Spend(good=good, feature=feature, space=space)))
        history += last
    done = [ev.row_completed for ev in last if ev.HasField("row_completed")]
    assert done == [pb.RowCompleted(seat=0, feature=feature, row=row)]
    goods = [g for ev in last if ev.HasField("goods_gained") for g in ev.goods_gained.goods]
    player = position(history).state.players[0]
    for effect in project.rewards[row]:
        if effect.kind == "good":
            assert effect.name in goods
        if effect.kind == "ability":
            assert effect.name in player.abilities
