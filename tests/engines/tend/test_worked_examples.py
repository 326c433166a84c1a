"""The rulebook's worked examples, step by step, with its numbers: Elizabeth's two task
cards, Adria's tend actions, the cargo scoring example, the season 1 scoring example,
milk's price, a rod and a lure catching two fish."""

from __future__ import annotations

from engines.tend.content import Square, content
from engines.tend.engine import ENGINE
from engines.tend.state import TendState
from proto import tend_pb2 as pb
from tests.engines.tend.given import (
    Scripted,
    cmd,
    crossed,
    draw_of,
    e,
    evs,
    farm,
    gained,
    opening,
    position,
    scratched,
    shipped,
    step,
    unlocked,
)

STONE_LEVEL = Square(good="stone", level=True)
PLUS_TWO = Square(actions=2)
EXO_LEVEL = Square(good="exo_wood", level=True)


def _elizabeth() -> list[pb.Event]:
    """Elizabeth before her task phase: level 1 in mining, no energy bar, no upgraded
    pickaxe; the broken bridge lacks only its stone, her rod only its exo wood; she has
    mined one top square and chopped down the path's top half (rows 0-2 of column 0).
    River Fisher is the fourth card of the row."""
    row = ("starter_tend_1", "starter_chop_1", "starter_mine_1", "river_fisher", "cave_fisher")
    return [
        *opening(row=row),
        *crossed(0, "bridge", [0, 1, 2, 3, 5]),
        *crossed(0, "fishing_rod", [0, 1]),
        scratched(0, "mine", 2, Square(good="copper")),
        scratched(0, "woods", 0, Square(good="wood")),
        scratched(0, "woods", 6, Square(good="wood")),
        scratched(0, "woods", 12, Square(actions=1)),
        # Two mining goods already in stall 2, a box apart.
        *shipped(0, "stone", [(0, 3)]),
        *shipped(0, "stone", [(0, 6)]),
    ]


def _kinds(events: list[pb.Event]) -> list[str]:
    return [ev.WhichOneof("kind") or "" for ev in events]


def _cave_fisher() -> list[pb.Event]:
    """Elizabeth's history once Cave Fisher is resolved as in the rulebook."""
    history = list(_elizabeth())
    steps: list[tuple[pb.Command, Scripted | None]] = [
        (cmd(choose_card=pb.ChooseCard(slot=4)), None),
        (cmd(choose_option=pb.ChooseOption(option=1)), None),
    ]
    for command, rng in steps:
        history += step(history, 0, command, rng)
    draw = draw_of(position(history).state, 0, "mine", 8, STONE_LEVEL)
    rest: list[tuple[pb.Command, Scripted | None]] = [
        (cmd(mine=pb.Mine(square=8)), Scripted(draw)),
        (cmd(spend=pb.Spend(good="stone", feature="bridge", space=4)), None),
        (cmd(spend=pb.Spend(good="coin", feature="energy_bar_1", space=0)), None),
        (cmd(sell=pb.Sell(good="blobber")), None),
        (cmd(spend=pb.Spend(good="coin", feature="energy_bar_1", space=1)), None),
        (cmd(spend=pb.Spend(good="coin", feature="energy_bar_1", space=2)), None),
    ]
    for command, rng in rest:
        history += step(history, 0, command, rng)
    return history


