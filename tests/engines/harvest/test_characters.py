"""The eight Characters, each as written."""

from __future__ import annotations

import pytest

from engines.core.errors import RuleViolation
from engines.harvest.content import content
from engines.harvest.engine import ENGINE
from engines.harvest.state import HarvestState
from proto import harvest_pb2 as pb

from .helpers import (
    at_round,
    cells,
    command,
    crop,
    placing,
    resolving,
    run,
    started,
    turn,
    turn_over,
    with_placements,
    with_player,
    with_workshop,
)


def sunrise_turn(character: str, tile: int, **player: object) -> tuple[int, HarvestState]:
    """The first seat, playing ``character``, takes Sunrise tile ``tile``."""
    state = started(3)
    seat = ENGINE.outcome(state).to_act[0]
    state = with_player(state, seat, character=character, farmhouse="lucky_house", **player)
    state = turn(at_round(state, 1, display=(tile, *state.display[1:])), seat, "sunrise")
    _, state = run(state, seat, command(choose_sunrise=pb.ChooseSunrise(tile=tile)))
    return seat, state


def test_jaime_gains_one_coin_fewer_at_sunrise() -> None:
    """Jaime: 1 Coin fewer than the chosen Sunrise tile lists."""
    _, state = sunrise_turn("jaime", 10)
    assert [(t.kind, t.amount) for t in state.steps[-1].tasks][:2] == [
        ("coin", 2),
        ("seed:strawberry", 1),
    ]


def test_jaime_moves_a_piece_after_all_placements() -> None:
    """Jaime: after every piece is placed, move one to another Open space and act there."""
    state = with_placements(started(3), ("store_3", 0), ("store_2", 1))
    state = with_player(state, 0, character="jaime", pieces=0)
    state = with_player(with_player(state, 1, pieces=0), 2, pieces=0)
    state = turn_over(turn(state, 0), 0)
    from engines.core.rng import Rng
    from engines.harvest.turns import advance

    for event in advance(state, Rng(b"j", "t", 0)):
        state = ENGINE.evolve(state, event)
    assert state.phase == "jaime" and ENGINE.outcome(state).to_act == (0,)
    _, state = run(
        state,
        0,
        command(
            move_piece=pb.MovePiece(
                from_space="store_3", to_space="workshop_2", payment=pb.Payment()
            )
        ),
    )
    assert ("workshop_2", 0) in state.placements and ("store_3", 0) not in state.placements
    assert [(t.kind, t.amount) for t in state.steps[-1].tasks] == [("workshop", 2)]


def test_remi_chooses_the_benefit_again_or_a_coin() -> None:
    """Remi: the tile's non-Coin benefit a second time, or 1 more Coin."""
    seat, state = sunrise_turn("remi", 4, fertilizer=1)
    remi = next(i for i, t in enumerate(state.steps[-1].tasks) if t.kind == "remi")
    _, again = run(state, seat, command(take_benefit=pb.TakeBenefit(task=remi, option="again")))
    assert [t.kind for t in again.steps[-1].tasks].count("fertilizer") == 2
    _, coin = run(state, seat, command(take_benefit=pb.TakeBenefit(task=remi, option="coin")))
    assert coin.players[seat].coins == state.players[seat].coins + 1


def test_mick_gets_one_extra_field_action_per_turn() -> None:
    """Mick: taking a Field Action in the Action Phase adds one more, once a turn."""
    state = resolving(with_player(started(), 0, character="mick"), 0, ("field", 1))
    _, state = run(state, 0, command(field_action=pb.FieldAction(kind="harvest")))
    assert [t.kind for t in state.steps[-1].tasks] == ["field"]
    _, state = run(state, 0, command(field_action=pb.FieldAction(kind="harvest")))
    assert state.steps[-1].tasks == ()


def test_river_pays_coin_costs_with_water_and_fertilizer() -> None:
    """River: Coin costs may be paid in Fertilizer, Water and Coins in any mix."""
    state = with_player(
        placing(at_round(started(3), 3), 0),
        0,
        character="river",
        coins=1,
        water=1,
        fertilizer=1,
    )
    pay = pb.Payment(coins=1, water=1, fertilizer=1)
    _, after = run(state, 0, command(place_worker=pb.PlaceWorker(space="fields_3", payment=pay)))
    p = after.players[0]
    assert (p.coins, p.water, p.fertilizer) == (0, 0, 0)
    payments = [
        c.place_worker.payment
        for c in ENGINE.legal_commands(state, 0)
        if c.place_worker.space == "fields_3"
    ]
    assert len(payments) == 1
    other = with_player(state, 0, character="floyd")
    refused = [c for c in ENGINE.legal_commands(other, 0) if c.place_worker.space == "fields_3"]
    assert refused == []


def test_floyd_builds_for_free() -> None:
    """Floyd: no Coin cost to build."""
    state = with_player(started(), 0, character="floyd", coins=0)
    state = with_workshop(state, "mercantile", "", "", "", "", "")
    state = resolving(state, 0, ("workshop", 1))
    _, after = run(
        state, 0, command(build=pb.Build(slot=0, cell=cells((0, 0))[0], payment=pb.Payment()))
    )
    assert after.players[0].buildings[0].building == "mercantile"


