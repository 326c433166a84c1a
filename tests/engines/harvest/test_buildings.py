"""Every building: each "when built" action and each "End Game" scoring, as written."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engines.core.polyomino import Cell
from engines.harvest.content import content
from engines.harvest.engine import ENGINE
from engines.harvest.rules import forest_blocks
from engines.harvest.state import Built, HarvestState, Player
from engines.harvest.workshop import build_sites
from proto import harvest_pb2 as pb

from .helpers import (
    at_round,
    block,
    cells,
    command,
    crop,
    resolving,
    run,
    started,
    with_placements,
    with_player,
    with_workshop,
)

SITE = (0, 0)


def built(building: str, *base: HarvestState, **player: object) -> HarvestState:
    """Floyd builds ``building`` for free on the open strip (at a ``base`` position, or
    just after set-up); its step is now waiting."""
    state = with_player(base[0] if base else started(), 0, character="floyd", **player)
    state = with_workshop(state, building, "", "", "", "", "")
    state = resolving(state, 0, ("build", 1))
    _, state = run(
        state, 0, command(build=pb.Build(slot=0, cell=cells(SITE)[0], payment=pb.Payment()))
    )
    assert state.players[0].buildings[-1].building == building
    return state


def take_all(state: HarvestState) -> HarvestState:
    """Take every simple benefit of the top step, in order."""
    while state.steps and state.steps[-1].tasks:
        legal = [c for c in ENGINE.legal_commands(state, 0) if c.HasField("take_benefit")]
        if not legal:
            break
        _, state = run(state, 0, legal[0])
    return state


def tasks(state: HarvestState) -> list[tuple[str, int]]:
    return [(t.kind, t.amount) for t in state.steps[-1].tasks]


WHEN_BUILT = [b for b, _ in content().when_built]


@pytest.mark.parametrize("building", WHEN_BUILT)
def test_when_built_action_is_offered_at_once(building: str) -> None:
    """ "When Built" Buildings: the building's action waits in a step of its own."""
    state = built(building)
    assert state.steps[-1].source == f"built:{building}"
    assert tasks(state) == list(content().when_built_tasks(building))


SIMPLE_EFFECTS: list[tuple[str, dict[str, object], Callable[[HarvestState], bool]]] = [
    ("bakery", {"bucket": 3}, lambda s: s.players[0].bucket == 4 and s.players[0].seeds[0] == 2),
    ("cidery", {"water": 0}, lambda s: s.players[0].water == 2 and s.players[0].seeds[1] == 1),
    ("compost_bin", {"fertilizer": 1}, lambda s: s.players[0].fertilizer == 4),
    ("garden_beds", {}, lambda s: s.players[0].fertilizer == 2 and s.players[0].seeds[2] == 1),
    ("mercantile", {"coins": 0}, lambda s: s.players[0].coins == 3),
    ("scarecrow", {}, lambda s: s.players[0].seeds[3] == 1),
    ("water_tower", {"bucket": 3}, lambda s: s.players[0].bucket == 5),
    (
        "watermill",
        {"water": 0, "coins": 0},
        lambda s: (s.players[0].water, s.players[0].coins) == (2, 1),
    ),
    (
        "well",
        {"water": 0, "bucket": 3},
        lambda s: (s.players[0].water, s.players[0].bucket) in ((3, 4), (2, 4)),
    ),
]


@pytest.mark.parametrize(("building", "start", "check"), SIMPLE_EFFECTS)
def test_when_built_gains(
    building: str, start: dict[str, object], check: Callable[[HarvestState], bool]
) -> None:
    """Bakery, Cidery, Compost Bin, Garden Beds, Mercantile, Scarecrow, Water Tower,
    Watermill, Well: their gains land on the player's tracks and supply."""
    assert check(take_all(built(building, **start)))


