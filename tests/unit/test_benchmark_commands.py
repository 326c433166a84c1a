"""The benchmark commands answer ``--help`` and a wrong name without running anything; the
machine figures they print beside their own."""

from __future__ import annotations

import pytest

from benchmarks import loadtest
from benchmarks.__main__ import main as bench_main
from benchmarks.cpu import steal_ticks


def test_help_describes_the_load_test_and_starts_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as ended:
        loadtest.main(["--help"])
    assert ended.value.code == 0
    out = capsys.readouterr().out
    assert "BW_LOADTEST_RATES" in out
    assert "yardstick" not in out  # nothing was measured


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
    """What the load test prints beside each step: stolen ticks are part of the total and
    both only grow."""
    stolen, total = steal_ticks()
    assert 0 <= stolen <= total
    assert total > 0, "/proc/stat has a cpu line on Linux"
    later_stolen, later_total = steal_ticks()
    assert later_stolen >= stolen and later_total >= total
