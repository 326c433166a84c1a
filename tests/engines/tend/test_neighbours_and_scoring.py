"""Neighbor Cards and the Neighbor Phase at 1, 2 and 3+ players, and final scoring
(badges and the seasoned explorer, neighbour bonuses, shared wins)."""

from __future__ import annotations

from engines.tend.content import content
from engines.tend.engine import ENGINE
from engines.tend.scoring import final_events, final_score
from engines.tend.state import TendState
from proto import tend_pb2 as pb
from tests.engines.tend.given import (
    cmd,
    e,
    gained,
    opening,
    position,
    shipped,
    step,
    unlocked,
)

# opening() deals seat s the cards neighbour_{4s+1..4s+4} and keeps the first two:
# seat 0: left neighbour_01 (wood | stone, 1 box), right neighbour_02 (wood | berries, 1).


def _kinds(events: list[pb.Event]) -> list[str]:
    return [ev.WhichOneof("kind") or "" for ev in events]


def _gift(seat: int, good: str, side: str, card: str, to: int, boxes: int) -> list[pb.Event]:
    body = pb.GoodGifted(seat=seat, good=good, side=side, card=card, to_seat=to, boxes=boxes)
    return [gained(seat, good), e(good_gifted=body)]


def test_a_gift_replaces_the_good_crosses_its_boxes_and_gains_them() -> None:
    """Gaining a stone that seat 0's left card asks for, it gifts the card instead: no
    stone, 1 box of the left track crossed and its good (a heart) gained at once; the
    card goes to the left neighbour (seat 1, the next seat)."""
    history = [*opening(seats=3), gained(0, "stone")]
    gifted = step(history, 0, cmd(gift=pb.Gift(good="stone", side="left")))
    assert gifted[0].good_gifted == pb.GoodGifted(
        seat=0, good="stone", side="left", card="neighbour_01", to_seat=1, boxes=1
    )
    assert gifted[1].goods_gained.goods == [content().neighbour_tracks["left"][0]]
    state = position(history + gifted).state
    assert state.players[0].pending == ("heart",) and state.players[0].left == ""
    assert state.players[1].incoming == ("neighbour_01",)
    position(history).when(0, cmd(gift=pb.Gift(good="stone", side="right"))).refused("gift.no_card")


def test_gifts_arrive_at_the_next_neighbour_phase_for_either_good_then_cards_refill() -> None:
    """The receiver redeems the card at the next neighbour phase for either good shown;
    the giver draws 2 and keeps 1 for the empty side; optional swaps draw 1 each."""
    history = [*opening(seats=3), *_gift(0, "stone", "left", "neighbour_01", 1, 1)]
    history += [gained(0, "heart")]
    history += step(history, 0, cmd(sell=pb.Sell(good="heart")))
    for seat in (0, 1, 2):
        history += step(history, seat, cmd(finish=pb.Finish()))
    state = position(history).state
    assert (state.round, state.phase) == (2, "neighbour")
    assert state.players[1].gifts == ("neighbour_01",)
    giver = dict(state.players[0].drawn)
    assert len(giver["left"]) == 2, "seat 0 drew two for its empty left side"
    takes = [c.take_gift for c in ENGINE.legal_commands(state, 1) if c.HasField("take_gift")]
    assert [(t.card, t.good) for t in takes] == [
        ("neighbour_01", "wood"),
        ("neighbour_01", "stone"),
    ]
    took = step(history, 1, cmd(take_gift=pb.TakeGift(card="neighbour_01", good="wood")))
    assert _kinds(took) == ["gift_taken", "goods_gained"]
    keep = giver["left"][1]
    kept = step(history, 0, cmd(keep_neighbour=pb.KeepNeighbour(side="left", card=keep)))
    after = position(history + kept).state
    assert after.players[0].left == keep and giver["left"][0] in after.neighbour_discard
    swap = step(history + kept, 0, cmd(discard_neighbour=pb.DiscardNeighbour(side="right")))
    assert _kinds(swap) == ["neighbour_discarded", "neighbours_drawn", "neighbour_kept"]
    assert len(swap[1].neighbours_drawn.cards) == 1