def test_well_upgrades_before_filling_when_the_player_chooses() -> None:
    """Well: the player orders the two benefits; upgrade first fills the bigger bucket."""
    state = built("well", water=0, bucket=3)
    _, state = run(state, 0, command(take_benefit=pb.TakeBenefit(task=0)))
    _, state = run(state, 0, command(take_benefit=pb.TakeBenefit(task=0)))
    assert (state.players[0].bucket, state.players[0].water) == (4, 3)


def test_barn_fills_and_gives_a_field_action() -> None:
    """Barn: fill your Bucket and take a Field Action."""
    state = built("barn", water=0)
    _, state = run(state, 0, command(take_benefit=pb.TakeBenefit(task=0)))
    assert state.players[0].water == 2
    assert {
        c.field_action.kind for c in ENGINE.legal_commands(state, 0) if c.HasField("field_action")
    } == {"plant", "tend", "harvest"}


def test_longhouse_gives_two_field_actions() -> None:
    """Longhouse: 2 Field Actions."""
    state = built("longhouse")
    _, state = run(state, 0, command(field_action=pb.FieldAction(kind="harvest")))
    _, state = run(state, 0, command(field_action=pb.FieldAction(kind="harvest")))
    assert tasks(state) == []


def test_greenhouse_upgrades_a_seed_and_gives_a_field_action() -> None:
    """Greenhouse: a Seed Upgrade and a Field Action."""
    state = built("greenhouse")
    _, state = run(state, 0, command(upgrade_seed=pb.UpgradeSeed(seed="wheat")))
    assert state.players[0].seeds == (0, 1, 0, 0)
    assert tasks(state) == [("field", 1)]


def test_storehouse_upgrades_three_seeds() -> None:
    """Storehouse: 3 Seed Upgrade Actions (Wheat all the way to Pumpkin)."""
    state = built("storehouse")
    for seed in ("wheat", "strawberry", "blueberry"):
        _, state = run(state, 0, command(upgrade_seed=pb.UpgradeSeed(seed=seed)))
    assert state.players[0].seeds == (0, 0, 0, 1)


def test_lookout_tower_rolls_three_times_without_clearing() -> None:
    """Lookout Tower: roll the Forest Die 3 times, gaining each roll's benefit; no land
    is cleared."""
    state = built("lookout_tower")
    rolls = 0
    for _ in range(3):
        events, state = run(state, 0, command(take_benefit=pb.TakeBenefit(task=0)), version=rolls)
        rolls += sum(1 for e in events if e.HasField("forest_die_rolled"))
        assert [t.kind[:4] for t in state.steps[-1].tasks] == ["die:"]
        _, state = run(state, 0, command(take_benefit=pb.TakeBenefit(task=0)))
        _, state = run(state, 0, command(finish=pb.Finish()))
    assert rolls == 3 and len(state.players[0].forests) == 6
    assert [t.kind for t in state.steps[-1].tasks] == []


@pytest.mark.parametrize("building", ["reed_pond", "sawmill"])
def test_reed_pond_and_sawmill_clear_land_without_the_die(building: str) -> None:
    """Reed Pond / Sawmill: Clear Land without rolling the Forest Die, and (unlike the
    Workshop's, and like every building ability not marked "paying as usual") free."""
    state = built(building, coins=2)
    forest = cells(state.players[0].forests[0])[0]
    events, state = run(
        state, 0, command(clear_land=pb.ClearLand(forest=forest, payment=pb.Payment()))
    )
    assert not any(e.HasField("forest_die_rolled") for e in events)
    assert len(state.players[0].forests) == 5
    assert state.players[0].coins == 2
    follow = {"reed_pond": ("fill_bucket", 1), "sawmill": ("field", 1)}[building]
    assert tasks(state) == [follow]


def test_silo_plants_without_fertilizer() -> None:
    """Silo: plant a Seed from your supply for free."""
    state = built("silo", seeds=(0, 0, 0, 1), fertilizer=0)
    spot = cells((2, 0), (3, 0), (3, 1))
    _, state = run(state, 0, command(plant_seed=pb.PlantSeed(seed="pumpkin", cells=spot)))
    assert [c.kind for c in state.players[0].crops] == ["pumpkin"]
    assert state.players[0].fertilizer == 0


