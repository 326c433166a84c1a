"""Candidates for ``legal_commands``: for each command kind, exactly the bodies its rule
accepts now, each once.

Every lister asks the rule's own questions (the ``*_refusal`` checks, the task a
Workshop action would use, the spots a crop may take) instead of deciding each
candidate, so listing is cheap; the moves say ``exact=True`` and the kit's conformance
check (the property test) proves, by deciding every listed command in its deep games,
that the lists and ``decide`` agree. Payments are widened to every way of paying a Coin
cost (River the Fox). A step's fourteen command kinds are each asked on every listing,
so each first looks at the step's task kinds and answers "none" at once (profiled).
The step being resolved is ``state.steps[-1]`` (every stage taking step commands has
one), read in place rather than through a helper, since listing reads it for every kind.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache, lru_cache

from engines.core.polyomino import Cell, Shape
from engines.harvest.actions import REUSES, reuse_task
from engines.harvest.benefits import is_simple, options_for
from engines.harvest.buildings import repeatable
from engines.harvest.characters import builds_free
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
    Purse,
    bucket_track,
    capped,
    is_open,
    payments,
    priced_spaces_of,
    purse,
    purse_payments,
    space_cost,
    spaces_in_play,
)
from engines.harvest.setup import draft_refusal
from engines.harvest.state import HarvestState, Task
from engines.harvest.store import ITEMS, item_price, purchase_refusal
from engines.harvest.trading import seed_upgrade_refusal, trade_refusal
from engines.harvest.workshop import (
    BUILD_TASKS,
    CLEAR_TASKS,
    UPGRADE_TASKS,
    action_price,
    allowing,
    build_sites,
    row_cost,
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
    "step_offers",
    "take_benefits",
    "tend_crops",
    "trades",
    "upgrade_buckets",
    "upgrade_seeds",
]


NONE: tuple[()] = ()

# The step commands each task kind opens (beyond the simple benefits, the Forest Die's
# re-roll and Finish): the superset ``step_offers`` gives the kit, so that of the
# fourteen step commands only those with a waiting task are asked for candidates.
_OPENED_BY: dict[str, tuple[str, ...]] = {
    "purchase": ("purchase",),
    "field": ("field_action",),
    "trade": ("trade",),
    "seed_upgrade": ("upgrade_seed",),
    "repeat_built": ("repeat_building",),
    "plant_free": ("plant_seed",),
    "tend_free": ("tend_crop",),
    **{kind: ("reuse_space",) for kind in REUSES},
}
for _commands, _tasks in (
    (("upgrade_bucket",), UPGRADE_TASKS),
    (("clear_land",), CLEAR_TASKS),
    (("build",), BUILD_TASKS),
):
    for _task_kind in _tasks:
        _OPENED_BY[_task_kind] = _OPENED_BY.get(_task_kind, ()) + _commands


def step_offers(state: HarvestState) -> frozenset[str]:
    """The step commands that may list anything for the top step (``Stage.offered``)."""
    return _offers(state.steps[-1].kinds)


@cache
def _offers(kinds: frozenset[str]) -> frozenset[str]:
    offered = {"finish"}
    for kind in kinds:
        offered.update(_OPENED_BY.get(kind, ()))
        if is_simple(Task(kind)):
            offered.add("take_benefit")
        if kind.startswith("die:"):
            offered.add("reroll_die")
    return frozenset(offered)


def keep_starts(state: HarvestState, seat: int) -> Iterator[pb.KeepStart]:
    player = state.players[seat]
    for character in player.dealt_characters:
        for farmhouse in player.dealt_farmhouses:
            yield pb.KeepStart(character=character, farmhouse=farmhouse)


def draft_picks(state: HarvestState, seat: int) -> Iterator[pb.DraftPick]:
    picks = [pb.DraftPick(character=c) for c in state.draft_characters]
    picks += [pb.DraftPick(farmhouse=f) for f in state.draft_farmhouses]
    return (p for p in picks if draft_refusal(state, seat, p) is None)


def choose_sunrises(state: HarvestState, seat: int) -> list[pb.ChooseSunrise]:
    return [_sunrise_choice(tile) for tile in state.display]


@cache
def _sunrise_choice(tile: int) -> pb.ChooseSunrise:
    """One choice of Sunrise tile, built once (shared bodies)."""
    return pb.ChooseSunrise(tile=tile)


@lru_cache(maxsize=8192)
def _placings(space: str, cost: int, held: Purse) -> tuple[pb.PlaceWorker, ...]:
    """The placements on one space for what the player holds, built once (shared
    bodies: the kit copies each it lists)."""
    return tuple(pb.PlaceWorker(space=space, payment=p) for p in purse_payments(held, cost))


@lru_cache(maxsize=8192)
def _buyings(item: str, held: Purse) -> tuple[pb.Purchase, ...]:
    """The purchases of one item for what the player holds, built once (shared bodies)."""
    return tuple(pb.Purchase(item=item, payment=p) for p in purse_payments(held, item_price(item)))


def place_workers(state: HarvestState, seat: int) -> list[pb.PlaceWorker]:
    held = purse(state.players[seat])
    closed = {space for space, _ in state.placements}
    listed: list[pb.PlaceWorker] = []
    for space, always_open, cost in _space_costs(
        state.market_large, state.market_small, state.round
    ):
        if always_open or space not in closed:
            listed += _placings(space, cost, held)
    return listed


@lru_cache(maxsize=256)
def _space_costs(
    market_large: str, market_small: str, round_: int
) -> tuple[tuple[str, bool, int], ...]:
    """The spaces in play as (id, always open, cost), remembered by market and round:
    the listing reads them for every placement."""
    priced = priced_spaces_of(market_large, market_small, round_)
    return tuple((space.id, space.always_open, cost) for space, cost in priced)


def move_pieces(state: HarvestState, seat: int) -> Iterator[pb.MovePiece]:
    player = state.players[seat]
    # Two pieces on one always-open space are one choice of where to move from.
    origins = dict.fromkeys(space for space, owner in state.placements if owner == seat)
    for origin in origins:
        for space in spaces_in_play(state):
            if space.id != origin and is_open(state, space):
                for payment in payments(player, space_cost(state, space)):
                    yield pb.MovePiece(from_space=origin, to_space=space.id, payment=payment)


# Listed after nearly every command: one shared body (the kit copies the one picked).
_FINISH = (pb.Finish(),)


def finishes(state: HarvestState, seat: int) -> tuple[pb.Finish]:
    return _FINISH


def take_benefits(state: HarvestState, seat: int) -> tuple[pb.TakeBenefit, ...]:
    return _benefits(state.steps[-1].tasks)


@lru_cache(maxsize=4096)
def _benefits(tasks: tuple[Task, ...]) -> tuple[pb.TakeBenefit, ...]:
    """The benefits of a step's tasks (shared bodies)."""
    return tuple(
        _taking(index, option)
        for index, task in enumerate(tasks)
        if is_simple(task)
        for option in options_for(task)
    )