def test_elizabeth_resolves_cave_fisher() -> None:
    """Cave Fisher: she mines (1 action, top half only); the square holds a stone and a
    level arrow. The stone completes the bridge (river fishing unlocked), mining goes from
    level 1 to 2 and its track's coin goes to an energy bar. At level 2 the bottom half
    gives a fish: sold for 2 coins, which complete the 3-coin energy bar."""
    start = position(_elizabeth())
    assert start.state.players[0].mine_level == 1
    chosen = start.when(0, cmd(choose_card=pb.ChooseCard(slot=4))).accepted()
    top = position(evs(start) + evs(chosen)).when(0, cmd(choose_option=pb.ChooseOption(option=1)))
    began = evs(top.accepted())[-1]
    assert began.task_began == pb.TaskBegan(seat=0, task="mine", actions=1, source="card")

    at = position(evs(start) + evs(chosen) + evs(top))
    assert [c.mine.square for c in _legal(at.state) if c.HasField("mine")] == [
        0, 1, 3, 4, 5, 8,
    ], "the top row, or next to the square mined before"  # fmt: skip
    draw = draw_of(at.state, 0, "mine", 8, STONE_LEVEL)
    mined = at.when(0, cmd(mine=pb.Mine(square=8)), Scripted(draw)).accepted()
    assert _kinds(evs(mined)) == [
        "actions_changed", "square_scratched", "goods_gained", "level_gained", "coins_gained",
    ]  # fmt: skip
    assert mined.state.players[0].mine_level == 2
    assert mined.state.players[0].pending == ("stone",) and mined.state.players[0].purse == 1

    # The stone completes the broken bridge: river fishing is unlocked.
    history = evs(at) + evs(mined)
    bridge = position(history).when(0, cmd(spend=pb.Spend(good="stone", feature="bridge", space=4)))
    bridge.accepted()
    assert "river" in bridge.state.players[0].areas
    # With nothing left to use, the mining task is over; the condition (mining level 2)
    # holds, so the bottom half gives its fish.
    assert _kinds(evs(bridge))[-3:] == ["task_ended", "option_chosen", "goods_gained"]
    assert bridge.state.players[0].pending == ("blobber",)

    history += evs(bridge)
    coin = position(history).when(
        0, cmd(spend=pb.Spend(good="coin", feature="energy_bar_1", space=0))
    )
    history += evs(coin.accepted())
    sold = position(history).when(0, cmd(sell=pb.Sell(good="blobber")))
    assert evs(sold.accepted())[0].good_sold.coins == 2
    history += evs(sold)
    assert sold.state.players[0].purse == 2
    assert sold.state.players[0].card == -1, "both halves done: the card is finished"
    for space in (1, 2):
        spend = pb.Spend(good="coin", feature="energy_bar_1", space=space)
        history += step(history, 0, cmd(spend=spend))
    after = position(history)
    assert after.state.players[0].energy == (("energy_bar_1", 2),)
    assert after.view(0)["players"][0]["sheets"]["energy"] == [
        {"bar": "energy_bar_1", "charges": 2}
    ]


def _legal(state: TendState) -> list[pb.Command]:
    return ENGINE.legal_commands(state, 0)


def test_elizabeth_resolves_river_fisher() -> None:
    """River Fisher: she chops with 1 action and 1 from her energy bar, spends both on the
    first bottom square of the path (a "+2"), and 2 more on the next: exo wood on a level
    square. The exo wood completes her rod, the chopping level gives a wood for her wood
    badge. The river is open, so she fishes: black 2, white 3 is empty, and her rod takes
    the fish above it, which goes in stall 2 as 2 boxes between two mining goods. Her bar
    keeps one of its two charges."""
    history = _cave_fisher()
    history += step(history, 0, cmd(choose_card=pb.ChooseCard(slot=3)))
    chop = position(history)
    task = chop.state.players[0].task
    assert task is not None and (task.kind, task.actions) == ("chop", 1)
    chop.when(0, cmd(chop=pb.Chop(square=18))).refused("actions.short")
    history += evs(chop.when(0, cmd(use_energy=pb.UseEnergy(bar="energy_bar_1"))).accepted())
    first = position(history)
    draw = draw_of(first.state, 0, "woods", 18, PLUS_TWO)
    plus = first.when(0, cmd(chop=pb.Chop(square=18)), Scripted(draw)).accepted()
    assert plus.state.players[0].task is not None
    assert plus.state.players[0].task.actions == 2, "2 spent, then +2 from the square"
    history += evs(plus)
    second = position(history)
    draw = draw_of(second.state, 0, "woods", 24, EXO_LEVEL)
    exo = second.when(0, cmd(chop=pb.Chop(square=24)), Scripted(draw)).accepted()
    assert exo.state.players[0].pending == ("exo_wood", "wood")
    assert exo.state.players[0].chop_level == 2
    history += evs(exo)
    rod = pb.Spend(good="exo_wood", feature="fishing_rod", space=2)
    history += step(history, 0, cmd(spend=rod))
    assert position(history).state.players[0].rods == ("cross",)
    badge = pb.Spend(good="wood", feature="wood_badge", space=0)
    fishing = position(history).when(0, cmd(spend=badge)).accepted()
    began = [ev.task_began for ev in evs(fishing) if ev.HasField("task_began")]
    assert [(b.task, b.actions) for b in began] == [("fish", 1)]
    history += evs(fishing)
    cast = position(history).when(0, cmd(cast=pb.Cast(area="river")), Scripted(1, 2)).accepted()
    assert evs(cast)[0].line_cast == pb.LineCast(seat=0, area="river", black=2, white=3)
    assert evs(cast)[1].aimed == pb.Aimed(seat=0, square=5, rod="cross")
    history += evs(cast)
    aimed = position(history)
    assert content().tables["river"].at(white=3, black=2) == ""
    assert [c.catch.square for c in _legal(aimed.state) if c.HasField("catch")] == [0, 6, 10]
    aimed.when(0, cmd(catch=pb.Catch(square=5))).refused("catch.empty")
    caught = aimed.when(0, cmd(catch=pb.Catch(square=0))).accepted()
    assert evs(caught)[1].fish_caught.good == "pebblepuff"
    history += evs(caught)
    ship = pb.Ship(good="pebblepuff", cells=[4, 5])
    history += step(history, 0, cmd(ship=ship))
    # She could still use her bar's second charge for one more catch; she stops.
    done = position(history).when(0, cmd(finish=pb.Finish())).accepted()
    player = done.state.players[0]
    assert player.energy == (("energy_bar_1", 1),), "the bar keeps 1 of its 2 charges"
    assert player.card == -1 and player.chosen == (4, 3)
    assert done.view(0)["players"][0]["score"]["stalls"] == [0, 6, 0], "2 fish boxes x 2 + 2"