def test_smithy_gives_a_coin_and_a_build() -> None:
    """Smithy: gain 1 Coin and build a Building (paying as usual; Floyd pays nothing)."""
    state = built("smithy", coins=0)
    state = with_workshop(state, "", "", "mercantile", "", "", "")
    _, state = run(state, 0, command(take_benefit=pb.TakeBenefit(task=0)))
    _, state = run(
        state, 0, command(build=pb.Build(slot=2, cell=cells((2, 0))[0], payment=pb.Payment()))
    )
    assert [b.building for b in state.players[0].buildings] == ["smithy", "mercantile"]


def test_weather_vane_tends_once_without_water() -> None:
    """Weather Vane: tend one crop once for free."""
    state = built("weather_vane", water=0)
    state = with_player(state, 0, crops=(crop("wheat", (2, 0), (3, 0), (4, 0)),))
    _, state = run(
        state, 0, command(tend_crop=pb.TendCrop(crop="wheat", cells=cells((2, 1), (3, 1), (4, 1))))
    )
    assert sum(1 for c in state.players[0].crops if c.kind == "wheat") == 2
    assert state.players[0].water == 0


def test_backyard_shed_uses_a_closed_two_action_space() -> None:
    """Backyard Shed: the action of a 2-action space, closed or not."""
    state = built("backyard_shed", with_placements(started(), ("store_2", 1)))
    _, state = run(
        state, 0, command(reuse_space=pb.ReuseSpace(space="store_2", payment=pb.Payment()))
    )
    assert tasks(state) == [("purchase", 2)]


def test_printing_press_repeats_one_of_your_spaces_paying_again() -> None:
    """Printing Press: a space holding your piece, its actions again, its cost again."""
    base = with_placements(at_round(started(), 2), ("fields_3", 0), ("store_3", 1))
    state = built("printing_press", base, coins=3)
    assert {
        c.reuse_space.space for c in ENGINE.legal_commands(state, 0) if c.HasField("reuse_space")
    } == {"fields_3"}
    _, state = run(
        state, 0, command(reuse_space=pb.ReuseSpace(space="fields_3", payment=pb.Payment(coins=2)))
    )
    assert state.players[0].coins == 1 and tasks(state) == [("field", 3)]


def test_windmill_repeats_a_previous_when_built_building() -> None:
    """Windmill: one of your earlier "when built" benefits again."""
    state = with_player(
        started(), 0, buildings=(Built("mercantile", frozenset({(4, 0), (4, 1), (5, 0), (5, 1)})),)
    )
    state = built("windmill", buildings=state.players[0].buildings, coins=0)
    legal = [
        c.repeat_building.building
        for c in ENGINE.legal_commands(state, 0)
        if c.HasField("repeat_building")
    ]
    assert legal == ["mercantile"]
    _, state = run(state, 0, command(repeat_building=pb.RepeatBuilding(building="mercantile")))
    state = take_all(state)
    assert state.players[0].coins == 3


# --- End Game buildings -----------------------------------------------------------------

BLOCK = frozenset({(0, 2), (0, 3), (1, 2), (1, 3)})


def end_points(building: str, **player: object) -> int:
    """Resolve one end-game building's scoring at Game End; the points it gave."""
    others: tuple[Built, ...] = player.pop("others", ())  # type: ignore[assignment]
    state = with_player(
        started(), 0, buildings=(Built(building, BLOCK), *others), forests=(), **player
    )
    state = resolving(state, 0, (f"end:{building}", 1), phase="game_end")
    before = state.players[0].points
    _, state = run(state, 0, command(take_benefit=pb.TakeBenefit(task=0)))
    return state.players[0].points - before


def test_cafe_scores_a_point_per_two_coins() -> None:
    """Café: 1 point per 2 Coins, besides their usual scoring."""
    assert end_points("cafe", coins=7) == 3


