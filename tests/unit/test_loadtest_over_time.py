"""The open-loop load test tells a burst from a slow stack (benchmarks/loadtest.py)."""

from __future__ import annotations

from benchmarks.loadtest import over_time


def test_a_burst_shows_in_one_second_of_several() -> None:
    """The slowest 1% all in second 0: one second holds them, the typical second's p99
    is the fast one, the worst second is named."""
    times = [0.1, 0.5, 1.2, 2.5]
    latencies = [0.010, 0.200, 0.010, 0.010]
    assert over_time(times, latencies) == (
        "slowest 1% in 1 of 3 seconds; p99 a second: median 10.0 ms, worst 200.0 ms (second 0)"
    )


def test_slow_all_along_shows_in_every_second() -> None:
    times = [n / 10 for n in range(30)]
    latencies = [0.050] * 30
    assert over_time(times, latencies).startswith("slowest 1% in 3 of 3 seconds")


def test_no_samples() -> None:
    assert over_time([], []) == "no samples"
