"""Task Phase: two cards each, simultaneously; "or" options; conditional halves; bonus
tasks; the intern program and buyback; energy bars; coins of the turn; the round timer."""

from __future__ import annotations

from engines.tend.content import Square
from engines.tend.engine import ENGINE
from engines.tend.state import TendState
from proto import tend_pb2 as pb
from tests.engines.tend.given import (
    Scripted,
    cmd,
    coins,
    crossed,
    draw_of,
    e,
    evs,
    gained,
    opening,
    position,
    shipped,
    step,
    unlocked,
)

ROW = ("starter_chop_1", "cave_fisher", "welcome_basket", "field_hand", "starter_coins")


def _kinds(events: list[pb.Event]) -> list[str]:
    return [ev.WhichOneof("kind") or "" for ev in events]


def _slots(state: TendState, seat: int) -> list[int]:
    legal = ENGINE.legal_commands(state, seat)
    return [c.choose_card.slot for c in legal if c.HasField("choose_card")]


def test_each_seat_resolves_two_cards_and_seats_may_choose_the_same() -> None:
    """Choose any two of the five (simultaneously; several players may take the same
    card); a card is not chosen twice, and a third is refused."""
    history = opening(seats=2, row=ROW)
    assert _slots(position(history).state, 0) == [0, 1, 2, 3, 4]
    history += step(history, 0, cmd(choose_card=pb.ChooseCard(slot=4)))
    history += step(history, 1, cmd(choose_card=pb.ChooseCard(slot=4)))
    state = position(history).state
    assert [p.purse for p in state.players] == [2, 2], "both took the 2-coin card"
    assert _slots(state, 0) == [0, 1, 2, 3]
    position(history).when(0, cmd(choose_card=pb.ChooseCard(slot=4))).refused("card.already_chosen")
    history += step(history, 0, cmd(choose_card=pb.ChooseCard(slot=3)))
    history += step(history, 0, cmd(finish=pb.Finish()))
    assert _slots(position(history).state, 0) == []
    position(history).when(0, cmd(choose_card=pb.ChooseCard(slot=0))).refused("card.two_taken")


def test_a_card_is_resolved_in_full_before_the_next() -> None:
    """While a card is in hand, no other card may be chosen."""
    history = opening(row=ROW)
    history += step(history, 0, cmd(choose_card=pb.ChooseCard(slot=0)))
    busy = position(history)
    assert busy.state.players[0].task is not None
    busy.when(0, cmd(choose_card=pb.ChooseCard(slot=4))).refused("command.not_now")


def test_an_or_offers_a_choice_and_a_basic_card_needs_none() -> None:
    """'Or': choose one option; a card with one option begins at once."""
    history = opening(row=ROW)
    basic = position(history).when(0, cmd(choose_card=pb.ChooseCard(slot=3))).accepted()
    assert basic.state.players[0].task is not None
    assert basic.state.players[0].task.actions == 2, "Field Hand: tend with 1 extra action"
    history += step(history, 0, cmd(choose_card=pb.ChooseCard(slot=1)))
    options = [c for c in ENGINE.legal_commands(position(history).state, 0)]
    assert [c.choose_option.option for c in options if c.HasField("choose_option")] == [0, 1]
    fish = position(history).when(0, cmd(choose_option=pb.ChooseOption(option=0))).accepted()
    assert fish.state.players[0].task is not None and fish.state.players[0].task.kind == "fish"
    position(history).when(0, cmd(choose_option=pb.ChooseOption(option=2))).refused(
        "option.unknown"
    )


def test_the_bottom_half_only_when_the_condition_holds_after_the_top() -> None:
    """Cave Fisher at mining level 1: the top resolves, the bottom does not (the card ends
    without it); at level 2 the bottom follows."""
    history = opening(row=ROW)
    history += step(history, 0, cmd(choose_card=pb.ChooseCard(slot=1)))
    history += step(history, 0, cmd(choose_option=pb.ChooseOption(option=1)))
    draw = draw_of(position(history).state, 0, "mine", 0, Square(good="stone"))
    mined = step(history, 0, cmd(mine=pb.Mine(square=0)), Scripted(draw))
    history += mined
    done = step(history, 0, cmd(sell=pb.Sell(good="stone")))
    assert _kinds(done)[-2:] == ["task_ended", "card_finished"]
    assert not done[-1].card_finished.bottom


