"""The rulebook's three worked examples, with its exact numbers."""

from __future__ import annotations

from engines.harvest.engine import ENGINE
from proto import harvest_pb2 as pb

from .helpers import cells, command, crop, resolving, run, started, with_player


def test_farmer_szeth_plants_three_seeds_for_five_fertilizer() -> None:
    """Plant: a Pumpkin (3), a Blueberry Bush (2) and a Wheat (0) in one action: 6 -> 1."""
    state = with_player(started(), 0, fertilizer=6, seeds=(1, 0, 1, 1), character="floyd")
    state = resolving(state, 0, ("field", 1))
    _, state = run(state, 0, command(field_action=pb.FieldAction(kind="plant")))
    plants = [
        ("pumpkin", cells((0, 0), (1, 0), (1, 1))),
        ("blueberry", cells((2, 0), (2, 1))),
        ("wheat", cells((3, 0), (4, 0), (5, 0))),
    ]
    for seed, spot in plants:
        _, state = run(state, 0, command(plant_seed=pb.PlantSeed(seed=seed, cells=spot)))
    szeth = state.players[0]
    assert szeth.fertilizer == 1
    assert szeth.seeds == (0, 0, 0, 0)
    assert sorted(c.kind for c in szeth.crops) == ["bush", "pumpkin", "wheat"]
    _, state = run(state, 0, command(finish=pb.Finish()))
    view = ENGINE.view(state, 0)["players"][0]
    assert view["fertilizer"] == 1
    assert len(view["crops"]) == 3


def test_farmer_kit_tends_with_eight_water() -> None:
    """Tend: Pumpkins once (3), the Bush once (2), Strawberries 3 times (3): 6 Strawberries."""
    field = (
        crop("pumpkin", (0, 0), (1, 0), (1, 1)),
        crop("bush", (3, 0), (3, 1)),
        crop("strawberry", (5, 0)),
    )
    state = with_player(
        started(), 0, water=8, bucket=10, crops=field, forests=(), character="floyd"
    )
    state = resolving(state, 0, mode="tend")
    tend_pumpkin = pb.TendCrop(crop="pumpkin", cells=cells((0, 1), (0, 2), (1, 2)))
    _, state = run(state, 0, command(tend_crop=tend_pumpkin))
    assert state.players[0].water == 5
    tend_bush = pb.TendCrop(crop="blueberry", cells=cells((3, 0), (3, 1)))
    _, state = run(state, 0, command(tend_crop=tend_bush))
    assert state.players[0].water == 3
    for one, two in [((5, 1), (4, 0)), ((4, 1), (5, 2)), ((5, 3), (4, 2))]:
        for spot in (one, two):
            tend = pb.TendCrop(crop="strawberry", cells=cells(spot))
            _, state = run(state, 0, command(tend_crop=tend))
    kit = state.players[0]
    assert kit.water == 0
    assert sum(1 for c in kit.crops if c.kind == "strawberry") == 1 + 6
    assert sum(1 for c in kit.crops if c.kind == "pumpkin") == 2
    assert [c.berry for c in kit.crops if c.kind == "bush"] == [True]


def test_farmer_wren_harvests_for_eleven_points_a_fertilizer_and_three_coins() -> None:
    """Harvest: Blueberry 4 + Pumpkin 6 + Wheat 1; Wheat gives 1 Fertilizer; 3 types, 3 Coins."""
    field = (
        crop("bush", (0, 0), (0, 1), berry=True),
        crop("pumpkin", (1, 0), (2, 0), (2, 1)),
        crop("wheat", (3, 1), (4, 1), (5, 1)),
    )
    state = with_player(started(), 0, crops=field, points=0, coins=0, fertilizer=1)
    state = resolving(state, 0, ("field", 1))
    events, state = run(state, 0, command(field_action=pb.FieldAction(kind="harvest")))
    wren = state.players[0]
    assert (wren.points, wren.fertilizer, wren.coins) == (11, 2, 3)
    assert [(c.kind, c.berry) for c in wren.crops] == [("bush", False)]
    assert any(e.WhichOneof("kind") == "crops_harvested" for e in events)
