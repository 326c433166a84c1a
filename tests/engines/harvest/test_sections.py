"""Action spaces and the five town sections: General Store, Fields, Workshop,
Farmer's Market, Trading Post."""

from __future__ import annotations

import pytest

from engines.core.errors import RuleViolation
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
    with_market,
    with_placements,
    with_player,
    with_workshop,
)


def refused(state: HarvestState, seat: int, cmd: pb.Command) -> str:
    with pytest.raises(RuleViolation) as error:
        run(state, seat, cmd)
    return error.value.code


# --- action spaces ---------------------------------------------------------------------


def test_a_taken_space_is_closed_but_an_always_open_one_is_not() -> None:
    """Action Phase › Open/Closed: one piece closes a space, except infinity spaces."""
    state = placing(with_placements(started(3), ("store_3", 1), ("store_1", 1)), 0)
    cmd = command(place_worker=pb.PlaceWorker(space="store_3", payment=pb.Payment()))
    assert refused(state, 0, cmd) == "space.closed"
    _, after = run(
        state, 0, command(place_worker=pb.PlaceWorker(space="store_1", payment=pb.Payment()))
    )
    assert ("store_1", 0) in after.placements
    assert [t.kind for t in after.steps[-1].tasks] == ["purchase", "coin"]
    legal = {c.place_worker.space for c in ENGINE.legal_commands(state, 0)}
    assert "store_3" not in legal and "store_1" in legal


def test_an_always_open_space_holding_gairys_piece_stays_open() -> None:
    """1-2 players: "If Gairy visits an Always Open ACTION SPACE, the player may still use
    this space like normal"."""
    state = with_placements(started(2), ("store_1", -1), ("trading_1", -1))
    state = placing(state, 0)
    spaces = {c.place_worker.space for c in ENGINE.legal_commands(state, 0)}
    assert {"store_1", "trading_1"} <= spaces
    _, after = run(
        state, 0, command(place_worker=pb.PlaceWorker(space="store_1", payment=pb.Payment()))
    )
    assert after.placements[-1] == ("store_1", 0)
    assert [t.kind for t in after.steps[-1].tasks] == ["purchase", "coin"]


def test_only_the_seat_to_act_may_place() -> None:
    """Commands from a seat whose turn it is not are refused."""
    state = placing(started(3), 0)
    assert (
        refused(
            state, 1, command(place_worker=pb.PlaceWorker(space="store_2", payment=pb.Payment()))
        )
        == "turn.not_yours"
    )


def test_fields_three_costs_coins_equal_to_the_round() -> None:
    """The Fields: the 3-action space costs 1, 2, 3, 4 Coins by round."""
    state = with_player(placing(at_round(started(3), 3), 0), 0, coins=2, character="floyd")
    assert (
        refused(
            state,
            0,
            command(place_worker=pb.PlaceWorker(space="fields_3", payment=pb.Payment(coins=3))),
        )
        == "payment.cannot_afford"
    )
    state = with_player(state, 0, coins=3)
    _, after = run(
        state,
        0,
        command(place_worker=pb.PlaceWorker(space="fields_3", payment=pb.Payment(coins=3))),
    )
    assert after.players[0].coins == 0
    assert [(t.kind, t.amount) for t in after.steps[-1].tasks] == [("field", 3)]


def test_the_small_market_is_out_to_lunch_below_four_players() -> None:
    """Game Setup 6: the small Farmer's Market space is covered at 1-3 players."""
    state = placing(started(3), 0)
    assert (
        refused(
            state,
            0,
            command(place_worker=pb.PlaceWorker(space="market_small", payment=pb.Payment())),
        )
        == "space.unknown"
    )
    four = placing(started(4), 0)
    spaces = {c.place_worker.space for c in ENGINE.legal_commands(four, 0)}
    assert "market_small" in spaces


# --- General Store ---------------------------------------------------------------------