def test_skipping_the_top_still_checks_the_condition() -> None:
    """'You can use the top section even if you do not meet the condition' - and the top
    may be left aside: the bottom is still resolved when the condition holds (Welcome
    Basket: a neighbour track box crossed gives any task)."""
    gift = pb.GoodGifted(seat=0, good="wood", side="left", card="neighbour_01", to_seat=-1, boxes=1)
    history = [*opening(row=ROW), gained(0, "wood"), e(good_gifted=gift)]
    history += step(history, 0, cmd(choose_card=pb.ChooseCard(slot=2)))
    skipped = position(history).when(0, cmd(finish=pb.Finish())).accepted()
    assert _kinds(evs(skipped)) == ["option_chosen", "option_chosen", "task_queued"]
    assert [ev.option_chosen.option for ev in evs(skipped)[:2]] == [-1, 0]
    assert skipped.state.players[0].half == "bottom"


def test_a_bonus_task_from_a_cargo_row_follows_the_card_in_hand() -> None:
    """Shipping the last box of a cargo row during a card queues the row's bonus task
    (row 0: chop); it begins once the card is finished."""
    history = opening(row=ROW)
    fills = [("copper", [(0, 0), (0, 1)]), ("berries", [(0, 2), (0, 3)])]
    fills += [("copper", [(0, 4), (0, 5)]), ("berries", [(0, 6), (0, 7)]), ("heart", [(0, 8)])]
    for good, cells in fills:
        history += shipped(0, good, cells)
    history += step(history, 0, cmd(choose_card=pb.ChooseCard(slot=0)))
    draw = draw_of(position(history).state, 0, "woods", 0, Square(good="wood"))
    history += step(history, 0, cmd(chop=pb.Chop(square=0)), Scripted(draw))
    history += [gained(0, "stone")]
    shipped_ = step(history, 0, cmd(ship=pb.Ship(good="stone", cells=[9])))
    assert _kinds(shipped_) == ["good_shipped", "row_completed", "task_queued"]
    history += shipped_
    sold = step(history, 0, cmd(spend=pb.Spend(good="wood", feature="wood_badge", space=0)))
    assert _kinds(sold)[-3:] == ["task_ended", "card_finished", "task_began"]
    began = sold[-1].task_began
    assert (began.task, began.source) == ("chop", "manifest")


def test_the_intern_program_performs_any_task_for_3_coins() -> None:
    """Three coins: any one of the four tasks, with its upgrade and energy bars."""
    history = [
        *opening(row=ROW),
        *crossed(0, "hatchet", [0, 1, 2]),
        unlocked(0, "tool", "chop"),
        coins(0, 3),
    ]
    for space in (0, 1):
        history += step(
            history, 0, cmd(spend=pb.Spend(good="coin", feature="intern_program", space=space))
        )
    last = (
        position(history)
        .when(0, cmd(spend=pb.Spend(good="coin", feature="intern_program", space=2)))
        .accepted()
    )
    assert _kinds(evs(last)) == ["good_spent", "row_completed", "task_queued"]
    history += evs(last)
    tasks = [c.choose_task.task for c in ENGINE.legal_commands(position(history).state, 0)
             if c.HasField("choose_task")]  # fmt: skip
    assert tasks == ["tend", "chop", "mine", "fish"]
    chop = position(history).when(0, cmd(choose_task=pb.ChooseTask(task="chop"))).accepted()
    assert evs(chop)[0].task_began == pb.TaskBegan(
        seat=0, task="chop", actions=2, source="intern_program"
    )


