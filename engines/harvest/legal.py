"""Candidates for ``legal_commands``: for each command kind, exactly the bodies its rule
accepts now, each once.

Every generator asks the rule's own questions (the ``*_refusal`` checks, the task a
Workshop action would use, the spots a crop may take) instead of deciding each
candidate, so listing is cheap; the moves say ``exact=True`` and the kit's conformance
check (the property test) proves, by deciding every listed command in its deep games,
that the lists and ``decide`` agree. Payments are widened to every way of paying a Coin
cost (River the Fox).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from engines.harvest.actions import REUSES, reuse_task
from engines.harvest.benefits import is_simple, options_for
from engines.harvest.buildings import repeatable
from engines.harvest.content import content
from engines.harvest.events import cell_numbers
from engines.harvest.fields import (
    FIELD_KINDS,
    owed_spots,
    plant_cost,
    planting_spots,
    plants_free,
    tend_refusal,
    tending_spots,
    tends_free,
)
from engines.harvest.rules import (
    SEED_FIELDS,
    bucket_track,
    is_open,
    payments,
    space_cost,
    spaces_in_play,
)
from engines.harvest.setup import draft_refusal
from engines.harvest.state import HarvestState, Step, Task
from engines.harvest.store import ITEMS, item_price, purchase_refusal
from engines.harvest.trading import seed_upgrade_refusal, trade_refusal
from engines.harvest.workshop import (
    BUILD_TASKS,
    CLEAR_TASKS,
    UPGRADE_TASKS,
    action_price,
    allowing,
    build_cost,
    build_sites,
)
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


def _top(state: HarvestState) -> Step:
    """The step being resolved (every stage taking these commands has one)."""
    return state.steps[-1]


def _waiting(state: HarvestState, kind: str) -> bool:
    return kind in task_kinds(_top(state).tasks)


@lru_cache(maxsize=1024)
def task_kinds(tasks: tuple[Task, ...]) -> frozenset[str]:
    # Cached: every command kind of a step asks what its tasks are.
    return frozenset(t.kind for t in tasks)


def keep_starts(state: HarvestState, seat: int) -> Iterator[pb.KeepStart]:
    player = state.players[seat]
    for character in player.dealt_characters:
        for farmhouse in player.dealt_farmhouses:
            yield pb.KeepStart(character=character, farmhouse=farmhouse)


def draft_picks(state: HarvestState, seat: int) -> Iterator[pb.DraftPick]:
    picks = [pb.DraftPick(character=c) for c in state.draft_characters]
    picks += [pb.DraftPick(farmhouse=f) for f in state.draft_farmhouses]
    return (p for p in picks if draft_refusal(state, seat, p) is None)


def choose_sunrises(state: HarvestState, seat: int) -> Iterator[pb.ChooseSunrise]:
    for tile in state.display:
        yield pb.ChooseSunrise(tile=tile)


def place_workers(state: HarvestState, seat: int) -> Iterator[pb.PlaceWorker]:
    player = state.players[seat]
    closed = {space for space, _ in state.placements}
    for space in spaces_in_play(state):
        if space.always_open or space.id not in closed:
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
    for index, task in enumerate(_top(state).tasks):
        if is_simple(task):
            for option in options_for(task):
                yield pb.TakeBenefit(task=index, option=option)


def rerolls(state: HarvestState, seat: int) -> Iterator[pb.RerollDie]:
    if state.players[seat].rerolls <= 0:
        return
    for index, task in enumerate(_top(state).tasks):
        if task.kind.startswith("die:"):
            yield pb.RerollDie(task=index)


def purchases(state: HarvestState, seat: int) -> Iterator[pb.Purchase]:
    if not _waiting(state, "purchase"):
        return
    player = state.players[seat]
    for item in ITEMS:
        if purchase_refusal(state, seat, item) is None:
            for payment in payments(player, item_price(item)):
                yield pb.Purchase(item=item, payment=payment)


def field_actions(state: HarvestState, seat: int) -> Iterator[pb.FieldAction]:
    if _waiting(state, "field"):
        for kind in FIELD_KINDS:
            yield pb.FieldAction(kind=kind)


def upgrade_buckets(state: HarvestState, seat: int) -> Iterator[pb.UpgradeBucket]:
    index, kind = allowing(_top(state), UPGRADE_TASKS, "upgrade")
    player = state.players[seat]
    if index < 0 or bucket_track().room(player.bucket) <= 0:
        return
    for payment in payments(player, action_price(kind, "upgrade_bucket")):
        yield pb.UpgradeBucket(payment=payment)


def clear_lands(state: HarvestState, seat: int) -> Iterator[pb.ClearLand]:
    index, kind = allowing(_top(state), CLEAR_TASKS, "clear")
    if index < 0:
        return
    player = state.players[seat]
    grid = content().grid
    for forest in player.forests:
        for payment in payments(player, action_price(kind, "clear_land")):
            yield pb.ClearLand(forest=grid.index(forest), payment=payment)


def builds(state: HarvestState, seat: int) -> Iterator[pb.Build]:
    index, _ = allowing(_top(state), BUILD_TASKS, "build")
    if index < 0:
        return
    player = state.players[seat]
    grid = content().grid
    sites = [grid.index(site) for site in build_sites(player)]
    for slot, building in enumerate(state.workshop):
        if building:
            for payment in payments(player, build_cost(state, player, slot)):
                for cell in sites:
                    yield pb.Build(slot=slot, cell=cell, payment=payment)


def trades(state: HarvestState, seat: int) -> Iterator[pb.Trade]:
    if not _waiting(state, "trade"):
        return
    c = content()
    player = state.players[seat]
    gives = [("seed", s) for s in SEED_FIELDS] + [(g, "") for g, _ in c.trade_costs]
    for give, seed in gives:
        for action, _ in c.trade_actions:
            trade = pb.Trade(give=give, seed=seed, action=action)
            if trade_refusal(player, trade) is None:
                yield trade


def upgrade_seeds(state: HarvestState, seat: int) -> Iterator[pb.UpgradeSeed]:
    if _waiting(state, "seed_upgrade"):
        for seed in SEED_FIELDS:
            if seed_upgrade_refusal(state, seat, seed) is None:
                yield pb.UpgradeSeed(seed=seed)


def reuse_spaces(state: HarvestState, seat: int) -> Iterator[pb.ReuseSpace]:
    if not task_kinds(_top(state).tasks) & REUSES:
        return
    player = state.players[seat]
    for space in spaces_in_play(state):
        if reuse_task(state, seat, space) >= 0:
            for payment in payments(player, space_cost(state, space)):
                yield pb.ReuseSpace(space=space.id, payment=payment)


def repeat_buildings(state: HarvestState, seat: int) -> Iterator[pb.RepeatBuilding]:
    if _waiting(state, "repeat_built"):
        for building in repeatable(state.players[seat]):
            yield pb.RepeatBuilding(building=building)


def plant_seeds(state: HarvestState, seat: int) -> Iterator[pb.PlantSeed]:
    free = plants_free(_top(state))
    if free is None:
        return
    player = state.players[seat]
    for index, seed in enumerate(SEED_FIELDS):
        if player.seeds[index] > 0 and (free or player.fertilizer >= plant_cost(player, seed)):
            for spot in planting_spots(player, seed):
                yield pb.PlantSeed(seed=seed, cells=cell_numbers(spot))


def tend_crops(state: HarvestState, seat: int) -> Iterator[pb.TendCrop]:
    step = _top(state)
    if step.owed:
        spots = owed_spots(state, seat, step.owed)
        if not spots:
            yield pb.TendCrop(crop=step.owed)
        for spot in spots:
            yield pb.TendCrop(crop=step.owed, cells=cell_numbers(spot))
        return
    free = tends_free(step)
    if free is None:
        return
    player = state.players[seat]
    for crop in SEED_FIELDS:
        if tend_refusal(state, seat, crop, free) is None:
            for spot in tending_spots(player, crop):
                yield pb.TendCrop(crop=crop, cells=cell_numbers(spot))
