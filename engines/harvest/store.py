"""The General Store: Fertilizer (free), fill the Bucket (1 Coin), Seeds (0/1/2/3)."""

from __future__ import annotations

from engines.core.errors import RuleViolation
from engines.harvest import codes
from engines.harvest.content import content
from engines.harvest.events import resolved
from engines.harvest.evolve import evolve
from engines.harvest.rules import (
    acting_step,
    fertilizer_track,
    gain,
    pay,
    payment_of,
    supply_left,
    water_track,
)
from engines.harvest.state import HarvestState
from proto import harvest_pb2 as pb

__all__ = ["ITEMS", "item_price", "purchase", "purchase_refusal"]

ITEMS = ("fertilizer", "fill_bucket", "wheat", "strawberry", "blueberry", "pumpkin")


def item_price(item: str) -> int:
    """The General Store's prices."""
    if item in content().seeds:
        return content().crop(item).price
    return content().price(item)


def purchase_refusal(state: HarvestState, seat: int, item: str) -> RuleViolation | None:
    """Why the item cannot be bought (``None``: it can): the Store sells it, and buying
    gains something (room on the Fertilizer track or in the Bucket, a tile in the Supply)."""
    if item not in ITEMS:
        return codes.PURCHASE_UNKNOWN()
    player = state.players[seat]
    if item == "fertilizer":
        full = fertilizer_track().room(player.fertilizer) <= 0
        return codes.PURCHASE_FERTILIZER_FULL() if full else None
    if item == "fill_bucket":
        full = water_track(player).room(player.water) <= 0
        return codes.PURCHASE_BUCKET_FULL() if full else None
    # Every other item is a Seed.
    if supply_left(state, item) < 1:
        return codes.SUPPLY_EMPTY(piece=item)
    return None


def purchase(state: HarvestState, cmd: pb.Purchase, seat: int) -> list[pb.Event]:
    """The General Store: one purchase per point of the space's value."""
    step = acting_step(state, seat)
    kinds = [t.kind for t in step.tasks]
    if "purchase" not in kinds:
        raise codes.PURCHASE_NONE()
    refused = purchase_refusal(state, seat, cmd.item)
    if refused is not None:
        raise refused
    paid = pay(state, seat, item_price(cmd.item), payment_of(cmd), "general_store")
    kind = cmd.item if cmd.item in ("fertilizer", "fill_bucket") else f"seed:{cmd.item}"
    # River may pay for the fill with Water, so the fill is measured after paying (no
    # other gain depends on it: Fertilizer had room before, and Seeds are not paid).
    after = state
    if cmd.item == "fill_bucket":
        for event in paid:
            after = evolve(after, event)
    return [
        resolved(seat, kinds.index("purchase")),
        *paid,
        *gain(after, seat, kind, 1, "general_store"),
    ]
