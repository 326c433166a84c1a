"""The four tasks: Chopping, Mining (geodes, levels, unlocks), Fishing (wild dice, rods,
lures) and Tending (planting, trellises, watering, tilling), and the Growth Phase."""

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
    step,
    unlocked,
)

# starter tend, chop, mine, fish, coins
SLOT = {"tend": 0, "chop": 1, "mine": 2, "fish": 3}


def _kinds(events: list[pb.Event]) -> list[str]:
    return [ev.WhichOneof("kind") or "" for ev in events]


def _task(history: list[pb.Event], task: str) -> list[pb.Event]:
    return history + step(history, 0, cmd(choose_card=pb.ChooseCard(slot=SLOT[task])))


def _squares(state: TendState, kind: str) -> list[int]:
    legal = ENGINE.legal_commands(state, 0)
    return [getattr(c, kind).square for c in legal if c.WhichOneof("kind") == kind]


def test_chopping_costs_1_above_2_below_from_the_top_row_or_beside_a_scratched_square() -> None:
    """Top half: 1 action a square; bottom half: 2 from the same task; only the top row
    or squares next to one already chopped; rock cannot be chopped."""
    history = _task(opening(), "chop")
    state = position(history).state
    assert _squares(state, "chop") == [0, 1, 2, 3, 4, 5], "1 action: the top row"
    at = position(history)
    at.when(0, cmd(chop=pb.Chop(square=6))).refused("square.unreached")
    at.when(0, cmd(chop=pb.Chop(square=36))).refused("square.off_card")
    path = [scratched(0, "woods", n, Square(good="wood")) for n in (0, 6, 12)]
    deeper = _task([*opening(), *path], "chop")
    assert 18 not in _squares(position(deeper).state, "chop"), "a bottom square needs 2"
    position(deeper).when(0, cmd(chop=pb.Chop(square=18))).refused("actions.short")
    rocky = [*opening(), scratched(0, "woods", 4, Square(good="wood"))]
    position(_task(rocky, "chop")).when(0, cmd(chop=pb.Chop(square=10))).refused("square.rock")


def test_a_plus_square_gives_actions_and_an_action_and_coin_square_both() -> None:
    history = _task(opening(), "chop")
    state = position(history).state
    draw = draw_of(state, 0, "woods", 0, Square(actions=1, coins=1))
    found = position(history).when(0, cmd(chop=pb.Chop(square=0)), Scripted(draw)).accepted()
    assert _kinds(evs(found)) == [
        "actions_changed", "square_scratched", "actions_changed", "coins_gained",
    ]  # fmt: skip
    assert found.state.players[0].task is not None and found.state.players[0].task.actions == 1
    assert found.state.players[0].purse == 1


def test_reaching_the_bottom_row_unlocks_lake_and_grotto_fishing() -> None:
    path = [scratched(0, "mine", n, Square(good="stone")) for n in (0, 6, 12)]
    path += [scratched(0, "mine", n, Square(good="iron")) for n in (18, 24)]
    history = [*opening(), *path, *crossed(0, "pickaxe", [0, 1, 2]), unlocked(0, "tool", "mine")]
    history = _task(history, "mine")
    draw = draw_of(position(history).state, 0, "mine", 30, Square(good="gold"))
    mined = step(history, 0, cmd(mine=pb.Mine(square=30)), Scripted(draw))
    assert e(unlocked=pb.Unlocked(seat=0, what="area", name="grotto", amount=0)) in mined
    state = position(history + mined).state
    assert state.players[0].areas == ("grotto",)


def test_a_level_square_advances_its_track_and_gives_the_next_box() -> None:
    """Yellow squares raise mining (the next box of the track is gained at once)."""
    history = _task(opening(), "mine")
    draw = draw_of(position(history).state, 0, "mine", 0, Square(good="stone", level=True))
    mined = step(history, 0, cmd(mine=pb.Mine(square=0)), Scripted(draw))
    assert _kinds(mined)[2:] == ["goods_gained", "level_gained", "coins_gained"]
    assert mined[3].level_gained == pb.LevelGained(seat=0, track="mine", level=2)


