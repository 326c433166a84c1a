"""Neighbor Cards and the Neighbor Phase.

Each player has a card beside the left and the right neighbour rewards track, asking for
one or two goods. When a player gains a good a card shows, they may gift that card to
the neighbour on that side instead of gaining the good: they cross out as many boxes of
that track as the card's bonus and gain those boxes' goods at once. The neighbour
redeems the card at the next neighbour phase for either good shown, and the giver draws
two and keeps one to refill the empty side. Players may also discard cards and draw one
replacement each. With two players the one partner is both neighbours; a solo player's
gifted cards are set aside.

The neighbour deck is an unordered pool: cards are drawn from it at random; when it runs
out the discard pile becomes the pool again.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace

from engines.core.deck import draw_random
from engines.core.rng import Rng
from engines.tend import codes
from engines.tend.content import Effect, content
from engines.tend.events import gained, wrap
from engines.tend.marking import reward_events
from engines.tend.state import Player, TendState
from proto import tend_pb2 as pb

__all__ = [
    "SIDES",
    "discard_neighbour",
    "discard_neighbour_candidates",
    "draw_neighbours",
    "gift",
    "gift_candidates",
    "gift_sides",
    "keep_neighbour",
    "keep_neighbour_candidates",
    "keep_neighbours",
    "keep_neighbours_candidates",
    "neighbour_of",
    "take_gift",
    "take_gift_candidates",
    "track_points",
]

SIDES: tuple[str, ...] = ("left", "right")


def neighbour_of(state: TendState, seat: int, side: str) -> int:
    """The seat beside ``seat`` on ``side`` (-1 when playing alone). Seats sit clockwise:
    the left neighbour is the next seat, the right one the previous."""
    if state.seats == 1:
        return -1
    step = 1 if side == "left" else -1
    return (seat + step) % state.seats


def _side(side: str) -> str:
    if side not in SIDES:
        raise codes.SIDE_UNKNOWN()
    return side


def _drawn(player: Player, key: str) -> tuple[str, ...]:
    return dict(player.drawn).get(key, ())


# -- set-up --------------------------------------------------------------------------------


def keep_neighbours(state: TendState, cmd: pb.KeepNeighbours, seat: int) -> list[pb.Event]:
    """Player Components i: of the four cards drawn, one beside each track."""
    drawn = _drawn(state.players[seat], "setup")
    for card in (cmd.left, cmd.right):
        if card not in drawn:
            raise codes.NEIGHBOUR_NOT_DRAWN(card=card or "that")
    if cmd.left == cmd.right and drawn.count(cmd.left) < 2:
        raise codes.NEIGHBOUR_SAME_CARD()
    kept = pb.NeighboursKept(seat=seat, left=cmd.left, right=cmd.right)
    return [wrap(neighbours_kept=kept)]


def keep_neighbours_candidates(state: TendState, seat: int) -> Iterator[pb.KeepNeighbours]:
    drawn = _drawn(state.players[seat], "setup")
    for i, left in enumerate(drawn):
        for j, right in enumerate(drawn):
            if i != j:
                yield pb.KeepNeighbours(left=left, right=right)


# -- the neighbour phase ---------------------------------------------------------------------


def draw_neighbours(state: TendState, seat: int, side: str, count: int, rng: Rng) -> pb.Event:
    """``count`` cards drawn at random for ``side`` (the discard pile becomes the deck
    when the deck runs out)."""
    deck, discard = state.neighbour_deck, state.neighbour_discard
    cards = draw_random(deck, count, rng)
    reshuffled = len(cards) < count and bool(discard)
    if reshuffled:
        rest = list(deck) + list(discard)
        for card in cards:
            rest.remove(card)
        cards += draw_random(rest, count - len(cards), rng)
    drawn = pb.NeighboursDrawn(seat=seat, side=side, cards=cards, reshuffled=reshuffled)
    return wrap(neighbours_drawn=drawn)


def keep_neighbour(state: TendState, cmd: pb.KeepNeighbour, seat: int) -> list[pb.Event]:
    """Draw 2, keep 1 beside the empty track; the other is discarded."""
    drawn = _drawn(state.players[seat], _side(cmd.side))
    if not drawn:
        raise codes.SIDE_NOTHING_DRAWN(side=cmd.side)
    if cmd.card not in drawn:
        raise codes.NEIGHBOUR_NOT_DRAWN(card=cmd.card or "that")
    return [wrap(neighbour_kept=pb.NeighbourKept(seat=seat, side=cmd.side, card=cmd.card))]


def keep_neighbour_candidates(state: TendState, seat: int) -> Iterator[pb.KeepNeighbour]:
    for side, cards in state.players[seat].drawn:
        if side in SIDES:
            for card in sorted(set(cards)):
                yield pb.KeepNeighbour(side=side, card=card)


def discard_neighbour(
    state: TendState, cmd: pb.DiscardNeighbour, seat: int, rng: Rng
) -> list[pb.Event]:
    """Replacing Neighbor Cards: discard a card "from previous phases" and draw one to
    replace it (a card that came this phase, its replacement included, stays)."""
    player = state.players[seat]
    card = player.card_beside(_side(cmd.side))
    if not card:
        raise codes.SIDE_EMPTY(side=cmd.side)
    if cmd.side in player.fresh:
        raise codes.NEIGHBOUR_NEW(side=cmd.side)
    if not state.neighbour_deck and not state.neighbour_discard:
        raise codes.NEIGHBOUR_DECK_EMPTY()
    discarded = pb.NeighbourDiscarded(seat=seat, side=cmd.side, card=card)
    events = [wrap(neighbour_discarded=discarded)]
    after = _after_discard(state, card)
    drawn = draw_neighbours(after, seat, cmd.side, 1, rng)
    kept = pb.NeighbourKept(seat=seat, side=cmd.side, card=drawn.neighbours_drawn.cards[0])
    return [*events, drawn, wrap(neighbour_kept=kept)]


def _after_discard(state: TendState, card: str) -> TendState:
    return replace(state, neighbour_discard=(*state.neighbour_discard, card))


def discard_neighbour_candidates(state: TendState, seat: int) -> Iterator[pb.DiscardNeighbour]:
    player = state.players[seat]
    if not state.neighbour_deck and not state.neighbour_discard:
        return
    for side in SIDES:
        if player.card_beside(side) and side not in player.fresh:
            yield pb.DiscardNeighbour(side=side)


def take_gift(state: TendState, cmd: pb.TakeGift, seat: int) -> list[pb.Event]:
    """Gain one good shown on a card gifted to you (either, whatever the giver paid)."""
    if cmd.card not in state.players[seat].gifts:
        raise codes.GIFT_NOT_RECEIVED()
    if cmd.good not in content().neighbour_cards[cmd.card].goods:
        raise codes.GIFT_WRONG_GOOD(good=cmd.good or "that good")
    taken = pb.GiftTaken(seat=seat, card=cmd.card, good=cmd.good)
    return [wrap(gift_taken=taken), gained(seat, [cmd.good], "gift")]


def take_gift_candidates(state: TendState, seat: int) -> Iterator[pb.TakeGift]:
    for card in sorted(set(state.players[seat].gifts)):
        for good in content().neighbour_cards[card].goods:
            yield pb.TakeGift(card=card, good=good)


def gift_sides(state: TendState, seat: int, good: str) -> list[str]:
    """The sides whose card asks for ``good``."""
    player = state.players[seat]
    cards = content().neighbour_cards
    return [
        side
        for side in SIDES
        if player.card_beside(side) and good in cards[player.card_beside(side)].goods
    ]


def _box_rewards(track: Sequence[str], start: int, count: int) -> list[Effect]:
    rewards = []
    for box in track[start : start + count]:
        rewards.append(Effect("coins", "", 1) if box == "coin" else Effect("good", box))
    return rewards


def gift(state: TendState, cmd: pb.Gift, seat: int) -> list[pb.Event]:
    """Gift the card asking for a good you gained, instead of gaining it: cross its bonus
    in boxes of that track and gain their goods at once."""
    player = state.players[seat]
    if cmd.good not in player.pending:
        raise codes.GOOD_NOT_HELD(good=cmd.good or "that")
    side = _side(cmd.side)
    if side not in gift_sides(state, seat, cmd.good):
        raise codes.GIFT_NO_CARD(side=side, good=cmd.good)
    card = player.card_beside(side)
    track = content().neighbour_tracks[side]
    crossed = player.track_left if side == "left" else player.track_right
    boxes = min(content().neighbour_cards[card].bonus, len(track) - crossed)
    given = pb.GoodGifted(
        seat=seat,
        good=cmd.good,
        side=side,
        card=card,
        to_seat=neighbour_of(state, seat, side),
        boxes=boxes,
    )
    rewards = _box_rewards(track, crossed, boxes)
    return [wrap(good_gifted=given), *reward_events(seat, rewards, source=f"{side} track")]


def gift_candidates(state: TendState, seat: int) -> Iterator[pb.Gift]:
    for good in sorted(set(state.players[seat].pending)):
        for side in gift_sides(state, seat, good):
            yield pb.Gift(good=good, side=side)


def track_points(state: TendState, seat: int) -> int:
    """Neighbour bonuses: 3 points per box crossed beyond the facing track of the
    neighbour on each side; with two players the partner faces both; alone, 3 per box."""
    player = state.players[seat]
    if state.seats == 1:
        return 3 * (player.track_left + player.track_right)
    left = state.players[neighbour_of(state, seat, "left")]
    right = state.players[neighbour_of(state, seat, "right")]
    extra = max(0, player.track_left - left.track_right) + max(
        0, player.track_right - right.track_left
    )
    return 3 * extra
