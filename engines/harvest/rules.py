"""Rules shared by every section: the supply, action spaces, costs and payments, gains.

Each function names the rulebook section it follows.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from engines.core.polyomino import Cell
from engines.core.track import Track
from engines.harvest import codes
from engines.harvest.characters import pays_with_goods
from engines.harvest.content import Space, TaskSpec, content
from engines.harvest.events import resources
from engines.harvest.market import market_spaces, tile_spaces
from engines.harvest.state import HarvestState, Player, Step
from proto import harvest_pb2 as pb

__all__ = [
    "REROLL_TRACK",
    "SEED_FIELDS",
    "acting_step",
    "bucket_track",
    "capped",
    "empty_cells",
    "fertilizer_track",
    "gain",
    "is_open",
    "pay",
    "payment_of",
    "payments",
    "priced_spaces",
    "priced_spaces_of",
    "purse",
    "purse_payments",
    "seed_count",
    "space_cost",
    "space_named",
    "space_tasks",
    "spaces_in_play",
    "supply_left",
    "water_track",
]

SEED_FIELDS = ("wheat", "strawberry", "blueberry", "pumpkin")

REROLL_TRACK = Track(0, 1)
"""Forest Die re-roll Farmhouse: one re-roll held at a time (refreshed each Sunrise)."""


@cache
def bucket_track() -> Track:
    """Farm Board › Bucket: from the starting 3 up to 10."""
    return Track(content().start_bucket, content().max_bucket)


@cache
def fertilizer_track() -> Track:
    """Farm Board › Fertilizer: 0 to 9."""
    return Track(0, content().max_fertilizer)


def water_track(player: Player) -> Track:
    """Farm Board › Water: always below the Bucket marker."""
    return _water_track(player.bucket)


@cache
def _water_track(bucket: int) -> Track:
    # One track per Bucket size (a few): gains and the Store ask on every fill.
    return Track(0, bucket - 1)


def seed_count(player: Player, seed: str) -> int:
    return player.seeds[SEED_FIELDS.index(seed)]


def supply_left(state: HarvestState, piece: str) -> int:
    """Components › Seed/Crop Tiles: how many tiles of a kind are left in the Supply.

    ``piece`` is a seed name, ``bush`` (a blueberry seed is a Bush tile) or
    ``berry`` (a Blueberry crop on a bush).
    """
    seeds, tiles, berries = _held(state.players)
    if piece == "berry":
        return content().crop("blueberry").supply - berries
    supply, seed, tile = _pieces()[piece]
    return supply - seeds[seed] - tiles.get(tile, 0)


@cache
def _pieces() -> dict[str, tuple[int, int, str]]:
    """Each Seed's (and the Bush's) Supply, its Seed slot and the tile it is planted as
    (read once: the Store asks for every Seed it lists)."""
    c = content()
    pieces = {seed: (c.crop(seed).supply, index, seed) for index, seed in enumerate(SEED_FIELDS)}
    # A Blueberry seed is a Bush tile: both come out of the Bush supply.
    bush = (c.bush_supply, SEED_FIELDS.index("blueberry"), "bush")
    pieces["blueberry"] = pieces["bush"] = bush
    return pieces


# What the players hold, for the last players tuple seen (held, so its id stays its own):
# the Store asks once per seed it lists, and the tuple is replaced whenever a player
# changes, never changed in place.
_last_held: tuple[tuple[Player, ...], tuple[tuple[int, ...], dict[str, int], int]] | None = None


def _held(players: tuple[Player, ...]) -> tuple[tuple[int, ...], dict[str, int], int]:
    """Seeds per field, crop tiles per kind and Blueberries, summed over the players."""
    global _last_held
    last = _last_held
    if last is not None and last[0] is players:
        return last[1]
    seeds = [0] * len(SEED_FIELDS)
    tiles: dict[str, int] = {}
    berries = 0
    for player in players:
        for index, count in enumerate(player.seeds):
            seeds[index] += count
        for crop in player.crops:
            tiles[crop.kind] = tiles.get(crop.kind, 0) + 1
            berries += bool(crop.berry)
    held = (tuple(seeds), tiles, berries)
    _last_held = (players, held)
    return held


def gain(state: HarvestState, seat: int, kind: str, amount: int, reason: str) -> list[pb.Event]:
    """Icon Reference: gain Coins, Water, Fertilizer, Points, a Seed; fill or upgrade.

    Tracks stop at their limits (Fertilizer 9, Water below the Bucket, Bucket 10)
    and seeds at what the Supply holds; a gain of nothing records no event.
    """
    p = state.players[seat]
    if kind == "coin":
        field, gained = "coins", amount
    elif kind == "points":
        field, gained = "points", amount
    elif kind == "water":
        field, gained = "water", min(amount, water_track(p).room(p.water))
    elif kind == "fertilizer":
        field, gained = "fertilizer", min(amount, fertilizer_track().room(p.fertilizer))
    elif kind == "fill_bucket":
        field, gained = "water", water_track(p).room(p.water)
    elif kind == "upgrade_bucket":
        field, gained = "bucket", min(amount, bucket_track().room(p.bucket))
    elif kind == "reroll":
        field, gained = "rerolls", min(amount, REROLL_TRACK.room(p.rerolls))
    elif kind.startswith("seed:"):
        field = kind.removeprefix("seed:")
        gained = min(amount, supply_left(state, field))
    else:
        raise ValueError(f"not a simple gain: {kind}")
    return [resources(seat, reason, **{field: gained})] if gained > 0 else []


def acting_step(state: HarvestState, seat: int) -> Step:
    """The step the seat is resolving (the flow admits step commands only from the
    seat of the top step)."""
    return state.steps[-1]


def spaces_in_play(state: HarvestState) -> tuple[Space, ...]:
    """The action spaces on the Town Board this round."""
    return _spaces_in_play(state.market_large, state.market_small)


@cache
def _spaces_in_play(market_large: str, market_small: str) -> tuple[Space, ...]:
    # Cached: asked for every placement listed, and it changes only with the market.
    market = tile_spaces(market_large, market_small)
    return tuple(s for s in content().spaces if not s.market or s.id in market)


def space_named(state: HarvestState, space_id: str) -> Space | None:
    """The action space in play with this id, if any."""
    return _spaces_by_id(state.market_large, state.market_small).get(space_id)


@cache
def _spaces_by_id(market_large: str, market_small: str) -> dict[str, Space]:
    # Cached with the spaces in play: every placement looks its space up.
    return {space.id: space for space in _spaces_in_play(market_large, market_small)}


def is_open(state: HarvestState, space: Space) -> bool:
    """Action Phase › Open: no piece on it, or an always-open (infinity) space."""
    return space.always_open or space.id not in dict(state.placements)


def space_cost(state: HarvestState, space: Space) -> int:
    """The red price tag: fixed, the round number (Fields 3), or the market space's."""
    return _price_tag(space, state.market_large, state.market_small, state.round)


