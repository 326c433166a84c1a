"""How every long-running process learns it should stop: SIGTERM (an orchestrator) or
SIGINT (Ctrl-C) sets one event that its loops watch, so each finishes what it holds; and
how a background task is stopped for sure (:func:`cancel_and_wait`)."""

from __future__ import annotations

import asyncio
import signal
from typing import Any

__all__ = ["cancel_and_wait", "stop_on_signals"]

# How long a cancelled task has to end before it is cancelled again.
_CANCEL_AGAIN_S = 0.05


def stop_on_signals() -> asyncio.Event:
    """An event set by SIGTERM or SIGINT (call from inside the running loop)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    return stop


async def cancel_and_wait(task: asyncio.Task[Any]) -> None:
    """Cancel ``task`` and return once it has ended, cancelling it again while it runs on;
    an exception it ended with, other than its cancellation, is raised here.

    One cancellation can be lost on CPython 3.11: ``asyncio.wait_for`` returns the result
    of what it awaited when its task is cancelled just as that finished (bpo-42130, changed
    in 3.12), and redis-py sends every command through it on a client with a
    ``socket_timeout``. A task that loops on blocking reads would then read on for ever, and
    whoever awaited it once would wait for ever."""
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=_CANCEL_AGAIN_S)
    if not task.cancelled():
        task.result()