def test_buyback_crosses_any_good_of_a_badge_project_for_3_coins() -> None:
    history = [*opening(row=ROW), coins(0, 3)]
    for space in (0, 1, 2):
        history += step(
            history, 0, cmd(spend=pb.Spend(good="coin", feature="buyback", space=space))
        )
    state = position(history).state
    assert state.players[0].pending == ("buyback",)
    legal = ENGINE.legal_commands(state, 0)
    targets = {c.spend.feature for c in legal if c.HasField("spend")}
    assert targets == {"wood_badge", "copper_badge", "silver_badge", "gold_badge", "platinum_badge"}
    position(history).when(
        0, cmd(spend=pb.Spend(good="buyback", feature="bridge", space=0))
    ).refused("space.wrong_good")
    spend = pb.Spend(good="buyback", feature="platinum_badge", space=0)
    bought = position(history).when(0, cmd(spend=spend)).accepted()
    assert ("platinum_badge", 0) in bought.state.players[0].crossed


def test_an_energy_bar_once_per_task_and_tools_are_not_retroactive() -> None:
    """A charge gives +1 action, once per task; a hatchet finished during a chop task
    adds its action from the next chop task on."""
    history = [
        *opening(row=ROW),
        *crossed(0, "energy_bar_1", [0, 1, 2]),
        unlocked(0, "energy", "energy_bar_1", 2),
        *crossed(0, "hatchet", [0, 1]),
    ]
    history += step(history, 0, cmd(choose_card=pb.ChooseCard(slot=0)))
    history += step(history, 0, cmd(use_energy=pb.UseEnergy(bar="energy_bar_1")))
    position(history).when(0, cmd(use_energy=pb.UseEnergy(bar="energy_bar_1"))).refused(
        "energy.used"
    )
    assert position(history).state.players[0].task.actions == 2  # type: ignore[union-attr]
    history += [gained(0, "copper")]
    history += step(history, 0, cmd(spend=pb.Spend(good="copper", feature="hatchet", space=2)))
    state = position(history).state
    assert state.players[0].tools == ("chop",)
    assert state.players[0].task is not None and state.players[0].task.actions == 2


def test_unspent_coins_are_lost_when_the_seat_finishes_its_phase() -> None:
    history = [*opening(row=ROW), coins(0, 3)]
    done = position(history).when(0, cmd(finish=pb.Finish())).accepted()
    assert evs(done)[0].coins_lost == pb.CoinsLost(seat=0, coins=3)
    assert done.state.players[0].purse == 0


def test_goods_in_hand_are_used_before_anything_else() -> None:
    """No storage: with a good in hand the seat can only use it (or free moves)."""
    history = [*opening(row=ROW), gained(0, "stone")]
    held = position(history)
    held.when(0, cmd(choose_card=pb.ChooseCard(slot=0))).refused("command.not_now")
    held.when(0, cmd(finish=pb.Finish())).refused("command.not_now")
    kinds = {c.WhichOneof("kind") for c in ENGINE.legal_commands(held.state, 0)}
    assert kinds == {"spend", "sell", "ship", "groundskeep", "gift"}


def test_the_round_timer_is_called_by_a_seat_that_is_done() -> None:
    """7+ players, optional timer: the engine reads no clock; a seat that has finished its
    task phase calls time, and every seat still working stops where it is."""
    history = opening(seats=3, row=ROW, timer=True)
    position(history).when(0, cmd(call_time=pb.CallTime())).refused("command.not_now")
    history += step(history, 0, cmd(finish=pb.Finish()))
    history += step(history, 1, cmd(choose_card=pb.ChooseCard(slot=0)))
    called = position(history).when(0, cmd(call_time=pb.CallTime())).accepted()
    assert evs(called)[0].time_called == pb.TimeCalled(seat=0, stopped=[1, 2])
    assert (called.state.round, called.state.phase) == (2, "neighbour")
    assert called.state.players[1].task is None
    untimed = opening(seats=2, row=ROW)
    untimed += step(untimed, 0, cmd(finish=pb.Finish()))
    assert position(untimed).state.players[0].done
    assert ENGINE.outcome(position(untimed).state).to_act == (1,)