def test_penny_plants_for_one_fertilizer_less() -> None:
    """Penny: Wheat and Strawberries 0, Bushes 1, Pumpkins 2 Fertilizer."""
    state = with_player(started(), 0, character="penny", fertilizer=3, seeds=(0, 1, 1, 1))
    state = resolving(state, 0, mode="plant")
    _, state = run(
        state, 0, command(plant_seed=pb.PlantSeed(seed="strawberry", cells=cells((0, 0))))
    )
    _, state = run(
        state, 0, command(plant_seed=pb.PlantSeed(seed="blueberry", cells=cells((1, 0), (1, 1))))
    )
    _, state = run(
        state,
        0,
        command(plant_seed=pb.PlantSeed(seed="pumpkin", cells=cells((2, 0), (3, 0), (3, 1)))),
    )
    assert state.players[0].fertilizer == 0


def test_rose_may_clear_upgrade_or_build_at_sunrise() -> None:
    """Rose: one of Clear Land (no die), upgrade the Bucket, or Build, at Sunrise."""
    seat, state = sunrise_turn("rose", 1)
    rose = [t.kind for t in state.steps[-1].tasks]
    assert "rose" in rose
    forest = cells(state.players[seat].forests[0])[0]
    events, after = run(
        state, seat, command(clear_land=pb.ClearLand(forest=forest, payment=pb.Payment()))
    )
    assert not any(e.HasField("forest_die_rolled") for e in events)
    assert "rose" not in [t.kind for t in after.steps[-1].tasks]
    _, upgraded = run(state, seat, command(upgrade_bucket=pb.UpgradeBucket(payment=pb.Payment())))
    assert upgraded.players[seat].bucket == state.players[seat].bucket + 1


def test_rose_builds_at_sunrise_paying_the_cost_as_usual() -> None:
    """Rose: Build a Building at Sunrise, "paying building costs as usual"."""
    seat, state = sunrise_turn("rose", 1, coins=2)
    state = with_workshop(state, "", "", "compost_bin", "", "", "")
    site = cells((0, 0))[0]
    free = command(build=pb.Build(slot=2, cell=site, payment=pb.Payment()))
    with pytest.raises(RuleViolation) as error:
        run(state, seat, free)
    assert error.value.code == "payment.wrong_amount"
    paid = command(build=pb.Build(slot=2, cell=site, payment=pb.Payment(coins=2)))
    assert paid in ENGINE.legal_commands(state, seat)
    events, after = run(state, seat, paid)
    assert [b.building for b in after.players[seat].buildings] == ["compost_bin"]
    assert after.players[seat].coins == 0 and after.workshop[2] == ""
    assert "rose" not in [t.kind for t in after.steps[0].tasks]
    assert [(t.kind, t.amount) for t in after.steps[-1].tasks] == [("fertilizer", 3)]
    assert not any(e.HasField("forest_die_rolled") for e in events)


def test_leland_fills_a_bigger_bucket() -> None:
    """Leland: the Bucket starts at 6, so a fill gives 5 Water."""
    state = with_player(started(), 0, character="leland", bucket=6, water=0)
    state = resolving(state, 0, ("fill_bucket", 1))
    _, state = run(state, 0, command(take_benefit=pb.TakeBenefit(task=0)))
    assert state.players[0].water == 5


def test_lucky_farmhouse_rerolls_the_forest_die_once_a_round() -> None:
    """Farmhouse (Forest Die re-roll): one re-roll, then the result stands."""
    state = with_player(started(), 0, rerolls=1, coins=2, character="floyd")
    state = resolving(state, 0, ("workshop", 1))
    forest = cells(state.players[0].forests[0])[0]
    _, state = run(
        state, 0, command(clear_land=pb.ClearLand(forest=forest, payment=pb.Payment(coins=2)))
    )
    die = next(i for i, t in enumerate(state.steps[-1].tasks) if t.kind.startswith("die:"))
    depth = len(state.steps)
    _, state = run(state, 0, command(reroll_die=pb.RerollDie(task=die)), version=2)
    assert state.players[0].rerolls == 0
    assert len(state.steps) == depth
    assert [t.kind[:4] for t in state.steps[-1].tasks] == ["die:"]
    assert not [c for c in ENGINE.legal_commands(state, 0) if c.HasField("reroll_die")]


def test_crop_tiles_are_limited_by_the_supply() -> None:
    """Components: 12 Wheat tiles; with none left, no Wheat seed can be gained."""
    farm = tuple(crop("wheat", (r, 0)) for r in range(6)) + tuple(
        crop("wheat", (r, 1)) for r in range(5)
    )
    state = with_player(started(), 0, crops=farm, seeds=(1, 0, 0, 0))
    state = resolving(state, 0, ("purchase", 1))
    assert not [c for c in ENGINE.legal_commands(state, 0) if c.purchase.item == "wheat"]


@pytest.mark.parametrize("farmhouse", [f for f, _ in content().farmhouses])
def test_every_farmhouse_gives_its_benefits_at_sunrise(farmhouse: str) -> None:
    """Sunrise Phase 2: the Farmhouse's benefits join the tile's, every round."""
    state = started(3)
    seat = ENGINE.outcome(state).to_act[0]
    state = with_player(state, seat, farmhouse=farmhouse, character="floyd")
    tile = state.display[0]
    _, state = run(state, seat, command(choose_sunrise=pb.ChooseSunrise(tile=tile)))
    waiting = [(t.kind, t.amount) for t in state.steps[-1].tasks]
    expected = list(content().farmhouse_tasks(farmhouse))
    assert waiting[len(waiting) - len(expected) :] == expected
