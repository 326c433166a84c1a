"""Every service settles its heap once started (``services.heap``): the start-up heap is
frozen out of the collector's passes and the young generation is collected less often,
yet garbage cycles made later are still collected without anyone asking.

Each check runs in a child interpreter, so this test process keeps CPython's defaults.
"""

from __future__ import annotations

import subprocess
import sys

from services.heap import YOUNG_THRESHOLD


def _run(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    return done.stdout.strip()


def test_a_settled_heap_is_frozen_and_collected_less_often() -> None:
    out = _run(
        "import gc; import gateway.app; from services.heap import settle_heap;"
        " settle_heap(); print(gc.get_freeze_count(), gc.get_threshold()[0])"
    )
    frozen, young = (int(n) for n in out.split())
    assert frozen > 10_000  # the gateway's modules and their objects
    assert young == YOUNG_THRESHOLD


def test_a_cycle_dropped_after_settling_is_collected_by_the_young_pass() -> None:
    out = _run(
        "import weakref; from services.heap import settle_heap, YOUNG_THRESHOLD\n"
        "settle_heap()\n"
        "class Node: pass\n"
        "a, b = Node(), Node(); a.other, b.other = b, a\n"
        "gone = weakref.ref(a); del a, b\n"
        "kept = [[] for _ in range(YOUNG_THRESHOLD + 1000)]\n"
        "print(gone() is None)"
    )
    assert out == "True"


def test_a_cycle_dropped_is_kept_until_the_young_pass_runs() -> None:
    """The check above is not vacuous: with fewer allocations the cycle is still there."""
    out = _run(
        "import weakref; from services.heap import settle_heap\n"
        "settle_heap()\n"
        "class Node: pass\n"
        "a, b = Node(), Node(); a.other, b.other = b, a\n"
        "gone = weakref.ref(a); del a, b\n"
        "kept = [[] for _ in range(1000)]\n"
        "print(gone() is None)"
    )
    assert out == "False"
