"""The Trading Post: pay a Seed, 2 Fertilizer or 3 Water for one Trade Action."""

from __future__ import annotations

from engines.harvest import codes
from engines.harvest.content import content
from engines.harvest.events import granted, resolved, resources
from engines.harvest.rules import SEED_FIELDS, acting_step, seed_count, supply_left
from engines.harvest.state import HarvestState
from proto import harvest_pb2 as pb

__all__ = ["trade", "upgrade_seed"]


def trade(state: HarvestState, cmd: pb.Trade, seat: int) -> list[pb.Event]:
    """Trading Post Actions: "spend any 1 Seed, or 2 Fertilizer, or 3 Water to perform 1
    of the following Trade Actions". The action is performed at once, in a step of its
    own, so a second trade is paid only after the first one's action is done. A trade
    for Clear Land with no Forest left could gain nothing, and is refused."""
    step = acting_step(state, seat)
    kinds = [t.kind for t in step.tasks]
    if "trade" not in kinds:
        raise codes.TRADE_NONE()
    actions = dict(content().trade_actions)
    costs = dict(content().trade_costs)
    if cmd.action not in actions:
        raise codes.TRADE_UNKNOWN_ACTION()
    player = state.players[seat]
    if cmd.action == "clear_land" and not player.forests:
        raise codes.TRADE_NO_FOREST()
    if cmd.give == "seed":
        if cmd.seed not in SEED_FIELDS or seed_count(player, cmd.seed) < 1:
            raise codes.TRADE_NO_SEED()
        paid = resources(seat, "trade", **{cmd.seed: -1})
    elif cmd.give in costs and not cmd.seed:
        amount = costs[cmd.give]
        if getattr(player, cmd.give) < amount:
            raise codes.TRADE_CANNOT_AFFORD(amount=amount, give=cmd.give)
        paid = resources(seat, "trade", **{cmd.give: -amount})
    else:
        raise codes.TRADE_UNKNOWN_PAYMENT()
    return [
        resolved(seat, kinds.index("trade")),
        paid,
        granted(seat, f"trade:{cmd.action}", actions[cmd.action], new_step=True),
    ]


def upgrade_seed(state: HarvestState, cmd: pb.UpgradeSeed, seat: int) -> list[pb.Event]:
    """Upgrade a Seed: Wheat to Strawberry to Blueberry to Pumpkin."""
    step = acting_step(state, seat)
    kinds = [t.kind for t in step.tasks]
    if "seed_upgrade" not in kinds:
        raise codes.UPGRADE_SEED_NONE()
    if cmd.seed not in SEED_FIELDS[:-1]:
        raise codes.UPGRADE_SEED_TOP()
    if seed_count(state.players[seat], cmd.seed) < 1:
        raise codes.UPGRADE_SEED_NO_SEED()
    better = SEED_FIELDS[SEED_FIELDS.index(cmd.seed) + 1]
    if supply_left(state, better) < 1:
        raise codes.SUPPLY_EMPTY(piece=better)
    return [
        resolved(seat, kinds.index("seed_upgrade")),
        resources(seat, "upgrade_seed", **{cmd.seed: -1, better: 1}),
    ]
