"""The Trading Post: pay a Seed, 2 Fertilizer or 3 Water for one Trade Action."""

from __future__ import annotations

from functools import cache

from engines.core.errors import RuleViolation
from engines.harvest import codes
from engines.harvest.content import content
from engines.harvest.events import granted, resolved, resources
from engines.harvest.rules import SEED_FIELDS, acting_step, seed_count, supply_left
from engines.harvest.state import HarvestState, Player
from proto import harvest_pb2 as pb

__all__ = ["seed_upgrade_refusal", "trade", "trade_refusal", "upgrade_seed"]


def trade(state: HarvestState, cmd: pb.Trade, seat: int) -> list[pb.Event]:
    """Trading Post Actions: "spend any 1 Seed, or 2 Fertilizer, or 3 Water to perform 1
    of the following Trade Actions". The action is performed at once, in a step of its
    own, so a second trade is paid only after the first one's action is done. A trade
    for Clear Land with no Forest left could gain nothing, and is refused."""
    step = acting_step(state, seat)
    kinds = [t.kind for t in step.tasks]
    if "trade" not in kinds:
        raise codes.TRADE_NONE()
    refused = trade_refusal(state.players[seat], cmd)
    if refused is not None:
        raise refused
    given = (
        {cmd.seed: 1} if cmd.give == "seed" else {cmd.give: dict(content().trade_costs)[cmd.give]}
    )
    return [
        resolved(seat, kinds.index("trade")),
        resources(seat, "trade", **{good: -n for good, n in given.items()}),
        granted(
            seat, f"trade:{cmd.action}", dict(content().trade_actions)[cmd.action], new_step=True
        ),
    ]


@cache
def _trade_costs() -> dict[str, int]:
    return dict(content().trade_costs)


@cache
def _trade_actions() -> frozenset[str]:
    return frozenset(action for action, _ in content().trade_actions)


def trade_refusal(player: Player, cmd: pb.Trade) -> RuleViolation | None:
    """Why the player cannot make this trade (``None``: it can): the action must be one
    of the three (Clear Land only with a Forest left), and the player must hold what it
    gives (a Seed, 2 Fertilizer or 3 Water)."""
    costs = _trade_costs()
    if cmd.action not in _trade_actions():
        return codes.TRADE_UNKNOWN_ACTION()
    if cmd.action == "clear_land" and not player.forests:
        return codes.TRADE_NO_FOREST()
    if cmd.give == "seed":
        if cmd.seed not in SEED_FIELDS or seed_count(player, cmd.seed) < 1:
            return codes.TRADE_NO_SEED()
        return None
    if cmd.give not in costs or cmd.seed:
        return codes.TRADE_UNKNOWN_PAYMENT()
    if getattr(player, cmd.give) < costs[cmd.give]:
        return codes.TRADE_CANNOT_AFFORD(amount=costs[cmd.give], give=cmd.give)
    return None


def upgrade_seed(state: HarvestState, cmd: pb.UpgradeSeed, seat: int) -> list[pb.Event]:
    """Upgrade a Seed: Wheat to Strawberry to Blueberry to Pumpkin."""
    step = acting_step(state, seat)
    kinds = [t.kind for t in step.tasks]
    if "seed_upgrade" not in kinds:
        raise codes.UPGRADE_SEED_NONE()
    refused = seed_upgrade_refusal(state, seat, cmd.seed)
    if refused is not None:
        raise refused
    better = SEED_FIELDS[SEED_FIELDS.index(cmd.seed) + 1]
    return [
        resolved(seat, kinds.index("seed_upgrade")),
        resources(seat, "upgrade_seed", **{cmd.seed: -1, better: 1}),
    ]


def seed_upgrade_refusal(state: HarvestState, seat: int, seed: str) -> RuleViolation | None:
    """Why this Seed cannot be upgraded (``None``: it can): Pumpkins are the top, the
    player must hold the Seed, and the Supply must hold the next one."""
    if seed not in SEED_FIELDS[:-1]:
        return codes.UPGRADE_SEED_TOP()
    if seed_count(state.players[seat], seed) < 1:
        return codes.UPGRADE_SEED_NO_SEED()
    better = SEED_FIELDS[SEED_FIELDS.index(seed) + 1]
    if supply_left(state, better) < 1:
        return codes.SUPPLY_EMPTY(piece=better)
    return None