def test_general_store_purchases_and_prices() -> None:
    """The General Store: Fertilizer free, fill Bucket 1, Seeds 0/1/2/3; a Blueberry seed
    is a Bush tile."""
    state = with_player(started(), 0, coins=6, water=0, bucket=5, character="floyd")
    state = resolving(state, 0, ("purchase", 3))
    _, state = run(
        state, 0, command(purchase=pb.Purchase(item="blueberry", payment=pb.Payment(coins=2)))
    )
    _, state = run(
        state, 0, command(purchase=pb.Purchase(item="fill_bucket", payment=pb.Payment(coins=1)))
    )
    _, state = run(
        state, 0, command(purchase=pb.Purchase(item="pumpkin", payment=pb.Payment(coins=3)))
    )
    p = state.players[0]
    assert (p.coins, p.water, p.seeds) == (0, 4, (1, 0, 1, 1))
    assert (
        refused(state, 0, command(purchase=pb.Purchase(item="wheat", payment=pb.Payment())))
        == "purchase.none"
    )


def test_a_purchase_may_be_repeated_in_one_visit() -> None:
    """The General Store: "You can purchase an item more than once in the same turn"."""
    state = with_player(started(), 0, coins=2, seeds=(0, 0, 0, 0), character="floyd")
    state = resolving(state, 0, ("purchase", 3))
    strawberry = command(purchase=pb.Purchase(item="strawberry", payment=pb.Payment(coins=1)))
    _, state = run(state, 0, strawberry)
    assert strawberry in ENGINE.legal_commands(state, 0)
    _, state = run(state, 0, strawberry)
    assert (state.players[0].coins, state.players[0].seeds) == (0, (0, 2, 0, 0))


def test_the_two_purchase_space_gives_two_purchases() -> None:
    """The General Store: the value on the space is the number of purchases: 2 here."""
    state = with_player(placing(started(3), 0), 0, seeds=(0, 0, 0, 0), character="floyd")
    _, state = run(
        state, 0, command(place_worker=pb.PlaceWorker(space="store_2", payment=pb.Payment()))
    )
    assert [(t.kind, t.amount) for t in state.steps[-1].tasks] == [("purchase", 2)]
    wheat = command(purchase=pb.Purchase(item="wheat", payment=pb.Payment()))
    _, state = run(state, 0, wheat)
    _, state = run(state, 0, wheat)
    assert state.players[0].seeds == (2, 0, 0, 0)
    assert refused(state, 0, wheat) == "purchase.none"
    assert all(not c.HasField("purchase") for c in ENGINE.legal_commands(state, 0))


def test_wheat_is_free_and_a_strawberry_costs_one_coin() -> None:
    """Purchase Seeds: Wheat free, Strawberry 1 Coin; any other payment is refused."""
    state = with_player(started(), 0, coins=3, seeds=(0, 0, 0, 0), character="floyd")
    state = resolving(state, 0, ("purchase", 2))

    def buy(item: str, coins: int) -> pb.Command:
        return command(purchase=pb.Purchase(item=item, payment=pb.Payment(coins=coins)))

    assert refused(state, 0, buy("wheat", 1)) == "payment.wrong_amount"
    assert refused(state, 0, buy("strawberry", 0)) == "payment.wrong_amount"
    assert refused(state, 0, buy("strawberry", 2)) == "payment.wrong_amount"
    listed = {
        c.purchase.item: c.purchase.payment.coins
        for c in ENGINE.legal_commands(state, 0)
        if c.HasField("purchase")
    }
    assert (listed["wheat"], listed["strawberry"]) == (0, 1)
    _, state = run(state, 0, buy("wheat", 0))
    assert (state.players[0].coins, state.players[0].seeds) == (3, (1, 0, 0, 0))
    _, state = run(state, 0, buy("strawberry", 1))
    assert (state.players[0].coins, state.players[0].seeds) == (2, (1, 1, 0, 0))


def test_fertilizer_stops_at_nine() -> None:
    """Gain a Fertilizer: the track holds 9 at most."""
    state = resolving(with_player(started(), 0, fertilizer=9), 0, ("purchase", 1))
    assert (
        refused(state, 0, command(purchase=pb.Purchase(item="fertilizer", payment=pb.Payment())))
        == "purchase.fertilizer_full"
    )


def test_filling_a_full_bucket_is_refused() -> None:
    """Fill Your Bucket: the Water Token cannot move onto the Bucket, so a full Bucket
    has nothing to fill and the purchase (which would only cost a Coin) is refused."""
    state = resolving(with_player(started(), 0, water=2, bucket=3, coins=1), 0, ("purchase", 1))
    fill = command(purchase=pb.Purchase(item="fill_bucket", payment=pb.Payment(coins=1)))
    assert refused(state, 0, fill) == "purchase.bucket_full"
    assert all(c.purchase.item != "fill_bucket" for c in ENGINE.legal_commands(state, 0))


