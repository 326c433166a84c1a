"""Gaining and Using Resources: nothing is stored; each gained good is used at once.

A gained good waits in hand only until the player says how it is used: spent on a
sheet, sold to the commissary (coins for this turn), placed in the cargo manifest,
gifted through a matching neighbour card, or turned into soil or fences
(groundskeeping). A good with none of these uses may be let go. Coins from selling,
tracks and cards are held for the rest of the player's phase and spent on coin spaces.
"""

from __future__ import annotations

from collections.abc import Iterator

from engines.tend import codes
from engines.tend.content import content
from engines.tend.events import coins, gained, wrap
from engines.tend.farm_area import MARKS, mark_spots
from engines.tend.marking import cross_events, crossing_refusal, spend_targets
from engines.tend.neighbours import gift_sides
from engines.tend.state import Player, TendState
from proto import tend_pb2 as pb

__all__ = [
    "discard",
    "discard_candidates",
    "groundskeep",
    "groundskeep_candidates",
    "has_use",
    "sell",
    "sell_candidates",
    "sell_price",
    "spend",
    "spend_candidates",
]


def _hold(player: Player, good: str) -> None:
    if good == "coin":
        if player.purse < 1:
            raise codes.COIN_NONE()
    elif good not in player.pending:
        raise codes.GOOD_NOT_HELD(good=good or "that")


def spend(state: TendState, cmd: pb.Spend, seat: int) -> list[pb.Event]:
    """Spend: cross out a space showing the good (a coin of this turn on a coin space; a
    buyback on any good of a badge project)."""
    player = state.players[seat]
    _hold(player, cmd.good)
    if cmd.good in MARKS:
        raise codes.SPACE_WRONG_GOOD(good=cmd.good)
    refusal = crossing_refusal(player, cmd.feature, cmd.space, cmd.good)
    if refusal is not None:
        raise refusal(good=cmd.good)
    return cross_events(state, seat, cmd.good, cmd.feature, cmd.space)


def spend_candidates(state: TendState, seat: int) -> Iterator[pb.Spend]:
    player = state.players[seat]
    held = sorted({g for g in player.pending if g not in MARKS})
    if player.purse:
        held.append("coin")
    for good in held:
        for feature, space in spend_targets(player, good):
            yield pb.Spend(good=good, feature=feature, space=space)


def sell_price(player: Player, good: str) -> int:
    """The commissary's coins, plus 1 for a type a special project's ability favours."""
    info = content().good(good)
    bonus = sum(
        1
        for ability in player.abilities
        if content().abilities[ability].get("sell_bonus") == info.type
    )
    return (info.coins or 0) + bonus


def sell(state: TendState, cmd: pb.Sell, seat: int) -> list[pb.Event]:
    """Sell: the commissary's coin value, to spend this turn."""
    player = state.players[seat]
    if cmd.good in MARKS or cmd.good not in player.pending:
        raise codes.GOOD_NOT_HELD(good=cmd.good or "that")
    info = content().goods.get(cmd.good)
    if info is None or not info.listed:
        raise codes.SELL_UNLISTED(good=cmd.good)
    price = sell_price(player, cmd.good)
    return [
        wrap(good_sold=pb.GoodSold(seat=seat, good=cmd.good, coins=price)),
        coins(seat, price, "sold"),
    ]


def sell_candidates(state: TendState, seat: int) -> Iterator[pb.Sell]:
    goods = content().goods
    for good in sorted(set(state.players[seat].pending)):
        if good in goods and goods[good].listed:
            yield pb.Sell(good=good)


def _marks(player: Player, good: str, mark: str) -> int:
    rate = content().groundskeeping.get(good)
    if rate is None or mark not in ("tilled", "fence"):
        return 0
    base = rate.tilled if mark == "tilled" else rate.fence
    if not base:
        return 0
    return base + sum(
        int(content().abilities[a].get("groundskeeping_bonus", 0)) for a in player.abilities
    )


def groundskeep(state: TendState, cmd: pb.Groundskeep, seat: int) -> list[pb.Event]:
    """Groundskeeping: turn in a good for soil or fences to draw (free, any number)."""
    player = state.players[seat]
    if cmd.good in MARKS or cmd.good not in player.pending:
        raise codes.GOOD_NOT_HELD(good=cmd.good or "that")
    count = _marks(player, cmd.good, cmd.mark)
    if not count:
        raise codes.GROUNDS_UNKNOWN(good=cmd.good, mark=cmd.mark or "marks")
    kept = pb.GoodGroundskept(seat=seat, good=cmd.good, mark=cmd.mark, count=count)
    return [wrap(good_groundskept=kept), gained(seat, [cmd.mark] * count, "groundskeeping")]


def groundskeep_candidates(state: TendState, seat: int) -> Iterator[pb.Groundskeep]:
    player = state.players[seat]
    for good in sorted(set(player.pending)):
        for mark in ("tilled", "fence"):
            if _marks(player, good, mark):
                yield pb.Groundskeep(good=good, mark=mark)


def has_use(state: TendState, seat: int, good: str) -> bool:
    """Whether a held good (or mark) has any use now besides being let go."""
    player = state.players[seat]
    if good in MARKS:
        return bool(mark_spots(player, good))
    info = content().goods.get(good)
    if info is not None and info.listed:
        return True
    if any(_marks(player, good, m) for m in ("tilled", "fence")):
        return True
    if any(True for _ in spend_targets(player, good)):
        return True
    return bool(gift_sides(state, seat, good))


def discard(state: TendState, cmd: pb.Discard, seat: int) -> list[pb.Event]:
    """Let go of a good or mark that has no use at all (no space, no buyer, no room)."""
    player = state.players[seat]
    if cmd.good not in player.pending:
        raise codes.GOOD_NOT_HELD(good=cmd.good or "that")
    if has_use(state, seat, cmd.good):
        raise codes.DISCARD_USEFUL(good=cmd.good)
    return [wrap(good_discarded=pb.GoodDiscarded(seat=seat, good=cmd.good))]


def discard_candidates(state: TendState, seat: int) -> Iterator[pb.Discard]:
    for good in sorted(set(state.players[seat].pending)):
        if not has_use(state, seat, good):
            yield pb.Discard(good=good)
