"""The farm area (trellises, pens, animals) and Gaining and Using Resources (spend, sell,
ship, gift, groundskeeping, letting go)."""

from __future__ import annotations

from engines.tend.content import content
from engines.tend.engine import ENGINE
from engines.tend.state import TendState
from proto import tend_pb2 as pb
from tests.engines.tend.given import (
    cmd,
    coins,
    crossed,
    e,
    evs,
    farm,
    gained,
    opening,
    position,
    shipped,
    step,
    unlocked,
)

SMALL_PEN_GAPS = ((4, 8), (4, 9), (5, 10))


def _fences(*cells: tuple[int, int]) -> list[pb.Event]:
    return [
        gained(0, *["fence"] * len(cells)),
        *[e(mark_drawn=pb.MarkDrawn(seat=0, mark="fence", cell=farm(r, c))) for r, c in cells],
    ]


def _listed(state: TendState, kind: str) -> list[pb.Command]:
    return [c for c in ENGINE.legal_commands(state, 0) if c.WhichOneof("kind") == kind]


def test_an_animal_waits_for_a_fully_fenced_pen_corners_included() -> None:
    """Early Purchase: a chicken bought with its coin row waits; the printed small pen
    lacks three fences; with two of them (a corner still open) it is no pen; with the
    third it is, and the chicken goes in at value 1."""
    history = [*opening(), coins(0, 3)]
    for space in (0, 1, 2):
        history += step(
            history, 0, cmd(spend=pb.Spend(good="coin", feature="chicken", space=space))
        )
    state = position(history).state
    assert state.players[0].owed_animals == ("chicken",)
    assert not _listed(state, "place_animal")
    history += _fences(*SMALL_PEN_GAPS[1:])
    assert not _listed(position(history).state, "place_animal"), "the corner (4, 8) is open"
    history += _fences(SMALL_PEN_GAPS[0])
    spots = [c.place_animal.cell for c in _listed(position(history).state, "place_animal")]
    assert spots == [farm(5, 8)], "a 2 x 2 pen holds one chicken"
    placed = (
        position(history)
        .when(0, cmd(place_animal=pb.PlaceAnimal(animal="chicken", cell=farm(5, 8))))
        .accepted()
    )
    (die,) = placed.state.players[0].dice
    assert (die.die, die.value) == ("egg", 1) and not placed.state.players[0].owed_animals


def test_the_farms_edge_is_no_fence() -> None:
    """Fences along the top edge and sides do not make a pen: the edge is not a fence."""
    corner = [(0, 2), (1, 2), (2, 0), (2, 1), (2, 2)]
    history = [*opening(), unlocked(0, "animal", "chicken"), *_fences(*corner)]
    assert not _listed(position(history).state, "place_animal")


def test_animals_share_a_pen_stand_on_soil_and_move_keeping_their_value() -> None:
    """The medium pen (4 fences close it) holds a sheep; moved, it keeps its value."""
    gaps = [(3, 2), (5, 4), (7, 1), (7, 3)]
    history = [*opening(), unlocked(0, "animal", "sheep"), *_fences(*gaps)]
    history += [
        gained(0, "tilled"),
        e(mark_drawn=pb.MarkDrawn(seat=0, mark="tilled", cell=farm(4, 1))),
    ]
    spots = [c.place_animal.cell for c in _listed(position(history).state, "place_animal")]
    assert spots == [farm(4, 1)], "the 3 x 3 pen, tilled soil and all"
    sheep = pb.PlaceAnimal(animal="sheep", cell=farm(4, 1))
    history += step(history, 0, cmd(place_animal=sheep))
    assert not _listed(position(history).state, "move_animal"), "no other spot in that pen"
    # A 3 x 5 pen at rows 1-3, columns 6-10 (two printed fences close part of row 4).
    ring = [(0, c) for c in range(5, 12)] + [(4, c) for c in (5, 6, 8, 9, 11)]
    ring += [(r, c) for r in (1, 2, 3) for c in (5, 11)]
    roomy = [*opening(), unlocked(0, "animal", "chicken"), unlocked(0, "animal", "chicken")]
    roomy += _fences(*ring)
    for cell in (farm(1, 6), farm(1, 8)):
        roomy += step(roomy, 0, cmd(place_animal=pb.PlaceAnimal(animal="chicken", cell=cell)))
    assert len(position(roomy).state.players[0].dice) == 2, "two chickens share one pen"
    moves = [(c.move_animal.from_cell, c.move_animal.to_cell)
             for c in _listed(position(roomy).state, "move_animal")]  # fmt: skip
    assert (farm(1, 6), farm(2, 6)) in moves
    move = pb.MoveAnimal(from_cell=farm(1, 6), to_cell=farm(2, 6))
    moved = position(roomy).when(0, cmd(move_animal=move)).accepted()
    assert {(d.cell, d.value) for d in moved.state.players[0].dice} == {
        (farm(2, 6), 1),
        (farm(1, 8), 1),
    }


def test_a_trellis_goes_over_an_open_2x2_without_fences_or_trellises() -> None:
    """Trellises: over an open 2 x 2 (no fence, no other trellis), tilled or not."""
    history = [*opening(), *crossed(0, "trellis", [0]), gained(0, "wood")]
    history += step(history, 0, cmd(spend=pb.Spend(good="wood", feature="trellis", space=1)))
    state = position(history).state
    assert state.players[0].pending == ("trellis",)
    cells = {c.draw.cell for c in _listed(state, "draw")}
    assert farm(1, 1) in cells, "over the starting tilled soil"
    assert farm(2, 0) not in cells, "(3, 0) and (3, 1) are printed fences"
    history += step(history, 0, cmd(draw=pb.Draw(mark="trellis", cell=farm(1, 1))))
    again = [*history, gained(0, "trellis")]
    overlapping = {c.draw.cell for c in _listed(position(again).state, "draw")}
    assert farm(1, 2) not in overlapping and farm(1, 3) in overlapping


