"""Candidates for ``legal_commands``: for each command kind, the bodies worth trying now.

The kit keeps a candidate only when the rule ``decide`` runs accepts it, so the list and
``decide`` cannot disagree; a generator may offer more than is accepted, never less.
Each yields every body at most once. Payments are widened to every way of paying a Coin
cost (River the Fox).
"""

from __future__ import annotations

from collections.abc import Iterator

from engines.harvest.benefits import is_simple, options_for
from engines.harvest.buildings import repeatable
from engines.harvest.content import content
from engines.harvest.events import cell_numbers
from engines.harvest.fields import FIELD_KINDS, planting_spots, tending_spots
from engines.harvest.rules import (
    SEED_FIELDS,
    is_open,
    payments,
    space_cost,
    spaces_in_play,
    supply_left,
)
from engines.harvest.state import HarvestState, Step
from engines.harvest.store import ITEMS, item_price
from engines.harvest.workshop import build_cost, build_sites
from proto import harvest_pb2 as pb

__all__ = [
    "builds",
    "choose_sunrises",
    "clear_lands",
    "draft_picks",
    "field_actions",
    "finishes",
    "keep_starts",
    "move_pieces",
    "place_workers",
    "plant_seeds",
    "purchases",
    "repeat_buildings",
    "rerolls",
    "reuse_spaces",
    "take_benefits",
    "tend_crops",
    "trades",
    "upgrade_buckets",
    "upgrade_seeds",
]

# Task kinds that allow each Workshop action, and whether they charge its Coin price.
_UPGRADES = ("workshop", "rose")
_CLEARS = ("workshop", "rose", "clear_land", "clear_land_no_die")
_BUILDS = ("workshop", "rose", "build")


def _top(state: HarvestState) -> Step | None:
    return state.steps[-1] if state.steps else None


def _kinds(state: HarvestState) -> set[str]:
    step = _top(state)
    return {t.kind for t in step.tasks} if step is not None else set()


def keep_starts(state: HarvestState, seat: int) -> Iterator[pb.KeepStart]:
    player = state.players[seat]
    for character in player.dealt_characters:
        for farmhouse in player.dealt_farmhouses:
            yield pb.KeepStart(character=character, farmhouse=farmhouse)


def draft_picks(state: HarvestState, seat: int) -> Iterator[pb.DraftPick]:
    for character in state.draft_characters:
        yield pb.DraftPick(character=character)
    for farmhouse in state.draft_farmhouses:
        yield pb.DraftPick(farmhouse=farmhouse)


def choose_sunrises(state: HarvestState, seat: int) -> Iterator[pb.ChooseSunrise]:
    for tile in state.display:
        yield pb.ChooseSunrise(tile=tile)


def place_workers(state: HarvestState, seat: int) -> Iterator[pb.PlaceWorker]:
    player = state.players[seat]
    for space in spaces_in_play(state):
        if is_open(state, space):
            for payment in payments(player, space_cost(state, space)):
                yield pb.PlaceWorker(space=space.id, payment=payment)


def move_pieces(state: HarvestState, seat: int) -> Iterator[pb.MovePiece]:
    player = state.players[seat]
    # Two pieces on one always-open space are one choice of where to move from.
    origins = dict.fromkeys(space for space, owner in state.placements if owner == seat)
    for origin in origins:
        for space in spaces_in_play(state):
            if space.id != origin and is_open(state, space):
                for payment in payments(player, space_cost(state, space)):
                    yield pb.MovePiece(from_space=origin, to_space=space.id, payment=payment)


def finishes(state: HarvestState, seat: int) -> Iterator[pb.Finish]:
    yield pb.Finish()


def take_benefits(state: HarvestState, seat: int) -> Iterator[pb.TakeBenefit]:
    step = _top(state)
    for index, task in enumerate(step.tasks if step is not None else ()):
        if is_simple(task):
            for option in options_for(task):
                yield pb.TakeBenefit(task=index, option=option)


def rerolls(state: HarvestState, seat: int) -> Iterator[pb.RerollDie]:
    step = _top(state)
    if step is None or state.players[seat].rerolls <= 0:
        return
    for index, task in enumerate(step.tasks):
        if task.kind.startswith("die:"):
            yield pb.RerollDie(task=index)


def purchases(state: HarvestState, seat: int) -> Iterator[pb.Purchase]:
    if "purchase" not in _kinds(state):
        return
    player = state.players[seat]
    for item in ITEMS:
        for payment in payments(player, item_price(item)):
            yield pb.Purchase(item=item, payment=payment)