def test_a_geode_is_rolled_on_the_geode_card_and_a_wild_leaves_a_choice() -> None:
    """Black 3, white 4: the geode card's square; a wild 1 lets the player take any good
    of that die's row or column."""
    history = _task(opening(), "mine")
    state = position(history).state
    draw = draw_of(state, 0, "mine", 0, Square(good="geode"))
    plain = step(history, 0, cmd(mine=pb.Mine(square=0)), Scripted(draw, 2, 3))
    good = content().geode.at(white=4, black=3)
    assert plain[2].geode_rolled == pb.GeodeRolled(seat=0, black=3, white=4, good=good)
    assert plain[3].goods_gained.goods == [good]
    wild = step(history, 0, cmd(mine=pb.Mine(square=0)), Scripted(draw, 0, 3))
    assert wild[2].geode_rolled.good == "" and len(wild) == 3
    choice = position(history + wild)
    squares = [c.crack_geode.square for c in ENGINE.legal_commands(choice.state, 0)
               if c.HasField("crack_geode")]  # fmt: skip
    assert squares == [10, 11, 12, 13, 14], "white 4: any column of row 4"
    choice.when(0, cmd(crack_geode=pb.CrackGeode(square=0))).refused("geode.not_rolled")
    cracked = choice.when(0, cmd(crack_geode=pb.CrackGeode(square=12))).accepted()
    assert cracked.state.players[0].pending == (content().geode.at(white=4, black=4),)


def test_a_geode_a_card_gives_is_rolled_on_the_geode_card() -> None:
    """Geologist's bottom half (8 squares scratched) gives a geode: it is rolled as a
    mined one is (black 3, white 4: that square's good), never held as a good; a wild
    1 leaves the square to choose before the card is finished."""
    dug = [scratched(0, "woods", n, Square(good="wood")) for n in range(6)]
    dug += [scratched(0, "mine", n, Square(good="stone")) for n in (0, 1)]
    row = ("geologist", "starter_chop_1", "starter_mine_1", "starter_fish_1", "starter_coins")
    history = [*opening(row=row), *dug]
    history += step(history, 0, cmd(choose_card=pb.ChooseCard(slot=0)))
    assert position(history).state.players[0].task is not None, "the top half: mine"
    plain = step(history, 0, cmd(finish=pb.Finish()), Scripted(2, 3))
    good = content().geode.at(white=4, black=3)
    assert _kinds(plain) == ["task_ended", "option_chosen", "geode_rolled", "goods_gained"]
    assert plain[2].geode_rolled == pb.GeodeRolled(seat=0, black=3, white=4, good=good)
    assert plain[3].goods_gained.goods == [good]
    assert position(history + plain).state.players[0].pending == (good,)
    wild = step(history, 0, cmd(finish=pb.Finish()), Scripted(3, 0))
    assert _kinds(wild)[-1] == "geode_rolled" and wild[-1].geode_rolled.good == ""
    choice = position(history + wild)
    squares = [c.crack_geode.square for c in ENGINE.legal_commands(choice.state, 0)
               if c.HasField("crack_geode")]  # fmt: skip
    assert squares == [2, 7, 12, 17, 22], "black 4: any row of column 4"
    cracked = choice.when(0, cmd(crack_geode=pb.CrackGeode(square=22))).accepted()
    assert _kinds(evs(cracked)) == ["geode_cracked", "goods_gained"]
    assert cracked.state.players[0].pending == (content().geode.at(white=6, black=4),)


