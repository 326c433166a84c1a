"""Table control, the same for every game: what a seat leaving means, which timeouts are
stale, what the scheduler is asked to send, and what the table's status says."""

from __future__ import annotations

import pytest

from engines.core.clock import ClockRules, Clocks
from engines.core.contract import TableConfig
from engines.core.control import (
    Control,
    End,
    TableRules,
    due,
    fold_table,
    plays_bot,
    resign,
    table_outcome,
    time_out,
)
from engines.core.errors import RuleViolation
from engines.core.play import Table
from proto import common_pb2
from tests.kit_example.goofspiel.engine import ENGINE as GOOFSPIEL

FORFEIT = ClockRules(turn_ms=10_000, total_ms=0, on_timeout="forfeit")
BOT = ClockRules(turn_ms=10_000, total_ms=0, on_timeout="bot")


def kinds(events: list[common_pb2.TableControlEvent]) -> list[str]:
    return [str(event.WhichOneof("kind")) for event in events]


def test_resigning_at_a_two_seat_table_ends_it_and_the_other_seat_wins() -> None:
    rules = TableRules(seats=2)
    events = resign(rules, Control.start(2), seat=1, finished=False)
    assert kinds(events) == ["seat_resigned", "table_finished"]
    assert events[0].seat_resigned.then == "end"
    assert (events[1].table_finished.reason, events[1].table_finished.seat) == ("resigned", 1)
    ended = Control(clocks=Control.start(2).clocks, left=(1,), end=End("resigned", 1))
    status = table_outcome(rules, ended, {"finished": False, "to_act": [0], "winners": []})
    assert status["finished"] and status["winners"] == [0] and status["to_act"] == []
    assert status["end"] == {"reason": "resigned", "seat": 1}


def test_resigning_alone_ends_a_solo_table() -> None:
    events = resign(TableRules(seats=1), Control.start(1), seat=0, finished=False)
    assert kinds(events) == ["seat_resigned", "table_finished"]


def test_with_more_seats_a_bot_takes_the_seat_over_and_it_cannot_win() -> None:
    rules = TableRules(seats=3)
    events = resign(rules, Control.start(3), seat=2, finished=False)
    assert kinds(events) == ["seat_resigned"] and events[0].seat_resigned.then == "bot"
    control = Control(clocks=Control.start(3).clocks, left=(2,))
    assert plays_bot(rules, control, 2) and not plays_bot(rules, control, 0)
    finished = {"finished": True, "to_act": [], "winners": [0, 2]}
    status = table_outcome(rules, control, finished)
    assert status["winners"] == [0] and status["end"]["reason"] == "finished"
    assert status["left"] == [2] and status["bots"] == [2]


def test_when_only_bots_would_be_left_the_table_is_abandoned() -> None:
    rules = TableRules(seats=3, seat_bots=("", "greedy", "random"))
    events = resign(rules, Control.start(3), seat=0, finished=False)
    assert kinds(events) == ["seat_resigned", "table_finished"]
    assert events[1].table_finished.reason == "abandoned"
    control = Control(clocks=Control.start(3).clocks, left=(0,), end=End("abandoned", 0))
    assert table_outcome(rules, control, {"finished": False, "winners": []})["winners"] == []


def test_a_seat_resigns_once_and_not_after_the_end() -> None:
    rules = TableRules(seats=3)
    left = Control(clocks=Control.start(3).clocks, left=(1,))
    with pytest.raises(RuleViolation) as again:
        resign(rules, left, seat=1, finished=False)
    assert again.value.code == "seat.left"
    with pytest.raises(RuleViolation) as over:
        resign(rules, Control.start(3), seat=1, finished=True)
    assert over.value.code == "game.over"


def waiting(since: int) -> Control:
    return Control(clocks=Clocks(since=(since, -1), spent=(0, 0)))


def test_a_timeout_at_the_deadline_the_log_gives_is_decided_by_the_clock_option() -> None:
    forfeit = time_out(TableRules(2, clock=FORFEIT), waiting(1_000), 0, (0,), 11_000)
    assert kinds(forfeit) == ["turn_timed_out", "table_finished"]
    assert forfeit[0].turn_timed_out.then == "forfeit"
    assert forfeit[1].table_finished.reason == "forfeited"
    bot = time_out(TableRules(2, clock=BOT), waiting(1_000), 0, (0,), 11_000)
    assert kinds(bot) == ["turn_timed_out"] and bot[0].turn_timed_out.then == "bot"


@pytest.mark.parametrize(
    ("rules", "to_act", "deadline_ms"),
    [
        (TableRules(2, clock=FORFEIT), (0,), 12_000),  # the seat moved: a later turn
        (TableRules(2, clock=FORFEIT), (1,), 11_000),  # no longer its turn
        (TableRules(2), (0,), 11_000),  # no clock at all
        (TableRules(2, seat_bots=("random", ""), clock=FORFEIT), (0,), 11_000),  # a bot's seat
    ],
)
def test_a_stale_timeout_is_refused(
    rules: TableRules, to_act: tuple[int, ...], deadline_ms: int
) -> None:
    with pytest.raises(RuleViolation) as stale:
        time_out(rules, waiting(1_000), 0, to_act, deadline_ms)
    assert stale.value.code == "clock.stale"


def test_the_plan_is_a_bot_turn_now_or_a_timeout_at_the_deadline() -> None:
    rules = TableRules(2, seat_bots=("", "greedy"), clock=BOT)
    control = Control(clocks=Clocks(since=(1_000, 1_000), spent=(0, 0)))
    planned = due(rules, control, (0, 1), version=7, now_ms=4_000)
    assert [(d.kind, d.seat, d.at_ms) for d in planned] == [
        ("time_out", 0, 11_000),
        ("play_bot", 1, 4_000),
    ]
    assert planned[0].command_id == "bw:time_out:7"
    assert planned[0].command().time_out.deadline_ms == 11_000
    assert due(TableRules(2), Control.start(2), (0,), 7, 4_000) == []


def test_folding_a_timed_out_bot_turn_hands_it_back_after_the_seat_plays() -> None:
    """The control folds beside the game: a turn timed out with "bot" is the bot's until
    the seat's next game event; the clock restarts from that event's time."""
    table = Table.create(GOOFSPIEL, TableConfig("t", 2, {"cards": 5}), b"s" * 32)
    log = table.stored_log()
    rules = TableRules(2, clock=BOT)
    state, control = fold_table(GOOFSPIEL, rules, GOOFSPIEL.initial_state(), Control.start(2), log)
    assert control.clocks.since == (0, 0), "both seats bid at once from set-up"
    timed = common_pb2.StoredEvent(
        version=len(log) + 1,
        seat=0,
        time_ms=10_000,
        control=common_pb2.TableControlEvent(
            turn_timed_out=common_pb2.TurnTimedOut(seat=0, deadline_ms=10_000, then="bot")
        ),
    )
    state, control = fold_table(GOOFSPIEL, rules, state, control, [timed])
    assert control.bot_turns == (0,) and plays_bot(rules, control, 0)
    bid = GOOFSPIEL.legal_commands(state, 0)[0]
    table.execute(0, bid)
    played = table.stored_log()[len(log) :]
    for event in played:
        event.version += 1
        event.time_ms = 10_500
    state, control = fold_table(GOOFSPIEL, rules, state, control, played)
    assert control.bot_turns == ()
    assert control.clocks.spent[0] == 10_500