@cache
def _taking(task: int, option: str) -> pb.TakeBenefit:
    """One benefit taken, built once (few: a step holds a few tasks)."""
    return pb.TakeBenefit(task=task, option=option)


def rerolls(state: HarvestState, seat: int) -> Iterable[pb.RerollDie]:
    if state.players[seat].rerolls <= 0:
        return NONE
    tasks = state.steps[-1].tasks
    return [pb.RerollDie(task=i) for i, t in enumerate(tasks) if t.kind.startswith("die:")]


def purchases(state: HarvestState, seat: int) -> Iterable[pb.Purchase]:
    if "purchase" not in state.steps[-1].kinds:
        return NONE
    items = tuple([item for item in ITEMS if purchase_refusal(state, seat, item) is None])
    return _store(items, purse(state.players[seat]))


@lru_cache(maxsize=4096)
def _store(items: tuple[str, ...], held: Purse) -> tuple[pb.Purchase, ...]:
    """The purchases of these items for what the player holds (remembered: one question
    a listing rather than one an item)."""
    return tuple(purchase for item in items for purchase in _buyings(item, held))


def field_actions(state: HarvestState, seat: int) -> Iterable[pb.FieldAction]:
    if "field" not in state.steps[-1].kinds:
        return NONE
    return _field_actions()