def field_actions(state: HarvestState, seat: int) -> Iterator[pb.FieldAction]:
    if "field" in _kinds(state):
        for kind in FIELD_KINDS:
            yield pb.FieldAction(kind=kind)


def _prices(state: HarvestState, kinds: tuple[str, ...], price: str) -> list[int]:
    """The Coin costs a Workshop action may have now: its price at a Workshop space,
    nothing when a benefit grants it."""
    waiting = _kinds(state) & set(kinds)
    costs = {content().price(price) if kind == "workshop" else 0 for kind in waiting}
    return sorted(costs)


def upgrade_buckets(state: HarvestState, seat: int) -> Iterator[pb.UpgradeBucket]:
    player = state.players[seat]
    for cost in _prices(state, _UPGRADES, "upgrade_bucket"):
        for payment in payments(player, cost):
            yield pb.UpgradeBucket(payment=payment)


def clear_lands(state: HarvestState, seat: int) -> Iterator[pb.ClearLand]:
    player = state.players[seat]
    grid = content().grid
    for cost in _prices(state, _CLEARS, "clear_land"):
        for forest in player.forests:
            for payment in payments(player, cost):
                yield pb.ClearLand(forest=grid.index(forest), payment=payment)


def builds(state: HarvestState, seat: int) -> Iterator[pb.Build]:
    if not _kinds(state) & set(_BUILDS):
        return
    player = state.players[seat]
    grid = content().grid
    sites = build_sites(player)
    for slot, building in enumerate(state.workshop):
        if not building:
            continue
        for payment in payments(player, build_cost(state, player, slot)):
            for site in sites:
                yield pb.Build(slot=slot, cell=grid.index(site), payment=payment)


def trades(state: HarvestState, seat: int) -> Iterator[pb.Trade]:
    if "trade" not in _kinds(state):
        return
    c = content()
    gives = [("seed", s) for s in SEED_FIELDS] + [(g, "") for g, _ in c.trade_costs]
    for give, seed in gives:
        for action, _ in c.trade_actions:
            yield pb.Trade(give=give, seed=seed, action=action)


def upgrade_seeds(state: HarvestState, seat: int) -> Iterator[pb.UpgradeSeed]:
    if "seed_upgrade" in _kinds(state):
        for seed in SEED_FIELDS[:-1]:
            yield pb.UpgradeSeed(seed=seed)


def reuse_spaces(state: HarvestState, seat: int) -> Iterator[pb.ReuseSpace]:
    if not _kinds(state) & {"two_space", "repeat_space"}:
        return
    player = state.players[seat]
    for space in spaces_in_play(state):
        for payment in payments(player, space_cost(state, space)):
            yield pb.ReuseSpace(space=space.id, payment=payment)


def repeat_buildings(state: HarvestState, seat: int) -> Iterator[pb.RepeatBuilding]:
    if "repeat_built" in _kinds(state):
        for building in repeatable(state.players[seat]):
            yield pb.RepeatBuilding(building=building)


def plant_seeds(state: HarvestState, seat: int) -> Iterator[pb.PlantSeed]:
    step = _top(state)
    if step is None or (step.mode != "plant" and "plant_free" not in _kinds(state)):
        return
    player = state.players[seat]
    for index, seed in enumerate(SEED_FIELDS):
        if player.seeds[index] > 0:
            for spot in planting_spots(player, seed):
                yield pb.PlantSeed(seed=seed, cells=cell_numbers(spot))


def _tends(state: HarvestState, seat: int, crops: tuple[str, ...]) -> Iterator[pb.TendCrop]:
    player = state.players[seat]
    for crop in crops:
        for spot in tending_spots(player, crop):
            yield pb.TendCrop(crop=crop, cells=cell_numbers(spot))


def tend_crops(state: HarvestState, seat: int) -> Iterator[pb.TendCrop]:
    step = _top(state)
    if step is None:
        return
    if step.owed:
        player = state.players[seat]
        has_room = supply_left(state, step.owed) > 0 and tending_spots(player, step.owed)
        if not has_room:
            yield pb.TendCrop(crop=step.owed)
        yield from _tends(state, seat, (step.owed,))
    elif step.mode == "tend" or "tend_free" in _kinds(state):
        yield from _tends(state, seat, SEED_FIELDS)