def test_fishing_with_a_wild_die_and_two_rods_leaves_the_aim_to_the_player() -> None:
    """A 1 is wild (any column for black); with both rods unlocked one is chosen."""
    history = [
        *opening(),
        *crossed(0, "fishing_rod", [0, 1, 2]),
        unlocked(0, "rod", "cross"),
        *crossed(0, "angler_rod", [0, 1, 2]),
        unlocked(0, "rod", "diagonal"),
    ]
    history = _task(history, "fish")
    cast = step(history, 0, cmd(cast=pb.Cast(area="pond")), Scripted(0, 2))
    assert cast[0].line_cast == pb.LineCast(seat=0, area="pond", black=1, white=3)
    aiming = position(history + cast)
    aims = [(c.aim.square, c.aim.rod) for c in ENGINE.legal_commands(aiming.state, 0)
            if c.HasField("aim")]  # fmt: skip
    assert aims == [(s, r) for s in range(5, 10) for r in ("cross", "diagonal")]
    aiming.when(0, cmd(aim=pb.Aim(square=5, rod=""))).refused("rod.locked")
    aiming.when(0, cmd(aim=pb.Aim(square=12, rod="cross"))).refused("aim.wrong")
    aimed = aiming.when(0, cmd(aim=pb.Aim(square=7, rod="diagonal"))).accepted()
    catchable = [c.catch.square for c in ENGINE.legal_commands(aimed.state, 0)
                 if c.HasField("catch")]  # fmt: skip
    assert catchable == [3, 11, 13], "the diagonal rod's corners that hold a fish"


def test_no_square_is_caught_twice_and_only_one_lure_unlocks() -> None:
    history = [*opening(), *crossed(0, "spinner_lure", [0, 1]), unlocked(0, "lure", "spinner_lure")]
    history = _task(history, "fish")
    history += step(history, 0, cmd(cast=pb.Cast(area="pond")), Scripted(3, 3))
    history += step(history, 0, cmd(catch=pb.Catch(square=12)))
    history += step(history, 0, cmd(sell=pb.Sell(good="mamble")))
    assert position(history).state.players[0].task is None, "no rod: one square, caught"
    again = [*opening(), *crossed(0, "spinner_lure", [0, 1]), unlocked(0, "lure", "spinner_lure")]
    again += [gained(0, "berries")]
    refused = position(again).when(
        0, cmd(spend=pb.Spend(good="berries", feature="worm_lure", space=0))
    )
    refused.refused("lure.only_one")


def test_energy_on_a_fishing_task_works_like_a_lure() -> None:
    history = [
        *opening(),
        *crossed(0, "fishing_rod", [0, 1, 2]),
        unlocked(0, "rod", "cross"),
        *crossed(0, "energy_bar_1", [0, 1, 2]),
        unlocked(0, "energy", "energy_bar_1", 2),
    ]
    history = _task(history, "fish")
    history += step(history, 0, cmd(cast=pb.Cast(area="pond")), Scripted(3, 3))
    history += step(history, 0, cmd(catch=pb.Catch(square=12)))
    history += step(history, 0, cmd(sell=pb.Sell(good="mamble")))
    state = position(history).state
    assert state.players[0].task is not None and state.players[0].task.actions == 0
    history += step(history, 0, cmd(use_energy=pb.UseEnergy(bar="energy_bar_1")))
    position(history).when(0, cmd(catch=pb.Catch(square=12))).refused("catch.twice")
    history += step(history, 0, cmd(catch=pb.Catch(square=13)))
    assert position(history).state.players[0].pending == ("sunpop",)


def test_planting_needs_free_tilled_soil_a_trellis_for_wild_fruit_and_a_die() -> None:
    """A small crop on a 2 x 2 of tilled soil; wild fruit also needs a trellis there; no
    crop can be planted when its dice have all left the supply."""
    history = _task(opening(), "tend")
    tend = position(history)
    spots = {(c.plant.crop, c.plant.cell) for c in ENGINE.legal_commands(tend.state, 0)
             if c.HasField("plant")}  # fmt: skip
    assert spots == {("berries", farm(1, c)) for c in (1, 2, 3)}, "the 2 x 4 starting soil"
    tend.when(0, cmd(plant=pb.Plant(crop="wild_fruit", cell=farm(1, 1)))).refused("crop.no_spot")
    tend.when(0, cmd(plant=pb.Plant(crop="pumpkin", cell=farm(1, 1)))).refused("crop.no_spot")
    trellis = [
        gained(0, "trellis"),
        e(mark_drawn=pb.MarkDrawn(seat=0, mark="trellis", cell=farm(1, 3))),
    ]
    vine = _task([*opening(), *trellis], "tend")
    vine_spots = [c.plant.cell for c in ENGINE.legal_commands(position(vine).state, 0)
                  if c.HasField("plant") and c.plant.crop == "wild_fruit"]  # fmt: skip
    assert vine_spots == [farm(1, 3)]
    crowded = opening(seats=6)
    for seat in range(5):
        crowded += [e(crop_planted=pb.CropPlanted(seat=seat, crop="berries", cell=farm(1, 1)))]
        crowded += [e(crop_planted=pb.CropPlanted(seat=seat, crop="berries", cell=farm(1, 3)))]
    crowded += step(crowded, 5, cmd(choose_card=pb.ChooseCard(slot=0)))
    position(crowded).when(5, cmd(plant=pb.Plant(crop="berries", cell=farm(1, 1)))).refused(
        "dice.none_left"
    )