@cache
def _field_actions() -> tuple[pb.FieldAction, ...]:
    """The three Field Actions, built once (shared bodies: the kit copies the one picked)."""
    return tuple(pb.FieldAction(kind=kind) for kind in FIELD_KINDS)


def upgrade_buckets(state: HarvestState, seat: int) -> Iterable[pb.UpgradeBucket]:
    step = state.steps[-1]
    if step.kinds.isdisjoint(UPGRADE_TASKS):
        return NONE
    index, kind = allowing(step, UPGRADE_TASKS, "upgrade")
    player = state.players[seat]
    if index < 0 or bucket_track().room(player.bucket) <= 0:
        return NONE
    return _bucket_upgrades(purse(player), action_price(kind, "upgrade_bucket"))


@lru_cache(maxsize=1024)
def _bucket_upgrades(held: Purse, price: int) -> tuple[pb.UpgradeBucket, ...]:
    """The Bucket upgrades for what the player holds, built once (shared bodies)."""
    return tuple(pb.UpgradeBucket(payment=payment) for payment in purse_payments(held, price))


def clear_lands(state: HarvestState, seat: int) -> Iterable[pb.ClearLand]:
    step = state.steps[-1]
    if step.kinds.isdisjoint(CLEAR_TASKS):
        return NONE
    index, kind = allowing(step, CLEAR_TASKS, "clear")
    if index < 0:
        return NONE
    player = state.players[seat]
    cost = action_price(kind, "clear_land")
    return _clearings(player.forests, cost, capped(purse(player), cost))


@lru_cache(maxsize=4096)
def _clearings(forests: tuple[Cell, ...], cost: int, held: Purse) -> tuple[pb.ClearLand, ...]:
    """Every Clear Land for these Forests and what the player holds, built once (shared
    bodies: the kit copies each it lists)."""
    grid = content().grid
    return tuple(
        pb.ClearLand(forest=grid.index(forest), payment=payment)
        for forest in forests
        for payment in purse_payments(held, cost)
    )


def builds(state: HarvestState, seat: int) -> Iterable[pb.Build]:
    step = state.steps[-1]
    if step.kinds.isdisjoint(BUILD_TASKS) or allowing(step, BUILD_TASKS, "build")[0] < 0:
        return NONE
    player = state.players[seat]
    return _builds(state.workshop, builds_free(player), purse(player), build_sites(player))


@lru_cache(maxsize=4096)
def _builds(
    workshop: tuple[str, ...], free: bool, held: Purse, sites: tuple[Cell, ...]
) -> tuple[pb.Build, ...]:
    """Every Build for this Workshop and farm (remembered: one question a listing
    rather than one a slot), slot by slot, each payment on each site."""
    grid = content().grid
    cells = [grid.index(site) for site in sites]
    return tuple(
        _building(slot, cell, payment.coins, payment.water, payment.fertilizer)
        for slot, building in enumerate(workshop)
        if building
        for payment in purse_payments(held, row_cost(slot, free))
        for cell in cells
    )


@lru_cache(maxsize=8192)
def _building(slot: int, cell: int, coins: int, water: int, fertilizer: int) -> pb.Build:
    """One Build, built once: the sites change with every farm, the bodies recur."""
    payment = pb.Payment(coins=coins, water=water, fertilizer=fertilizer)
    return pb.Build(slot=slot, cell=cell, payment=payment)