def test_cold_storage_scores_three_per_adjacent_crop_type() -> None:
    """Cold Storage: 3 per crop type orthogonally adjacent; diagonal ones do not count."""
    farm = (
        crop("wheat", (0, 1), (1, 1), (2, 1)),
        crop("strawberry", (2, 2)),
        crop("strawberry", (2, 3)),
        crop("pumpkin", (3, 4), (2, 4), (3, 5)),
    )
    assert end_points("cold_storage", crops=farm) == 6


def test_fairgrounds_scores_two_per_planted_crop_type() -> None:
    """Fairgrounds: 2 per different crop type still planted (a bare Bush is no crop)."""
    farm = (
        crop("wheat", (3, 0), (4, 0), (5, 0)),
        crop("bush", (3, 1), (4, 1), berry=True),
        crop("bush", (5, 1), (5, 2)),
    )
    assert end_points("fairgrounds", crops=farm) == 4


def test_flower_shop_scores_two_per_seed_type_in_supply() -> None:
    """Flower Shop: 2 per unique Seed type in your supply."""
    assert end_points("flower_shop", seeds=(2, 0, 1, 1)) == 6


def test_gatehouse_counts_every_end_game_building_including_itself() -> None:
    """Gatehouse: 2 per "End Game" building, itself and the Bed & Breakfast included."""
    others = (
        Built("bed_and_breakfast", frozenset({(4, 4)})),
        Built("mercantile", frozenset({(5, 5)})),
    )
    assert end_points("gatehouse", others=others) == 4


def test_outdoor_shower_needs_a_full_bucket() -> None:
    """Outdoor Shower: 4 if the Bucket is full (upgraded or not)."""
    assert end_points("outdoor_shower", water=4, bucket=5) == 4
    assert end_points("outdoor_shower", water=3, bucket=5) == 0


def test_outhouse_and_treehouse() -> None:
    """Outhouse: 1 per Fertilizer. Treehouse: 2 per Forest tile left."""
    assert end_points("outhouse", fertilizer=7) == 7
    state = with_player(started(), 0, buildings=(Built("treehouse", block(0, 0)),))
    state = resolving(state, 0, ("end:treehouse", 1), phase="game_end")
    _, after = run(state, 0, command(take_benefit=pb.TakeBenefit(task=0)))
    assert after.players[0].points - state.players[0].points == 12


def test_library_gives_a_field_action_at_game_end() -> None:
    """Library: a Field Action at the end of the game."""
    state = with_player(
        started(),
        0,
        buildings=(Built("library", BLOCK),),
        crops=(crop("pumpkin", (3, 0), (4, 0), (4, 1)),),
    )
    state = resolving(state, 0, ("end:library", 1), phase="game_end")
    _, state = run(state, 0, command(take_benefit=pb.TakeBenefit(task=0)))
    before = state.players[0].points
    _, state = run(state, 0, command(field_action=pb.FieldAction(kind="harvest")))
    assert state.players[0].points == before + 6


def test_bed_and_breakfast_is_worth_five() -> None:
    """Bed & Breakfast: 5 points instead of 2."""
    assert content().building_value("bed_and_breakfast") == 5
    assert content().building_value("gatehouse") == 2


def test_build_sites_are_the_2x2_blocks_clear_of_forests_and_buildings() -> None:
    """Workshop › Build: the sites (derived from the field's blocks, computed once) are
    exactly the 2x2 blocks with no Forest or Building on them, top-left cells row by row."""
    grid = content().grid
    built = Built("well", frozenset({(2, 2), (2, 3), (3, 2), (3, 3)}))
    for forests, buildings in (((), ()), (((0, 0), (0, 4)), ()), (((4, 0),), (built,))):
        player = Player(forests=forests, buildings=buildings)
        blocked = forest_blocks(forests).union(*(b.cells for b in buildings))
        expected: list[Cell] = [
            (top, left)
            for top in range(grid.rows - 1)
            for left in range(grid.cols - 1)
            if not {(top + r, left + c) for r in range(2) for c in range(2)} & blocked
        ]
        assert build_sites(player) == tuple(expected)
