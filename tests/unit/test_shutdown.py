"""Stopping a background task for sure (:func:`services.shutdown.cancel_and_wait`)."""

from __future__ import annotations

import asyncio

import pytest

from services.shutdown import cancel_and_wait

pytestmark = pytest.mark.anyio


async def test_a_task_that_lost_one_cancellation_is_cancelled_again_until_it_ends() -> None:
    lost = asyncio.Event()

    async def reads_on() -> None:
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            lost.set()  # as asyncio.wait_for loses it on CPython 3.11
        await asyncio.sleep(3600)

    task = asyncio.create_task(reads_on())
    await asyncio.sleep(0)
    # Bounded: a single cancellation would leave the task, and this test, waiting an hour.
    await asyncio.wait_for(cancel_and_wait(task), 10)
    assert lost.is_set()
    assert task.cancelled()


async def test_the_exception_a_task_ended_with_is_raised_and_a_finished_one_left_alone() -> None:
    async def fails() -> None:
        raise LookupError("gone")

    failing = asyncio.create_task(fails())
    await asyncio.sleep(0)
    with pytest.raises(LookupError, match="gone"):
        await cancel_and_wait(failing)

    finished = asyncio.create_task(asyncio.sleep(0, result=7))
    await finished
    await cancel_and_wait(finished)
    assert finished.result() == 7