# --- Fields ----------------------------------------------------------------------------


@pytest.mark.parametrize("before", [True, False])
def test_fields_one_gives_a_field_action_and_water_or_fertilizer(before: bool) -> None:
    """The Fields: the 1 space grants a Water or a Fertilizer, taken before or after
    the Field Action."""
    farm = (crop("wheat", (0, 0), (1, 0), (2, 0)),)
    state = with_player(placing(started(3), 0), 0, crops=farm, water=0, fertilizer=0)
    _, state = run(
        state, 0, command(place_worker=pb.PlaceWorker(space="fields_1", payment=pb.Payment()))
    )
    assert [(t.kind, t.amount) for t in state.steps[-1].tasks] == [
        ("field", 1),
        ("water_or_fertilizer", 1),
    ]
    harvest = command(field_action=pb.FieldAction(kind="harvest"))
    if not before:
        _, state = run(state, 0, harvest)
    benefit = [t.kind for t in state.steps[-1].tasks].index("water_or_fertilizer")
    options = {
        c.take_benefit.option
        for c in ENGINE.legal_commands(state, 0)
        if c.HasField("take_benefit") and c.take_benefit.task == benefit
    }
    assert options == {"water", "fertilizer"}
    water = command(take_benefit=pb.TakeBenefit(task=benefit, option="water"))
    _, with_water = run(state, 0, water)
    fertilizer = command(take_benefit=pb.TakeBenefit(task=benefit, option="fertilizer"))
    _, with_fertilizer = run(state, 0, fertilizer)
    harvested = 0 if before else 1  # a harvested Wheat gives a Fertilizer too
    assert (with_water.players[0].water, with_water.players[0].fertilizer) == (1, harvested)
    assert with_fertilizer.players[0].fertilizer == 1 + harvested
    if before:
        _, with_water = run(with_water, 0, harvest)
        assert with_water.players[0].points == 1


def test_planting_needs_the_right_shape_empty_spaces_and_fertilizer() -> None:
    """Plant: shapes cover 3/1/2/3 spaces in any orientation, on empty field spaces."""
    state = with_player(started(), 0, seeds=(1, 1, 0, 1), fertilizer=2, character="floyd")
    state = resolving(state, 0, mode="plant")
    bent = command(plant_seed=pb.PlantSeed(seed="wheat", cells=cells((0, 0), (0, 1), (1, 1))))
    assert refused(state, 0, bent) == "plant.bad_shape"
    forest = command(plant_seed=pb.PlantSeed(seed="strawberry", cells=cells((0, 2))))
    assert refused(state, 0, forest) == "plant.not_empty"
    pumpkin = command(plant_seed=pb.PlantSeed(seed="pumpkin", cells=cells((0, 0), (1, 0), (1, 1))))
    assert refused(state, 0, pumpkin) == "plant.no_fertilizer"
    lying = command(plant_seed=pb.PlantSeed(seed="wheat", cells=cells((0, 0), (1, 0), (2, 0))))
    _, after = run(state, 0, lying)
    assert after.players[0].fertilizer == 2


def test_tending_spreads_orthogonally_only() -> None:
    """Tend: the new crop touches a crop of its type; diagonals do not count."""
    state = with_player(
        started(), 0, crops=(crop("strawberry", (0, 0)),), water=3, character="floyd"
    )
    state = resolving(state, 0, mode="tend")
    diagonal = command(tend_crop=pb.TendCrop(crop="strawberry", cells=cells((1, 1))))
    assert refused(state, 0, diagonal) == "tend.bad_spot"
    _, state = run(state, 0, command(tend_crop=pb.TendCrop(crop="strawberry", cells=cells((1, 0)))))
    assert state.steps[-1].owed == "strawberry"
    with pytest.raises(RuleViolation) as owed:
        run(state, 0, command(finish=pb.Finish()))
    assert (owed.value.code, owed.value.message) == (
        "command.not_now",
        "Place the tended strawberry first.",
    )