def test_selling_gives_the_commissary_value_for_this_turn_and_abilities_add() -> None:
    history = [*opening(), gained(0, "pebblepuff")]
    assert step(history, 0, cmd(sell=pb.Sell(good="pebblepuff")))[0].good_sold.coins == 2
    market = [*opening(), unlocked(0, "ability", "fish_market"), gained(0, "pebblepuff")]
    assert step(market, 0, cmd(sell=pb.Sell(good="pebblepuff")))[0].good_sold.coins == 3
    unlisted = [*opening(), gained(0, "wood")]
    position(unlisted).when(0, cmd(sell=pb.Sell(good="wood"))).refused("sell.unlisted")


def test_shipping_takes_the_goods_shape_turned_any_way_never_touching_its_type() -> None:
    """Cargo Manifest A-B: the good's shape (rotated or flipped), on free boxes, not
    orthogonally next to a good of the same type; unlisted goods never go in."""
    history = [*opening(), *shipped(0, "stone", [(0, 0)]), gained(0, "copper")]
    at = position(history)
    at.when(0, cmd(ship=pb.Ship(good="copper", cells=[1, 2]))).refused("ship.touches")
    at.when(0, cmd(ship=pb.Ship(good="copper", cells=[2, 4]))).refused("ship.bad_cells")
    at.when(0, cmd(ship=pb.Ship(good="copper", cells=[12, 2]))).refused("ship.bad_cells")
    upright = at.when(0, cmd(ship=pb.Ship(good="copper", cells=[2, 12]))).accepted()
    assert upright.state.players[0].shipped[-1] == ("copper", (2, 12)), "turned upright"
    heart = [*opening(), *shipped(0, "stone", [(0, 0)]), gained(0, "heart")]
    step(heart, 0, cmd(ship=pb.Ship(good="heart", cells=[1])))
    wood = [*opening(), gained(0, "wood")]
    position(wood).when(0, cmd(ship=pb.Ship(good="wood", cells=[0]))).refused("ship.unlisted")
    assert not [c for c in ENGINE.legal_commands(position(wood).state, 0) if c.HasField("ship")]


def test_spending_crosses_the_first_free_space_of_its_kind_and_unlocks_at_once() -> None:
    """Marking on Sheets: a row with dividing lines unlocks alone (a trellis row), a grid
    without them when full (the bridge); a good fills the first free space of its kind."""
    history = [*opening(), gained(0, "wood")]
    at = position(history)
    at.when(0, cmd(spend=pb.Spend(good="wood", feature="bridge", space=1))).refused(
        "space.not_first"
    )
    at.when(0, cmd(spend=pb.Spend(good="wood", feature="bridge", space=4))).refused(
        "space.wrong_good"
    )
    targets = {(c.spend.feature, c.spend.space) for c in _listed(at.state, "spend")}
    assert ("bridge", 0) in targets and ("trellis", 0) in targets and ("trellis", 2) in targets
    trellis = [*opening(), *crossed(0, "trellis", [0]), gained(0, "wood")]
    done = step(trellis, 0, cmd(spend=pb.Spend(good="wood", feature="trellis", space=1)))
    assert [ev.WhichOneof("kind") for ev in done] == ["good_spent", "row_completed", "goods_gained"]
    full = [*opening(), *crossed(0, "trellis", [0, 1]), gained(0, "wood")]
    position(full).when(0, cmd(spend=pb.Spend(good="wood", feature="trellis", space=1))).refused(
        "space.taken"
    )


def test_groundskeeping_is_free_repeatable_and_at_its_rates() -> None:
    """Turn in gold, stone, wood, exo wood, copper or iron for soil or fences."""
    for rate in content().groundskeeping.values():
        for mark, count in (("tilled", rate.tilled), ("fence", rate.fence)):
            history = [*opening(), gained(0, rate.good)]
            command = cmd(groundskeep=pb.Groundskeep(good=rate.good, mark=mark))
            if count:
                assert step(history, 0, command)[1].goods_gained.goods == [mark] * count
            else:
                position(history).when(0, command).refused("grounds.unknown")
    crafty = [*opening(), unlocked(0, "ability", "craftsman"), gained(0, "wood")]
    more = step(crafty, 0, cmd(groundskeep=pb.Groundskeep(good="wood", mark="fence")))
    assert more[1].goods_gained.goods == ["fence"] * 3


def test_a_good_is_let_go_only_when_it_has_no_use() -> None:
    """Everything the commissary lists can be sold: it is never let go. A mark with no
    room left is."""
    history = [*opening(), gained(0, "stone")]
    position(history).when(0, cmd(discard=pb.Discard(good="stone"))).refused("discard.useful")
    every = [farm(r, c) for r in range(9) for c in range(12)]
    free = [n for n in every if n not in position(history).state.players[0].tilled]
    fences = set(position(history).state.players[0].fences)
    room = [n for n in free if n not in fences]
    packed = [*opening(), gained(0, *["tilled"] * (len(room) + 1))]
    packed += [e(mark_drawn=pb.MarkDrawn(seat=0, mark="tilled", cell=n)) for n in room]
    let_go = position(packed).when(0, cmd(discard=pb.Discard(good="tilled"))).accepted()
    assert evs(let_go)[0].good_discarded == pb.GoodDiscarded(seat=0, good="tilled")