def _price_tag(space: Space, market_large: str, market_small: str, round_: int) -> int:
    if space.market:
        return tile_spaces(market_large, market_small)[space.id][0]
    return round_ if space.cost_is_round else space.cost


def priced_spaces(state: HarvestState) -> tuple[tuple[Space, int], ...]:
    """The action spaces in play, each with its ``space_cost``."""
    return priced_spaces_of(state.market_large, state.market_small, state.round)


@lru_cache(maxsize=256)
def priced_spaces_of(
    market_large: str, market_small: str, round_: int
) -> tuple[tuple[Space, int], ...]:
    """``priced_spaces`` for the market's top tiles and the round, which is all the
    costs read (cached: the listing of placements asks for every space's cost)."""
    return tuple(
        (space, _price_tag(space, market_large, market_small, round_))
        for space in _spaces_in_play(market_large, market_small)
    )


def space_tasks(state: HarvestState, space: Space) -> tuple[TaskSpec, ...]:
    if space.market:
        return market_spaces(state)[space.id][1]
    return space.tasks


Purse = tuple[int, int, int, bool]
"""What paying a Coin cost depends on: Coins, Water, Fertilizer, and whether the player
may pay with Water and Fertilizer (River the Fox)."""


def purse(player: Player) -> Purse:
    if pays_with_goods(player):
        return player.coins, player.water, player.fertilizer, True
    # Only Coins pay: one purse per Coin count, so the bodies built for it are shared more.
    return player.coins, 0, 0, False


def capped(held: Purse, cost: int) -> Purse:
    """What of ``held`` can go towards a Coin cost of at most ``cost`` (each good capped
    at it): the ways to pay such a cost are the same for both, so listings remembered
    by the capped purse are shared by every player who holds enough."""
    coins, water, fertilizer, goods = held
    return min(coins, cost), min(water, cost), min(fertilizer, cost), goods