def test_adria_plants_waters_and_tills() -> None:
    """Adria's three tend actions: she plants a large crop on a 4 x 4 of tilled soil,
    waters it (it and the crop touching it tick up; a crop touching only at a corner does
    not), and tills 6 soil to prepare a trellis."""
    soil = [(r, c) for r in range(4, 8) for c in range(5, 9)] + [(2, 9), (3, 9), (2, 10), (3, 10)]
    history = [
        *opening(),
        *[e(mark_drawn=pb.MarkDrawn(seat=0, mark="tilled", cell=farm(r, c))) for r, c in soil],
        *crossed(0, "farm_tools", [0, 1, 2]),
        unlocked(0, "tool", "tend"),
        *crossed(0, "energy_bar_1", [0, 1, 2]),
        unlocked(0, "energy", "energy_bar_1", 2),
        # Berries touching the 4 x 4 on its right side; another only at its corner.
        e(crop_planted=pb.CropPlanted(seat=0, crop="berries", cell=farm(4, 9))),
        e(crop_planted=pb.CropPlanted(seat=0, crop="berries", cell=farm(2, 9))),
    ]
    # The tilled marks above need their soil in hand first.
    history = [*history[:1], gained(0, *["tilled"] * len(soil)), *history[1:]]
    history += step(history, 0, cmd(choose_card=pb.ChooseCard(slot=0)))
    tend = position(history)
    assert tend.state.players[0].task is not None
    assert tend.state.players[0].task.actions == 2, "1, and 1 for the farm tools"
    history += evs(tend.when(0, cmd(use_energy=pb.UseEnergy(bar="energy_bar_1"))).accepted())
    plant = pb.Plant(crop="pumpkin", cell=farm(4, 5))
    history += step(history, 0, cmd(plant=plant))
    watered = position(history).when(0, cmd(water=pb.Water(cell=farm(4, 5)))).accepted()
    ticks = {t.cell: t.value for t in evs(watered)[1].crops_watered.dice}
    assert ticks == {farm(4, 5): 2, farm(4, 9): 2}, "the crop and the one touching its side"
    history += evs(watered)
    tilled = position(history).when(0, cmd(till=pb.Till())).accepted()
    assert tilled.state.players[0].pending == ("tilled",) * 6
    history += evs(tilled)
    for cell in (farm(0, 0), farm(0, 1), farm(0, 2), farm(0, 3), farm(0, 4), farm(0, 5)):
        history += step(history, 0, cmd(draw=pb.Draw(mark="tilled", cell=cell)))
    after = position(history).state.players[0]
    assert after.task is None, "three actions: plant, water, till"
    assert {farm(0, c) for c in range(6)} <= set(after.tilled)