def test_a_tended_crop_with_no_space_returns_to_the_supply() -> None:
    """Tend › Reminder: the second Strawberry with no legal space goes back."""
    farm = (
        crop("strawberry", (0, 0)),
        crop("pumpkin", (0, 1), (1, 1)),
        crop("wheat", (2, 0), (3, 0), (4, 0)),
    )
    state = with_player(started(), 0, crops=farm, water=3, character="floyd")
    state = resolving(state, 0, mode="tend")
    _, state = run(state, 0, command(tend_crop=pb.TendCrop(crop="strawberry", cells=cells((1, 0)))))
    legal = ENGINE.legal_commands(state, 0)
    assert [(c.tend_crop.crop, list(c.tend_crop.cells)) for c in legal] == [("strawberry", [])]
    events, state = run(state, 0, legal[0])
    assert [e.WhichOneof("kind") for e in events] == ["crop_returned"]
    assert state.steps[-1].owed == ""
    assert sum(1 for c in state.players[0].crops if c.kind == "strawberry") == 2


def test_tending_a_crop_with_no_space_for_its_new_tile_is_refused() -> None:
    """Tend: a tended crop with no legal space would go back to the Supply; the first
    one is refused instead of taking Water for nothing (a choice, see RULES.md)."""
    farm = (crop("pumpkin", (0, 0), (1, 0), (1, 1)), crop("wheat", (2, 0), (3, 0), (4, 0)))
    state = with_player(started(), 0, crops=farm, water=3, bucket=4, character="floyd")
    state = with_player(state, 0, forests=((0, 2), (2, 2), (4, 2)), buildings=())
    state = resolving(state, 0, mode="tend")
    legal = ENGINE.legal_commands(state, 0)
    assert all(c.tend_crop.crop != "pumpkin" for c in legal)
    nowhere = command(tend_crop=pb.TendCrop(crop="pumpkin", cells=[]))
    assert refused(state, 0, nowhere) == "tend.bad_spot"
    assert state.players[0].water == 3


def test_tending_wheat_costs_one_water() -> None:
    """Tend: Wheat costs 1 Water and places one Wheat beside it."""
    farm = (crop("wheat", (0, 0), (1, 0), (2, 0)),)
    state = with_player(started(), 0, crops=farm, water=3, bucket=4, character="floyd")
    state = resolving(state, 0, mode="tend")
    spot = cells((3, 0), (4, 0), (5, 0))
    _, state = run(state, 0, command(tend_crop=pb.TendCrop(crop="wheat", cells=spot)))
    p = state.players[0]
    assert p.water == 2
    assert sorted(len(c.cells) for c in p.crops if c.kind == "wheat") == [3, 3]
    assert state.steps[-1].owed == ""
    broke = with_player(state, 0, water=0)
    again = command(tend_crop=pb.TendCrop(crop="wheat", cells=cells((0, 1), (1, 1), (2, 1))))
    assert refused(broke, 0, again) == "tend.no_water"


def test_a_bush_holds_one_blueberry_until_harvested() -> None:
    """Tend: one Blueberry per Bush, 2 Water; a Bush with a Blueberry cannot be tended."""
    state = with_player(
        started(), 0, crops=(crop("bush", (0, 0), (0, 1), berry=True),), water=4, bucket=6
    )
    state = resolving(state, 0, mode="tend")
    assert (
        refused(
            state, 0, command(tend_crop=pb.TendCrop(crop="blueberry", cells=cells((0, 0), (0, 1))))
        )
        == "tend.bad_spot"
    )


def test_harvest_keeps_bushes_and_counts_coins_per_type() -> None:
    """Harvest: everything comes off except Bushes (bare or bearing); 1 Coin per type;
    Wheat gives Fertilizer (the track stops at 9)."""
    farm = (
        crop("wheat", (0, 0), (1, 0), (2, 0)),
        crop("strawberry", (0, 1)),
        crop("strawberry", (1, 1)),
        crop("bush", (3, 0), (3, 1), berry=True),
        crop("bush", (4, 0), (4, 1)),
    )
    state = with_player(started(), 0, crops=farm, coins=0, points=0, fertilizer=9)
    state = resolving(state, 0, ("field", 1))
    _, state = run(state, 0, command(field_action=pb.FieldAction(kind="harvest")))
    p = state.players[0]
    assert (p.points, p.coins, p.fertilizer) == (1 + 2 + 4, 3, 9)
    assert p.crops == (crop("bush", (3, 0), (3, 1)), crop("bush", (4, 0), (4, 1)))


