"""The benchmark commands answer ``--help`` and a wrong name without running anything; the
machine figures they print beside their own."""

from __future__ import annotations

import os
import resource
import subprocess
import sys

import pytest

from benchmarks import loadtest
from benchmarks.__main__ import main as bench_main
from benchmarks.cpu import cpu_seconds, steal_ticks


def test_help_describes_the_load_test_and_starts_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as ended:
        loadtest.main(["--help"])
    assert ended.value.code == 0
    out = capsys.readouterr().out
    assert "BW_LOADTEST_RATES" in out
    assert "machine yardstick:" not in out  # nothing was measured


def test_bench_lists_its_benchmarks_and_refuses_an_unknown_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as ended:
        bench_main(["--help"])
    assert ended.value.code == 0
    assert "eventstore" in capsys.readouterr().out
    with pytest.raises(SystemExit) as refused:
        bench_main(["eventstore", "nope"])
    assert refused.value.code == 2
    captured = capsys.readouterr()
    assert "no benchmark nope" in captured.err
    assert "yardstick" not in captured.out


def test_the_host_steal_share_is_read_from_the_machine_counters() -> None:
    """What the load test prints beside each step: the eighth figure of /proc/stat's cpu
    line (steal, proc(5)), out of the first eight summed; both only grow."""

    def cpu_line() -> list[int]:
        with open("/proc/stat") as stat:
            return [int(field) for field in stat.readline().split()[1:9]]

    before = cpu_line()
    stolen, total = steal_ticks()
    after = cpu_line()
    assert before[7] <= stolen <= after[7]
    assert sum(before) <= total <= sum(after)
    assert total > 0 and stolen < total


def test_a_process_cpu_time_includes_the_children_it_waited_for() -> None:
    """Redis's append-only file rewrites run in a child: the meter must count them."""
    before_own = cpu_seconds(os.getpid())
    before_children = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", "sum(range(3 * 10**7))"], check=True)
    after_children = resource.getrusage(resource.RUSAGE_CHILDREN)
    child = (after_children.ru_utime + after_children.ru_stime) - (
        before_children.ru_utime + before_children.ru_stime
    )
    assert child > 0.2, "the child summed 30 million numbers"
    # /proc counts in clock ticks: allow one tick each for user and system time.
    assert cpu_seconds(os.getpid()) - before_own >= child - 0.02
