"""Events and VP Crystals: where green VP come from, and what running out of them does.

"When you gain VP crystals, you take them from the Act I (left) pool. Once all VP
crystals are gone from the left pool: any remaining VP crystals (if needed) are
immediately taken from the right pool and the end of Act I is triggered." Once the right
pool is empty too, crystals come from the reserve and the end of the game is triggered:
the current player takes 1 more as a bonus, and every other player takes a final turn.
"""

from __future__ import annotations

from engines.bardwood.batch import Batch
from engines.bardwood.content import content

__all__ = ["take_crystals", "trigger_end"]


def take_crystals(batch: Batch, seat: int, amount: int, reason: str) -> None:
    """``seat`` gains ``amount`` green VP crystals, pool by pool."""
    if amount <= 0:
        return
    before = batch.state
    act1 = min(amount, before.act1_pool)
    act2 = min(amount - act1, before.act2_pool)
    reserve = amount - act1 - act2
    batch.add("crystals_taken", seat=seat, reason=reason, act1=act1, act2=act2, reserve=reserve)
    if act1 and batch.state.act1_pool == 0 and before.act == 1 and not before.act_ending:
        batch.add("act_end_triggered", act=1)
    if (act2 or reserve) and batch.state.act2_pool == 0 and not before.end_triggered:
        trigger_end(batch)


def trigger_end(batch: Batch) -> None:
    """End Game Trigger: the current player's bonus, then a final turn for each other
    player in turn order. The current player still Sings this turn (the swan song) if
    its Singing phase has not come yet."""
    state = batch.state
    current = state.turn.seat
    finals = [(current + step) % state.seats for step in range(1, state.seats)]
    batch.add(
        "game_end_triggered",
        seat=current,
        final_seats=finals,
        swan_song=state.phase == "compose",
    )
    batch.add("crystals_taken", seat=current, reason="end_bonus", reserve=content().end_bonus)