# --- Workshop ---------------------------------------------------------------------------


def test_workshop_actions_must_all_be_different() -> None:
    """The Workshop: 3 different actions; the same one twice is refused."""
    state = with_player(started(), 0, coins=5, character="floyd")
    state = resolving(state, 0, ("workshop", 3))
    _, state = run(state, 0, command(upgrade_bucket=pb.UpgradeBucket(payment=pb.Payment(coins=1))))
    assert state.players[0].bucket == 4
    again = command(upgrade_bucket=pb.UpgradeBucket(payment=pb.Payment(coins=1)))
    assert refused(state, 0, again) == "upgrade.none"


def test_workshop_one_gives_an_action_and_two_coins_to_use_this_turn() -> None:
    """The Workshop: the 1 space is one action and 2 Coins, usable this turn."""
    state = with_player(placing(started(3), 0), 0, coins=0, character="floyd")
    _, state = run(
        state, 0, command(place_worker=pb.PlaceWorker(space="workshop_1", payment=pb.Payment()))
    )
    assert [(t.kind, t.amount) for t in state.steps[-1].tasks] == [("workshop", 1), ("coin", 2)]
    forest = cells(state.players[0].forests[0])[0]
    clear = command(clear_land=pb.ClearLand(forest=forest, payment=pb.Payment(coins=2)))
    assert refused(state, 0, clear) == "payment.cannot_afford"
    coins = [t.kind for t in state.steps[-1].tasks].index("coin")
    _, state = run(state, 0, command(take_benefit=pb.TakeBenefit(task=coins)))
    assert state.players[0].coins == 2
    _, state = run(state, 0, clear)
    assert state.players[0].coins == 0 and len(state.players[0].forests) == 5
    _, state = run(state, 0, command(finish=pb.Finish()))  # the Forest Die's step
    upgrade = command(upgrade_bucket=pb.UpgradeBucket(payment=pb.Payment()))
    assert refused(with_player(state, 0, coins=1), 0, upgrade) == "upgrade.none"


def test_bucket_upgrades_stop_at_ten() -> None:
    """Upgrade Your Bucket: at most one past the 9 space."""
    state = resolving(with_player(started(), 0, bucket=10, coins=3), 0, ("workshop", 1))
    assert (
        refused(state, 0, command(upgrade_bucket=pb.UpgradeBucket(payment=pb.Payment(coins=1))))
        == "upgrade.bucket_max"
    )


def test_clear_land_reveals_into_the_highest_empty_space_and_rolls_the_die() -> None:
    """Clear Land: 2 Coins, the building goes to the highest empty Workshop space, then
    the Forest Die; with a full Workshop the building is discarded."""
    state = with_player(started(), 0, coins=4, character="floyd")
    state = with_workshop(state, "barn", "", "silo", "", "", "")
    state = resolving(state, 0, ("workshop", 1))
    forest = cells(state.players[0].forests[0])[0]
    events, after = run(
        state, 0, command(clear_land=pb.ClearLand(forest=forest, payment=pb.Payment(coins=2)))
    )
    cleared = next(e.land_cleared for e in events if e.HasField("land_cleared"))
    assert cleared.slot == 1 and after.workshop[1] == cleared.building
    assert any(e.HasField("forest_die_rolled") for e in events)
    assert len(after.players[0].forests) == 5 and after.players[0].coins == 2
    full = with_workshop(state, "barn", "silo", "well", "smithy", "bakery", "cidery")
    events, after = run(
        full, 0, command(clear_land=pb.ClearLand(forest=forest, payment=pb.Payment(coins=2)))
    )
    assert next(e.land_cleared for e in events if e.HasField("land_cleared")).slot == -1
    assert after.workshop == full.workshop


