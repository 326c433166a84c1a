"""Garbage collection tuned for a long-running service.

CPython's cycle collector runs a young-generation pass every 700 net container
allocations, an older one every tenth of those, and a full pass over the whole heap now
and then. A service allocates a few hundred containers a request (frames, dicts,
coroutines, protocol messages) that nearly all die young by reference counting, so the
default passes mostly re-traverse objects that are still alive: under the open-loop load
test at 250 commands/s, the gateway spent 1.7 s of CPU in collections in one 15-second
step (a quarter of its CPU; full passes up to 135 ms each, every request waiting), the
engine service 0.4 s. With the young generation collected every 50,000 allocations and
the start-up heap frozen, 0.12 s and 0.06 s (README › Benchmarks).

*Net* allocations, though: an object freed counts one off, whatever its generation. A
table's state is replaced on each of its commands, so the old state freed pays for the
new one, and under steady load the count barely grows while the young generation fills
with every state made since the last pass. At 500 commands/s over 3,000 tables a young
pass came every 10-20 s and walked everything made meanwhile: 14-35 ms in the engine,
25-45 ms in the projector, 8-21 ms in the gateway, each a pause in which every request
of that process waited, and each the worst second of its step (the reads' worst second
was the projector's pass in 27 runs of 40). So the engine, the projector, the notifier
and the scheduler also collect on a clock (:func:`collect_on_schedule`, once a second): a
pass then walks one second's objects, 2-4 ms of CPU, and the CPU spent collecting stays
what it was. Not the two that answer clients (the gateway, the Discord bot): they hold no
table's state, and their young generation is their requests in flight, which a clock
would walk every second (in the gateway, 50-70 ms of CPU a second with 1,000 requests in
flight in the closed-loop benchmark).

Cycles are still collected: the middle generation every 20 young passes, and while the
clock runs every ``MIDDLE_EVERY_ON_CLOCK`` of its passes (five minutes, as often as before
the clock under load); the oldest every tenth of those. Memory held only by garbage
cycles stays bounded.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Awaitable
from typing import TypeVar

from services.shutdown import cancel_and_wait

__all__ = [
    "COLLECT_EVERY_S",
    "MIDDLE_EVERY",
    "MIDDLE_EVERY_ON_CLOCK",
    "YOUNG_THRESHOLD",
    "collect_due",
    "collect_on_schedule",
    "collecting",
    "settle_heap",
]

T = TypeVar("T")

# Net container allocations between young-generation passes (CPython's default: 700).
YOUNG_THRESHOLD = 50_000
# Young passes between passes over the middle generation (CPython's default: 10).
MIDDLE_EVERY = 20
# The same while the clock runs a young pass a second: five minutes.
MIDDLE_EVERY_ON_CLOCK = 300
# Passes over the middle generation between full passes (CPython's default).
FULL_EVERY = 10
# Seconds between the passes a service runs on its own clock.
COLLECT_EVERY_S = 1.0


def settle_heap() -> None:
    """Call once a service has started, before it serves: the heap built so far (modules,
    content, the app) leaves the collector's generations for good, so no later pass
    traverses it, and the young generation is collected every ``YOUNG_THRESHOLD``
    allocations (and every second where :func:`collect_on_schedule` runs)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, MIDDLE_EVERY, FULL_EVERY)


def collect_due() -> int:
    """Run the pass CPython's own rule picks next, the young one at least: the oldest
    generation whose count of passes since its last one passed its threshold. Returns
    the generation collected."""
    counts, thresholds = gc.get_count(), gc.get_threshold()
    generation = next((g for g in (2, 1) if counts[g] > thresholds[g]), 0)
    gc.collect(generation)
    return generation


async def collect_on_schedule(every_s: float = COLLECT_EVERY_S) -> None:
    """Run :func:`collect_due` every ``every_s`` seconds, on the event loop's thread (so
    that finalizers run where the objects they touch live), until cancelled. Meanwhile the
    middle generation waits for ``MIDDLE_EVERY_ON_CLOCK`` of these passes: at 20 it would
    be walked every 20 s, and it holds every table state made since its last pass."""
    young, middle, full = gc.get_threshold()
    gc.set_threshold(young, MIDDLE_EVERY_ON_CLOCK, full)
    try:
        while True:
            await asyncio.sleep(every_s)
            collect_due()
    finally:
        gc.set_threshold(young, middle, full)


async def collecting(main: Awaitable[T], every_s: float = COLLECT_EVERY_S) -> T:
    """Await ``main`` with :func:`collect_on_schedule` running beside it: how the entry
    points of the services that serve the event feeds run their main coroutines."""
    collector = asyncio.create_task(collect_on_schedule(every_s), name="collect_on_schedule")
    try:
        return await main
    finally:
        await cancel_and_wait(collector)
