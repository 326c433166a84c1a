"""The clock arithmetic: per-turn limits, totals per seat, and both, over the log's times."""

from __future__ import annotations

from engines.core.clock import NOT_TO_ACT, ClockRules, Clocks, deadline, start, tick
from proto import common_pb2

TURN = ClockRules(turn_ms=30_000, total_ms=0, on_timeout="forfeit")
TOTAL = ClockRules(turn_ms=0, total_ms=10_000, on_timeout="forfeit")
BOTH = ClockRules(turn_ms=5_000, total_ms=10_000, on_timeout="bot")


def test_a_turn_starts_when_the_seat_is_asked_to_act() -> None:
    clocks = tick(start(2), at_ms=1_000, actor=-1, before=(), after=(0,))
    assert clocks.since == (1_000, NOT_TO_ACT)
    assert deadline(TURN, clocks, 0) == 31_000
    assert deadline(TURN, clocks, 1) is None, "a seat not to act has no deadline"


def test_a_command_ends_the_turn_and_the_next_seat_starts_its_own() -> None:
    clocks = tick(start(2), 1_000, -1, (), (0,))
    clocks = tick(clocks, 5_000, 0, (0,), (1,))
    assert clocks.spent == (4_000, 0)
    assert clocks.since == (NOT_TO_ACT, 5_000)
    assert deadline(TURN, clocks, 1) == 35_000


def test_the_total_is_what_is_left_after_earlier_turns() -> None:
    clocks = tick(start(2), 0, -1, (), (0,))
    clocks = tick(clocks, 4_000, 0, (0,), (1,))  # seat 0 used 4 s
    clocks = tick(clocks, 9_000, 1, (1,), (0,))  # seat 1 used 5 s; seat 0 again from 9 s
    assert clocks.spent == (4_000, 5_000)
    assert deadline(TOTAL, clocks, 0) == 9_000 + 6_000


def test_with_both_limits_the_earlier_deadline_counts() -> None:
    clocks = tick(start(1), 0, -1, (), (0,))
    assert deadline(BOTH, clocks, 0) == 5_000, "turn limit first"
    clocks = tick(clocks, 4_000, 0, (0,), (0,))
    clocks = tick(clocks, 8_000, 0, (0,), (0,))  # 8 s spent in two turns
    assert clocks.spent == (8_000,)
    assert deadline(BOTH, clocks, 0) == 8_000 + 2_000, "what is left of the total first"


def test_a_spent_total_is_due_at_once_never_in_the_past() -> None:
    clocks = Clocks(since=(50_000,), spent=(12_000,))
    assert deadline(TOTAL, clocks, 0) == 50_000


def test_each_command_of_a_seat_that_stays_to_act_starts_a_new_turn() -> None:
    """A simultaneous phase: both seats to act; seat 0 acts and stays to act, seat 1's
    turn goes on from when it began."""
    clocks = tick(start(2), 0, -1, (), (0, 1))
    clocks = tick(clocks, 3_000, 0, (0, 1), (0, 1))
    assert clocks.since == (3_000, 0)
    assert clocks.spent == (3_000, 0)
    assert deadline(TURN, clocks, 1) == 30_000


def test_a_seat_that_stops_being_to_act_without_acting_is_charged_its_time() -> None:
    clocks = tick(start(2), 0, -1, (), (0, 1))
    clocks = tick(clocks, 2_000, 1, (0, 1), ())  # seat 1's command ends the phase for both
    assert clocks.spent == (2_000, 2_000)
    assert clocks.since == (NOT_TO_ACT, NOT_TO_ACT)


def test_events_of_one_batch_share_a_time_and_charge_nothing_twice() -> None:
    clocks = tick(start(1), 0, -1, (), (0,))
    once = tick(clocks, 7_000, 0, (0,), (0,))
    again = tick(once, 7_000, 0, (0,), (0,))
    assert once == again


def test_clock_rules_of_a_turn_clock() -> None:
    clock = common_pb2.TurnClock(turn_seconds=60, total_seconds=600, on_timeout="bot")
    assert ClockRules.of(clock) == ClockRules(60_000, 600_000, "bot")
    assert ClockRules.of(common_pb2.TurnClock(on_timeout="bot")) is None