def test_the_forest_die_benefit_is_gained_before_the_next_workshop_action() -> None:
    """Clear Land: "Finally, roll the Forest Die ... Gain the benefit rolled." The roll
    is part of Clear Land, so its benefit is gained (or given up) before another Workshop
    action: a Water rolled with a full Bucket cannot wait for a Bucket upgrade."""
    state = with_player(started(), 0, coins=3, water=2, bucket=3, character="floyd")
    state = resolving(state, 0, ("workshop", 2))
    forest = cells(state.players[0].forests[0])[0]
    clear = command(clear_land=pb.ClearLand(forest=forest, payment=pb.Payment(coins=2)))
    events, state = run(state, 0, clear)
    granted = [e.tasks_granted for e in events if e.HasField("tasks_granted")]
    assert [(g.source, g.new_step) for g in granted] == [("forest_die", True)]
    assert [[t.kind for t in s.tasks] for s in state.steps] == [
        ["workshop"],
        [state.steps[-1].tasks[0].kind],
    ]
    upgrade = command(upgrade_bucket=pb.UpgradeBucket(payment=pb.Payment(coins=1)))
    assert refused(state, 0, upgrade) == "upgrade.none"
    _, state = run(state, 0, command(take_benefit=pb.TakeBenefit(task=0)))
    _, state = run(state, 0, command(finish=pb.Finish()))
    _, state = run(state, 0, upgrade)
    assert state.players[0].bucket == 4 and state.players[0].water == 2


def test_building_costs_its_row_covers_crops_and_triggers_when_built() -> None:
    """Build: pay the row's cost, a cleared 2x2 (crops under it are lost), then its action."""
    state = with_player(
        started(), 0, coins=3, crops=(crop("strawberry", (0, 0)),), character="penny"
    )
    state = with_workshop(state, "mercantile", "", "", "", "", "")
    state = resolving(state, 0, ("workshop", 1))
    on_forest = command(build=pb.Build(slot=0, cell=cells((0, 2))[0], payment=pb.Payment(coins=3)))
    assert refused(state, 0, on_forest) == "build.no_site"
    cmd = command(build=pb.Build(slot=0, cell=cells((0, 0))[0], payment=pb.Payment(coins=3)))
    _, after = run(state, 0, cmd)
    p = after.players[0]
    assert p.coins == 0 and p.crops == () and p.buildings[0].building == "mercantile"
    assert after.workshop[0] == ""
    assert [(t.kind, t.amount) for t in after.steps[-1].tasks] == [("coin", 3)]


# --- Trading Post ------------------------------------------------------------------------


def test_trading_post_costs_and_actions() -> None:
    """Trading Post: a Seed, 2 Fertilizer or 3 Water per trade; upgrading a seed adds a Coin."""
    state = with_player(started(), 0, seeds=(1, 0, 0, 0), fertilizer=1, water=2, bucket=5, coins=0)
    state = resolving(state, 0, ("trade", 2))
    assert (
        refused(state, 0, command(trade=pb.Trade(give="fertilizer", action="field")))
        == "trade.cannot_afford"
    )
    _, state = run(
        state, 0, command(trade=pb.Trade(give="seed", seed="wheat", action="upgrade_seed"))
    )
    assert [t.kind for t in state.steps[-1].tasks] == ["seed_upgrade", "coin"]
    state = with_player(state, 0, seeds=(1, 0, 0, 0))
    _, state = run(state, 0, command(upgrade_seed=pb.UpgradeSeed(seed="wheat")))
    assert state.players[0].seeds == (0, 1, 0, 0)


def test_a_trade_may_be_paid_with_three_water() -> None:
    """Trading Post: 3 Water pay for one Trade Action; 2 do not."""
    state = with_player(started(), 0, water=3, bucket=5, seeds=(0, 0, 0, 0), fertilizer=0)
    state = resolving(state, 0, ("trade", 1))
    trade = command(trade=pb.Trade(give="water", action="field"))
    assert refused(with_player(state, 0, water=2), 0, trade) == "trade.cannot_afford"
    _, state = run(state, 0, trade)
    assert state.players[0].water == 0
    assert [[t.kind for t in s.tasks] for s in state.steps] == [[], ["field"]]