def payments(player: Player, cost: int) -> Sequence[pb.Payment]:
    """Every way the player may pay a Coin cost (River the Fox: Water and Fertilizer too).

    Read only: a command built with one copies it.
    """
    return purse_payments(purse(player), cost)


@lru_cache(maxsize=8192)
def purse_payments(held: Purse, cost: int) -> tuple[pb.Payment, ...]:
    """``payments`` for what the player holds (cached: callers only read them)."""
    coins_held, water_held, fertilizer_held, goods = held
    if cost <= 0:
        return _in_coins(0)
    if not goods:
        return _in_coins(cost) if coins_held >= cost else ()
    found = []
    for water in range(min(cost, water_held) + 1):
        for fertilizer in range(min(cost - water, fertilizer_held) + 1):
            coins = cost - water - fertilizer
            if coins <= coins_held:
                found.append(pb.Payment(coins=coins, water=water, fertilizer=fertilizer))
    return tuple(found)


# The commands that may cost Coins.
Paying = (
    pb.PlaceWorker
    | pb.MovePiece
    | pb.ReuseSpace
    | pb.Purchase
    | pb.UpgradeBucket
    | pb.ClearLand
    | pb.Build
)


def payment_of(body: Paying) -> pb.Payment:
    """The payment a command names. A command that may cost Coins always names one (an
    empty one when nothing is owed), so each move has one spelling."""
    if not body.HasField("payment"):
        raise codes.PAYMENT_MISSING()
    return body.payment


@cache
def _in_coins(cost: int) -> tuple[pb.Payment]:
    # Cached: asked for every space and item listed; callers only read it.
    return (pb.Payment(coins=cost),)


def pay(
    state: HarvestState, seat: int, cost: int, payment: pb.Payment, reason: str
) -> list[pb.Event]:
    """Pay a Coin cost as given; refuses a wrong sum or a payment the player cannot make."""
    player = state.players[seat]
    # Each field read once: a message's fields are read through its wrapper.
    coins, water, fertilizer = payment.coins, payment.water, payment.fertilizer
    if coins < 0 or water < 0 or fertilizer < 0:
        raise codes.PAYMENT_INVALID()
    if (water or fertilizer) and not pays_with_goods(player):
        raise codes.PAYMENT_COINS_ONLY()
    if coins + water + fertilizer != max(cost, 0):
        raise codes.PAYMENT_WRONG_AMOUNT(cost=max(cost, 0))
    if coins > player.coins or water > player.water or fertilizer > player.fertilizer:
        raise codes.PAYMENT_CANNOT_AFFORD()
    if cost <= 0:
        return []
    return [resources(seat, reason, coins=-coins, water=-water, fertilizer=-fertilizer)]


def empty_cells(player: Player) -> frozenset[Cell]:
    """Field spaces with no Forest, Building or Crop on them."""
    taken: set[Cell] = set(forest_blocks(player.forests))
    for built in player.buildings:
        taken |= built.cells
    for crop in player.crops:
        taken |= crop.cells
    return field_cells() - taken


@cache
def field_cells() -> frozenset[Cell]:
    """Every field space of a Farm Board."""
    return content().grid.cells


@lru_cache(maxsize=1024)
def forest_blocks(forests: tuple[Cell, ...]) -> frozenset[Cell]:
    """The field spaces under Forest tiles (each 2x2, named by its top-left cell)."""
    cells: set[Cell] = set()
    for top, left in forests:
        cells |= {(top + r, left + col) for r in range(2) for col in range(2)}
    return frozenset(cells)


def phase_order(state: HarvestState, phase: str) -> tuple[int, ...]:
    """Sunrise order (lowest tile first) for a phase; Gairy (-1) takes Action turns."""
    sunrise = {seat: p.sunrise for seat, p in enumerate(state.players)}
    if phase == "actions" and state.gairy_tiles_per_turn:
        sunrise[-1] = state.gairy_sunrise
    return tuple(sorted(sunrise, key=lambda s: sunrise[s]))


def stack_count(state: HarvestState) -> int:
    """Buildings still in the face-down stacks (unseen, and not on a farm as Forest)."""
    unseen = len(content().buildings) - len(state.revealed_buildings)
    return unseen - sum(len(p.forests) for p in state.players)
