"""The load test's line on Redis standing still, from its latency history
(benchmarks/redis_stalls.py)."""

from __future__ import annotations

from benchmarks.redis_stalls import stalls_line


def test_only_the_seconds_of_the_step_count_the_first_and_last_whole() -> None:
    history = [(99, 40), (100, 3), (101, 7), (103, 2), (106, 90)]
    assert stalls_line(history, since=100.6, until=105.2) == (
        "in 3 of 6 seconds, worst a second: median 3 ms, worst 7 ms"
    )


def test_a_step_without_a_stall_says_so() -> None:
    assert stalls_line([(50, 12)], since=100.0, until=120.0) == "none >= 1 ms"