def test_only_cards_from_earlier_phases_may_be_swapped() -> None:
    """Replacing Neighbor Cards: a player may discard cards "from previous phases". The
    card kept this phase for an empty side, and the card drawn to replace a swapped one,
    stay until the next neighbour phase; the older card may still be swapped."""
    history = [*opening(seats=3), *_gift(0, "stone", "left", "neighbour_01", 1, 1)]
    history += [gained(0, "heart")]
    history += step(history, 0, cmd(sell=pb.Sell(good="heart")))
    for seat in (0, 1, 2):
        history += step(history, seat, cmd(finish=pb.Finish()))
    keep = dict(position(history).state.players[0].drawn)["left"][1]
    history += step(history, 0, cmd(keep_neighbour=pb.KeepNeighbour(side="left", card=keep)))
    now = position(history)
    now.when(0, cmd(discard_neighbour=pb.DiscardNeighbour(side="left"))).refused("neighbour.new")
    swaps = [
        c.discard_neighbour.side
        for c in ENGINE.legal_commands(now.state, 0)
        if c.HasField("discard_neighbour")
    ]
    assert swaps == ["right"]
    history += step(history, 0, cmd(discard_neighbour=pb.DiscardNeighbour(side="right")))
    again = position(history)
    again.when(0, cmd(discard_neighbour=pb.DiscardNeighbour(side="right"))).refused("neighbour.new")
    assert not any(c.HasField("discard_neighbour") for c in ENGINE.legal_commands(again.state, 0))


def test_two_players_gift_each_other_from_either_side() -> None:
    history = [*opening(seats=2), gained(0, "wood")]
    for side in ("left", "right"):
        gifted = step(history, 0, cmd(gift=pb.Gift(good="wood", side=side)))
        assert gifted[0].good_gifted.to_seat == 1


def test_alone_a_gifted_card_is_set_aside_and_each_box_scores_3() -> None:
    history = [*opening(seats=1), gained(0, "wood")]
    gifted = step(history, 0, cmd(gift=pb.Gift(good="wood", side="left")))
    assert gifted[0].good_gifted.to_seat == -1
    state = position(history + gifted).state
    assert "neighbour_01" in state.neighbour_discard
    assert final_score(state, 0).neighbour == 3


def _tracks(state_events: list[pb.Event], filled: dict[int, tuple[int, int]]) -> TendState:
    events = list(state_events)
    for seat, (left, right) in filled.items():
        for side, boxes in (("left", left), ("right", right)):
            if boxes:
                events += _gift(seat, "wood", side, f"x{seat}{side}", -1, boxes)
    return position(events).state


def test_neighbour_bonuses_compare_facing_tracks_3_points_per_box_more() -> None:
    """Your left track against the left player's right track, your right track against
    the right player's left track: 3 points per box you have more. With two players the
    partner faces both of your tracks."""
    three = _tracks(opening(seats=3), {0: (4, 1), 1: (0, 2), 2: (3, 3)})
    # Seat 0: left 4 vs seat 1's right 2, 2 more; right 1 vs seat 2's left 3, none.
    # Seat 1: left 0 vs seat 2's right 3; right 2 vs seat 0's left 4: none.
    # Seat 2: left 3 vs seat 0's right 1, 2 more; right 3 vs seat 1's left 0, 3 more.
    assert [final_score(three, s).neighbour for s in range(3)] == [6, 0, 15]
    two = _tracks(opening(seats=2), {0: (3, 1), 1: (1, 2)})
    # Seat 0: left 3 vs the partner's right 2, 1 more; right 1 vs its left 1. Seat 1: none.
    assert [final_score(two, s).neighbour for s in range(2)] == [3, 0]


def test_badges_and_the_seasoned_explorer_doubling_the_best_one() -> None:
    history = [
        *opening(seats=2),
        unlocked(0, "badge", "wood_badge", 8),
        unlocked(0, "badge", "gold_badge", 15),
        unlocked(1, "badge", "wood_badge", 8),
        unlocked(1, "badge", "gold_badge", 15),
        unlocked(1, "explorer", "seasoned_explorer"),
    ]
    state = position(history).state
    assert (final_score(state, 0).badges, final_score(state, 0).doubled) == (23, "")
    assert (final_score(state, 1).badges, final_score(state, 1).doubled) == (38, "gold_badge")


def test_the_highest_total_wins_and_ties_are_shared() -> None:
    state = position(opening(seats=3)).state
    (finished,) = final_events(state)
    assert list(finished.game_finished.winners) == [0, 1, 2]
    ahead_state = position([*opening(seats=3), *shipped(1, "stone", [(0, 0)])]).state
    (finished,) = final_events(ahead_state)
    assert list(finished.game_finished.winners) == [1]
    assert ENGINE.outcome(ahead_state).scores == (0, 1, 0)