def _cargo_example() -> list[pb.Event]:
    """The rulebook's manifest: stall 1 holds 2 goods on 4 boxes; stall 2 holds 5 goods on
    12 boxes, 6 of them fish; stall 3 holds 3 goods on 6 boxes, 1 of them mining."""
    return [
        *opening(),
        *shipped(0, "berries", [(0, 0), (0, 1)]),
        *shipped(0, "copper", [(1, 0), (1, 1)]),
        *shipped(0, "pebblepuff", [(0, 3), (0, 4)]),
        *shipped(0, "red_blueprint", [(0, 5), (0, 6)]),
        *shipped(0, "pumpkin", [(1, 3), (1, 4), (2, 3), (2, 4)]),
        *shipped(0, "blobber", [(1, 5), (1, 6)]),
        *shipped(0, "lillybloom", [(3, 5), (4, 5)]),
        *shipped(0, "stone", [(0, 7)]),
        *shipped(0, "wool", [(0, 8), (0, 9), (1, 9)]),
        *shipped(0, "red_blueprint", [(1, 7), (1, 8)]),
    ]


def test_the_cargo_scoring_example_scores_4_18_and_5() -> None:
    """Stall 1: 4 boxes, 4 points; stall 2: 12 boxes with fish at 2 each, 18 points;
    stall 3: 6 boxes with mining at 0, 5 points."""
    score = position(_cargo_example()).view(0)["players"][0]["score"]
    assert score["stalls"] == [4, 18, 5]
    assert score["total"] == 27


def test_season_1_scoring_three_energy_bars_score_12() -> None:
    """'3 energy bars collected (12 points) at the end of season 1.'"""
    history = opening(seats=2)
    for bar in ("energy_bar_1", "energy_bar_2", "energy_bar_3"):
        history += crossed(0, bar, range(len(content().features[bar].spaces)))
        history.append(unlocked(0, "energy", bar, 2))
    history += [
        e(phase_began=pb.PhaseBegan(round=5, phase="tasks")),
        e(phase_finished=pb.PhaseFinished(seat=0, phase="tasks")),
    ]
    # The last seat to finish round 5 starts round 6 with its neighbour phase...
    history += step(history, 1, cmd(finish=pb.Finish()))
    round_six = position(history)
    assert (round_six.state.round, round_six.state.phase) == (6, "neighbour")
    history += evs(round_six.when(0, cmd(finish=pb.Finish())).accepted())
    # ...and once every seat is done with it, the scoring phase scores season 1.
    last = position(history).when(1, cmd(finish=pb.Finish())).accepted()
    objective = [ev.objective_scored for ev in evs(last) if ev.HasField("objective_scored")]
    assert [(o.season, o.objective, list(o.points)) for o in objective] == [
        (1, "energised", [12, 0])
    ]
    assert _kinds(evs(last))[-1] == "phase_began" and last.state.phase == "tasks"


def test_milk_sells_for_4_coins() -> None:
    history = [*opening(), gained(0, "milk")]
    sold = position(history).when(0, cmd(sell=pb.Sell(good="milk"))).accepted()
    assert evs(sold)[0].good_sold.coins == 4 and sold.state.players[0].purse == 4


def test_a_rod_and_a_lure_catch_two_fish() -> None:
    """'1 rod and 1 lure used gives a modified catch area and +1 fishing action, gaining 2
    resources in the fishing area.'"""
    row = ("starter_fish_1", "starter_chop_1", "starter_mine_1", "starter_tend_1", "starter_coins")
    history = [
        *opening(row=row),
        *crossed(0, "fishing_rod", [0, 1, 2]),
        unlocked(0, "rod", "cross"),
        *crossed(0, "spinner_lure", [0, 1]),
        unlocked(0, "lure", "spinner_lure"),
    ]
    history += step(history, 0, cmd(choose_card=pb.ChooseCard(slot=0)))
    fish = position(history)
    assert fish.state.players[0].task is not None and fish.state.players[0].task.actions == 2
    # Pond, black 4 white 4: a mamble; the cross rod also reaches the sunpop to its right.
    history += evs(fish.when(0, cmd(cast=pb.Cast(area="pond")), Scripted(3, 3)).accepted())
    caught = []
    for square in (12, 13):
        catch = step(history, 0, cmd(catch=pb.Catch(square=square)))
        caught.append(catch[1].fish_caught.good)
        history += catch
        history += step(history, 0, cmd(sell=pb.Sell(good=caught[-1])))
    assert caught == ["mamble", "sunpop"]
    assert position(history).state.players[0].task is None, "two actions, two fish"
