"""``legal_commands``: every command ``decide`` accepts now, listed.

Candidates are generated from the situation and each is checked by the very rule
``decide`` runs, so the list and ``decide`` cannot disagree. Payments are checked once
per candidate and then widened to every way of paying (River the Fox).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from engines.core.errors import RuleViolation
from engines.core.rng import Rng
from engines.harvest.benefits import is_simple, options_for
from engines.harvest.buildings import repeatable
from engines.harvest.content import content
from engines.harvest.decide import apply_rule, to_act
from engines.harvest.events import cell_numbers
from engines.harvest.fields import FIELD_KINDS, planting_spots, tending_spots
from engines.harvest.rules import (
    SEED_FIELDS,
    is_open,
    payments,
    space_cost,
    spaces_in_play,
    supply_left,
)
from engines.harvest.setup import draft_order
from engines.harvest.stages import stage_of
from engines.harvest.state import HarvestState, Player, Step
from engines.harvest.store import ITEMS, item_price
from engines.harvest.workshop import build_cost, build_sites
from proto import harvest_pb2 as pb

__all__ = ["legal_commands"]


def _cmd(**kind: object) -> pb.Command:
    return pb.Command(**kind)  # type: ignore[arg-type]


def _costed(player: Player, cost: int) -> list[pb.Payment]:
    return payments(player, cost)


def _start(state: HarvestState, seat: int) -> Iterator[pb.Command]:
    player = state.players[seat]
    for character in player.dealt_characters:
        for farmhouse in player.dealt_farmhouses:
            yield _cmd(keep_start=pb.KeepStart(character=character, farmhouse=farmhouse))


def _draft(state: HarvestState) -> Iterator[pb.Command]:
    for character in state.draft_characters:
        yield _cmd(draft_pick=pb.DraftPick(character=character))
    for farmhouse in state.draft_farmhouses:
        yield _cmd(draft_pick=pb.DraftPick(farmhouse=farmhouse))


def _places(state: HarvestState, seat: int) -> Iterator[pb.Command]:
    player = state.players[seat]
    for space in spaces_in_play(state):
        if is_open(state, space):
            for payment in _costed(player, space_cost(state, space)):
                yield _cmd(place_worker=pb.PlaceWorker(space=space.id, payment=payment))


def _moves(state: HarvestState, seat: int) -> Iterator[pb.Command]:
    player = state.players[seat]
    for origin, owner in state.placements:
        if owner != seat:
            continue
        for space in spaces_in_play(state):
            if space.id != origin and is_open(state, space):
                for payment in _costed(player, space_cost(state, space)):
                    yield _cmd(
                        move_piece=pb.MovePiece(
                            from_space=origin, to_space=space.id, payment=payment
                        )
                    )
    yield _cmd(finish=pb.Finish())


def _tends(state: HarvestState, player: Player, crops: tuple[str, ...]) -> Iterator[pb.Command]:
    for crop in crops:
        for spot in tending_spots(player, crop):
            yield _cmd(tend_crop=pb.TendCrop(crop=crop, cells=cell_numbers(spot)))


def _plants(player: Player) -> Iterator[pb.Command]:
    for seed in SEED_FIELDS:
        if player.seeds[SEED_FIELDS.index(seed)] > 0:
            for spot in planting_spots(player, seed):
                yield _cmd(plant_seed=pb.PlantSeed(seed=seed, cells=cell_numbers(spot)))


def _workshop(state: HarvestState, player: Player, kind: str) -> Iterator[pb.Command]:
    upgrade = content().price("upgrade_bucket") if kind == "workshop" else 0
    clear = content().price("clear_land") if kind == "workshop" else 0
    if kind in ("workshop", "rose"):
        for payment in _costed(player, upgrade):
            yield _cmd(upgrade_bucket=pb.UpgradeBucket(payment=payment))
    if kind in ("workshop", "rose", "clear_land", "clear_land_no_die"):
        for forest in player.forests:
            for payment in _costed(player, clear):
                number = content().grid.index(forest)
                yield _cmd(clear_land=pb.ClearLand(forest=number, payment=payment))
    if kind in ("workshop", "rose", "build"):
        sites = build_sites(player)
        for slot, building in enumerate(state.workshop):
            if not building:
                continue
            for payment in _costed(player, build_cost(state, player, slot)):
                for site in sites:
                    cell = content().grid.index(site)
                    yield _cmd(build=pb.Build(slot=slot, cell=cell, payment=payment))


def _task_commands(state: HarvestState, seat: int, step: Step) -> Iterator[pb.Command]:
    player = state.players[seat]
    kinds = {t.kind for t in step.tasks}
    for index, task in enumerate(step.tasks):
        if is_simple(task):
            for option in options_for(task):
                yield _cmd(take_benefit=pb.TakeBenefit(task=index, option=option))
        if task.kind.startswith("die:") and player.rerolls > 0:
            yield _cmd(reroll_die=pb.RerollDie(task=index))
    if "purchase" in kinds:
        for item in ITEMS:
            for payment in _costed(player, item_price(item)):
                yield _cmd(purchase=pb.Purchase(item=item, payment=payment))
    if "field" in kinds:
        for field_kind in FIELD_KINDS:
            yield _cmd(field_action=pb.FieldAction(kind=field_kind))
    for kind in ("workshop", "rose", "build", "clear_land", "clear_land_no_die"):
        if kind in kinds:
            yield from _workshop(state, player, kind)
    if "trade" in kinds:
        c = content()
        gives = [("seed", s) for s in SEED_FIELDS] + [(g, "") for g, _ in c.trade_costs]
        for give, seed in gives:
            for action, _ in c.trade_actions:
                yield _cmd(trade=pb.Trade(give=give, seed=seed, action=action))
    if "seed_upgrade" in kinds:
        for seed in SEED_FIELDS[:-1]:
            yield _cmd(upgrade_seed=pb.UpgradeSeed(seed=seed))
    if kinds & {"two_space", "repeat_space"}:
        for space in spaces_in_play(state):
            for payment in _costed(player, space_cost(state, space)):
                yield _cmd(reuse_space=pb.ReuseSpace(space=space.id, payment=payment))
    if "repeat_built" in kinds:
        for building in repeatable(player):
            yield _cmd(repeat_building=pb.RepeatBuilding(building=building))
    if "plant_free" in kinds:
        yield from _plants(player)
    if "tend_free" in kinds:
        yield from _tends(state, player, SEED_FIELDS)
    yield _cmd(finish=pb.Finish())


def _step_commands(state: HarvestState, seat: int, step: Step) -> Iterator[pb.Command]:
    player = state.players[seat]
    if step.owed:
        spots = tending_spots(player, step.owed) if supply_left(state, step.owed) > 0 else ()
        if not spots:
            yield _cmd(tend_crop=pb.TendCrop(crop=step.owed))
        yield from _tends(state, player, (step.owed,))
        return
    if step.mode == "plant":
        yield from _plants(player)
        yield _cmd(finish=pb.Finish())
        return
    if step.mode == "tend":
        yield from _tends(state, player, SEED_FIELDS)
        yield _cmd(finish=pb.Finish())
        return
    yield from _task_commands(state, seat, step)


def _sunrise_choices(state: HarvestState, seat: int) -> Iterator[pb.Command]:
    for tile in state.display:
        yield _cmd(choose_sunrise=pb.ChooseSunrise(tile=tile))


def _top_step(state: HarvestState, seat: int) -> Iterator[pb.Command]:
    return _step_commands(state, seat, state.steps[-1])


def _nothing(state: HarvestState, seat: int) -> Iterator[pb.Command]:
    return iter(())


# One generator per stage of ``stages.STAGES``; each yields candidates only of the
# command kinds that stage accepts.
GENERATORS: dict[str, Callable[[HarvestState, int], Iterator[pb.Command]]] = {
    "choose_start": _start,
    "draft": lambda state, seat: _draft(state),
    "choose_sunrise": _sunrise_choices,
    "place": _places,
    "move": _moves,
    "plant": _top_step,
    "tend": _top_step,
    "owed": _top_step,
    "step": _top_step,
    "waiting": _nothing,
    "finished": _nothing,
}


def _candidates(state: HarvestState, seat: int) -> Iterator[pb.Command]:
    return GENERATORS[stage_of(state)](state, seat)


def legal_commands(state: HarvestState, seat: int) -> list[pb.Command]:
    """Every command ``decide`` would accept from ``seat`` now, without duplicates."""
    if state.phase == "finished" or seat not in to_act(state):
        return []
    if state.phase == "draft" and draft_order(state)[state.draft_picks] != seat:
        return []
    found: dict[bytes, pb.Command] = {}
    probe = Rng(b"legal-commands-probe", "harvest", 0)
    for command in _candidates(state, seat):
        key = command.SerializeToString(deterministic=True)
        if key in found:
            continue
        try:
            apply_rule(state, command, seat, probe)
        except RuleViolation:
            continue
        found[key] = command
    return list(found.values())
