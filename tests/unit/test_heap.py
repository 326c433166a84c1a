"""Every service settles its heap once started (``services.heap``): the start-up heap is
frozen out of the collector's passes and the young generation is collected less often,
yet garbage cycles made later are still collected without anyone asking.

Each check runs in a child interpreter, so this test process keeps CPython's defaults.
"""

from __future__ import annotations

import subprocess
import sys

from services.heap import MIDDLE_EVERY, MIDDLE_EVERY_ON_CLOCK, YOUNG_THRESHOLD


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


def test_the_pass_due_is_the_young_one_until_an_older_one_passes_its_threshold() -> None:
    """``collect_due`` follows CPython's own rule: after more young passes than the middle
    generation's threshold, the middle one; after more of those than the oldest's, a
    full pass."""
    out = _run(
        "import gc; from services.heap import collect_due\n"
        "gc.collect(); gc.set_threshold(50_000, 1, 1)\n"
        "before = [s['collections'] for s in gc.get_stats()]\n"
        "picked = [collect_due() for _ in range(7)]\n"
        "after = [s['collections'] for s in gc.get_stats()]\n"
        "print(picked, [a - b for a, b in zip(after, before)])"
    )
    assert out == "[0, 0, 1, 0, 0, 1, 2] [4, 2, 1]"


def test_a_settled_service_collects_a_dropped_cycle_on_its_clock() -> None:
    """Too few allocations for the young pass CPython triggers (see above), yet the cycle
    goes: ``collecting`` runs the passes on a clock beside the service's main coroutine,
    and stops them when it returns."""
    out = _run(
        "import asyncio, gc, weakref; from services.heap import collecting, settle_heap\n"
        "settle_heap()\n"
        "class Node: pass\n"
        "async def serve():\n"
        "    a, b = Node(), Node(); a.other, b.other = b, a\n"
        "    gone = weakref.ref(a); del a, b\n"
        "    await asyncio.sleep(0.5)\n"
        "    return gone() is None, gc.get_threshold()[1]\n"
        "async def main():\n"
        "    collected, middle = await collecting(serve(), every_s=0.05)\n"
        "    return collected, middle, gc.get_threshold()[1], len(asyncio.all_tasks())\n"
        "print(*asyncio.run(main()))"
    )
    # Collected; the middle generation waited for MIDDLE_EVERY_ON_CLOCK clock passes
    # meanwhile, and for MIDDLE_EVERY again after; only ``main`` itself still running.
    assert out == f"True {MIDDLE_EVERY_ON_CLOCK} {MIDDLE_EVERY} 1"