def test_watering_ticks_the_crop_and_the_crops_touching_it_never_animals() -> None:
    """Berries side by side, a chicken in the printed small pen (closed with 3 fences)
    touching neither; watering one bush ticks both bushes, never the chicken."""
    gaps = [farm(4, 8), farm(4, 9), farm(5, 10)]
    history = [
        *opening(),
        e(crop_planted=pb.CropPlanted(seat=0, crop="berries", cell=farm(1, 1))),
        e(crop_planted=pb.CropPlanted(seat=0, crop="berries", cell=farm(1, 3))),
        unlocked(0, "animal", "chicken"),
        gained(0, "fence", "fence", "fence"),
        *[e(mark_drawn=pb.MarkDrawn(seat=0, mark="fence", cell=cell)) for cell in gaps],
    ]
    place = pb.PlaceAnimal(animal="chicken", cell=farm(5, 8))
    history += step(history, 0, cmd(place_animal=place))
    history = _task(history, "tend")
    watered = step(history, 0, cmd(water=pb.Water(cell=farm(1, 1))))
    ticked = {t.cell: t.value for t in watered[1].crops_watered.dice}
    assert ticked == {farm(1, 1): 2, farm(1, 3): 2}, "the touching crop too; not the chicken"


def test_tilling_gives_six_soil_and_leftover_soil_is_let_go_when_nothing_is_empty() -> None:
    history = _task(opening(), "tend")
    tilled = step(history, 0, cmd(till=pb.Till()))
    assert tilled[-1].goods_gained.goods == ["tilled"] * 6
    position(history + tilled).when(0, cmd(discard=pb.Discard(good="tilled"))).refused(
        "discard.useful"
    )


def test_growth_ticks_every_die_harvests_white_symbols_resets_and_returns() -> None:
    """Berries: a berry at 3; at 6 two berries and the die resets to 1. Pineapples at 6:
    two pineapples and the die returns to the supply."""
    history = [
        *opening(seats=1),
        e(crop_planted=pb.CropPlanted(seat=0, crop="berries", cell=farm(1, 1))),
        e(crop_planted=pb.CropPlanted(seat=0, crop="pineapple", cell=farm(4, 5))),
    ]
    # Ticks by watering a crop alone (nothing touches it) up to the faces under test.
    dice = [pb.DieTicked(cell=farm(1, 1), die="berries", value=v) for v in (2, 5)]
    for ticked in dice:
        history.append(e(crops_watered=pb.CropsWatered(seat=0, cell=farm(1, 1), dice=[ticked])))
    for value in (2, 3, 4, 5):
        ticked = pb.DieTicked(cell=farm(4, 5), die="pineapple", value=value)
        history.append(e(crops_watered=pb.CropsWatered(seat=0, cell=farm(4, 5), dice=[ticked])))
    state = position(history).state
    assert sorted((d.die, d.value) for d in state.players[0].dice) == [
        ("berries", 5),
        ("pineapple", 5),
    ]
    history += step(history, 0, cmd(finish=pb.Finish()))
    history += step(history, 0, cmd(finish=pb.Finish()))
    grew = [ev.dice_grew for ev in history if ev.HasField("dice_grew")]
    assert [(t.die, t.value, list(t.harvest), t.then) for t in grew[0].dice] == [
        ("berries", 6, ["berries", "berries"], "reset"),
        ("pineapple", 6, ["pineapple", "pineapple"], "return"),
    ]
    after = position(history).state.players[0]
    assert [(d.die, d.value) for d in after.dice] == [("berries", 1)]
    assert after.pending == ("berries", "berries", "pineapple", "pineapple")
