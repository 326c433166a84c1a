"""Every command kind with the rule that decides it and the commands ``legal_commands``
lists: the table the kit's ``decide`` dispatches on. Each list is exactly what its rule
accepts (``exact``: see ``legal.py``)."""

from __future__ import annotations

from engines.core.game import Move
from engines.harvest import legal
from engines.harvest.actions import move_piece, place_worker, reuse_space
from engines.harvest.benefits import reroll_die, take_benefit
from engines.harvest.buildings import repeat_building
from engines.harvest.events import step_finished
from engines.harvest.fields import field_action, plant_seed, tend_crop
from engines.harvest.setup import draft_pick, keep_start
from engines.harvest.state import HarvestState
from engines.harvest.store import purchase
from engines.harvest.sunrise import choose_sunrise
from engines.harvest.trading import trade, upgrade_seed
from engines.harvest.workshop import build, clear_land, upgrade_bucket
from proto import harvest_pb2 as pb

__all__ = ["MOVES", "finish"]


def finish(state: HarvestState, cmd: pb.Finish, seat: int) -> list[pb.Event]:
    """End what is being resolved (a sub-action, a space's actions, a turn), giving up
    the optional benefits left; or pass on Jaime's move."""
    return [step_finished(seat)]


MOVES: dict[str, Move[HarvestState]] = {
    "keep_start": Move(keep_start, legal.keep_starts, exact=True),
    "draft_pick": Move(draft_pick, legal.draft_picks, exact=True),
    "choose_sunrise": Move(choose_sunrise, legal.choose_sunrises, exact=True),
    "place_worker": Move(place_worker, legal.place_workers, exact=True),
    "move_piece": Move(move_piece, legal.move_pieces, exact=True),
    "take_benefit": Move(take_benefit, legal.take_benefits, draws=True, exact=True),
    "reroll_die": Move(reroll_die, legal.rerolls, draws=True, exact=True),
    "purchase": Move(purchase, legal.purchases, exact=True),
    "field_action": Move(field_action, legal.field_actions, exact=True),
    "plant_seed": Move(plant_seed, legal.plant_seeds, exact=True),
    "tend_crop": Move(tend_crop, legal.tend_crops, exact=True),
    "upgrade_bucket": Move(upgrade_bucket, legal.upgrade_buckets, exact=True),
    "clear_land": Move(clear_land, legal.clear_lands, draws=True, exact=True),
    "build": Move(build, legal.builds, exact=True),
    "trade": Move(trade, legal.trades, exact=True),
    "upgrade_seed": Move(upgrade_seed, legal.upgrade_seeds, exact=True),
    "reuse_space": Move(reuse_space, legal.reuse_spaces, exact=True),
    "repeat_building": Move(repeat_building, legal.repeat_buildings, exact=True),
    "finish": Move(finish, legal.finishes, exact=True),
}