def trades(state: HarvestState, seat: int) -> Iterable[pb.Trade]:
    if "trade" not in state.steps[-1].kinds:
        return NONE
    player = state.players[seat]
    # trade_refusal reads only these of the player: the open trades are remembered by
    # them, each held amount capped at what a trade gives of it (one Seed, the good's
    # cost), so that players holding enough alike share one entry.
    held = (
        bool(player.forests),
        tuple([min(count, 1) for count in player.seeds]),
        *[min(getattr(player, give), cost) for give, cost in content().trade_costs],
    )
    open_trades = _open_trades.get(held)
    if open_trades is None:
        open_trades = tuple(t for t in _trade_offers() if trade_refusal(player, t) is None)
        if len(_open_trades) >= 4096:
            _open_trades.clear()
        _open_trades[held] = open_trades
    return open_trades


_open_trades: dict[tuple[object, ...], tuple[pb.Trade, ...]] = {}


@cache
def _trade_offers() -> tuple[pb.Trade, ...]:
    """Every trade there is, built once (shared bodies: the kit copies each it lists)."""
    c = content()
    gives = [("seed", s) for s in SEED_FIELDS] + [(g, "") for g, _ in c.trade_costs]
    return tuple(
        pb.Trade(give=give, seed=seed, action=action)
        for give, seed in gives
        for action, _ in c.trade_actions
    )


def upgrade_seeds(state: HarvestState, seat: int) -> Iterable[pb.UpgradeSeed]:
    if "seed_upgrade" not in state.steps[-1].kinds:
        return NONE
    return [
        _seed_upgrade(seed)
        for seed in SEED_FIELDS
        if seed_upgrade_refusal(state, seat, seed) is None
    ]


@cache
def _seed_upgrade(seed: str) -> pb.UpgradeSeed:
    """One Seed's upgrade, built once (shared bodies)."""
    return pb.UpgradeSeed(seed=seed)


def reuse_spaces(state: HarvestState, seat: int) -> Iterable[pb.ReuseSpace]:
    if state.steps[-1].kinds.isdisjoint(REUSES):
        return NONE
    player = state.players[seat]
    return [
        pb.ReuseSpace(space=space.id, payment=payment)
        for space in spaces_in_play(state)
        if reuse_task(state, seat, space) >= 0
        for payment in payments(player, space_cost(state, space))
    ]


def repeat_buildings(state: HarvestState, seat: int) -> Iterable[pb.RepeatBuilding]:
    if "repeat_built" not in state.steps[-1].kinds:
        return NONE
    return [pb.RepeatBuilding(building=b) for b in repeatable(state.players[seat])]


def plant_seeds(state: HarvestState, seat: int) -> Iterable[pb.PlantSeed]:
    free = plants_free(state.steps[-1])
    if free is None:
        return NONE
    player = state.players[seat]
    return [
        body
        for index, seed in enumerate(SEED_FIELDS)
        if player.seeds[index] > 0 and (free or player.fertilizer >= plant_cost(player, seed))
        for body in _plantings(seed, planting_spots(player, seed))
    ]


@lru_cache(maxsize=4096)
def _plantings(seed: str, spots: tuple[Shape, ...]) -> tuple[pb.PlantSeed, ...]:
    """The plantings of a seed on these spots (shared bodies)."""
    return tuple([_planting(seed, spot) for spot in spots])


@lru_cache(maxsize=8192)
def _planting(seed: str, spot: Shape) -> pb.PlantSeed:
    """One planting, built once: a spot recurs on the next turns and on other farms,
    while the set of spots changes with every crop planted."""
    return pb.PlantSeed(seed=seed, cells=cell_numbers(spot))


def tend_crops(state: HarvestState, seat: int) -> Iterable[pb.TendCrop]:
    step = state.steps[-1]
    if step.owed:
        spots = owed_spots(state, seat, step.owed)
        if not spots:
            return [pb.TendCrop(crop=step.owed)]
        return [pb.TendCrop(crop=step.owed, cells=cell_numbers(spot)) for spot in spots]
    free = tends_free(step)
    if free is None:
        return NONE
    player = state.players[seat]
    return [
        pb.TendCrop(crop=crop, cells=cell_numbers(spot))
        for crop in SEED_FIELDS
        if tend_refusal(state, seat, crop, free) is None
        for spot in tending_spots(player, crop)
    ]