def test_each_trade_is_performed_before_the_next_is_paid() -> None:
    """Trading Post: "spend any 1 Seed, or 2 Fertilizer, or 3 Water to perform 1 of the
    following Trade Actions": the trade's action is performed at once, so the second
    trade waits until the first one's action is done (or given up)."""
    state = with_player(started(), 0, seeds=(2, 0, 0, 0), fertilizer=2, coins=0)
    state = resolving(state, 0, ("trade", 2))
    events, state = run(
        state, 0, command(trade=pb.Trade(give="seed", seed="wheat", action="field"))
    )
    granted = [e.tasks_granted for e in events if e.HasField("tasks_granted")]
    assert [(g.source, g.new_step) for g in granted] == [("trade:field", True)]
    assert [[t.kind for t in s.tasks] for s in state.steps] == [["trade"], ["field"]]
    second = command(trade=pb.Trade(give="fertilizer", action="clear_land"))
    assert refused(state, 0, second) == "trade.none"
    assert all(c.WhichOneof("kind") != "trade" for c in ENGINE.legal_commands(state, 0))
    _, state = run(state, 0, command(field_action=pb.FieldAction(kind="harvest")))
    _, state = run(state, 0, command(finish=pb.Finish()))
    assert [[t.kind for t in s.tasks] for s in state.steps] == [["trade"]]
    _, state = run(state, 0, second)
    assert [[t.kind for t in s.tasks] for s in state.steps] == [[], ["clear_land_no_die"]]
    assert state.players[0].fertilizer == 0 and state.players[0].seeds[0] == 1


def test_the_trades_coin_may_be_taken_without_upgrading() -> None:
    """Trading Post › upgrade a Seed and gain a Coin: two benefits of the trade's step,
    taken in any order; the Coin stands even if the upgrade is given up (RULES.md)."""
    state = with_player(started(), 0, seeds=(1, 0, 0, 0), coins=0)
    state = resolving(state, 0, ("trade", 1))
    trade = command(trade=pb.Trade(give="seed", seed="wheat", action="upgrade_seed"))
    _, state = run(state, 0, trade)
    coin = [t.kind for t in state.steps[-1].tasks].index("coin")
    _, state = run(state, 0, command(take_benefit=pb.TakeBenefit(task=coin)))
    _, state = run(state, 0, command(finish=pb.Finish()))
    assert (state.players[0].coins, state.players[0].seeds) == (1, (0, 0, 0, 0))


def test_trading_for_clear_land_does_not_roll_the_die() -> None:
    """Trading Post: Clear Land without rolling the Forest Die, and without its Coins."""
    state = with_player(started(), 0, fertilizer=2, coins=0)
    state = resolving(state, 0, ("trade", 1))
    _, state = run(state, 0, command(trade=pb.Trade(give="fertilizer", action="clear_land")))
    forest = cells(state.players[0].forests[0])[0]
    events, state = run(
        state, 0, command(clear_land=pb.ClearLand(forest=forest, payment=pb.Payment()))
    )
    assert not any(e.HasField("forest_die_rolled") for e in events)
    assert state.players[0].fertilizer == 0


# --- Farmer's Market ---------------------------------------------------------------------


def test_market_spaces_charge_their_cost_and_grant_the_tile_actions() -> None:
    """Farmer's Market: pay the space's Coins, then take the tile's actions."""
    state = placing(with_market(started(3), "seed_stall"), 0)
    state = with_player(state, 0, coins=1, character="floyd")
    _, after = run(
        state,
        0,
        command(place_worker=pb.PlaceWorker(space="market_large_b", payment=pb.Payment(coins=1))),
    )
    assert after.players[0].coins == 0
    assert [(t.kind, t.amount) for t in after.steps[-1].tasks] == [("seed:pumpkin", 1)]


def test_trading_for_clear_land_with_no_forest_left_is_refused() -> None:
    """Trading Post: a Clear Land trade with every Forest cleared would take the payment
    and gain nothing; it is refused like the other moves that gain nothing (RULES.md)."""
    base = with_player(started(), 0, fertilizer=2)
    state = resolving(with_player(base, 0, forests=()), 0, ("trade", 1))
    clear = command(trade=pb.Trade(give="fertilizer", action="clear_land"))
    assert refused(state, 0, clear) == "trade.no_forest"
    legal = ENGINE.legal_commands(state, 0)
    assert {c.trade.action for c in legal if c.HasField("trade")} == {"field", "upgrade_seed"}
    one_left = resolving(with_player(base, 0, forests=((0, 2),)), 0, ("trade", 1))
    _, after = run(one_left, 0, clear)
    assert after.players[0].fertilizer == 0
    assert [t.kind for t in after.steps[-1].tasks] == ["clear_land_no_die"]
