"""``evolve``: one recorder per event, each writing its fact into the state.

Recorders never draw, never check a rule and never decide what happens next: the rule
that produced the event did that in ``decide``. ``RECORDERS`` is checked against the
``Event`` oneof when the engine is built (an event without a recorder stops the import).
"""

from __future__ import annotations

from dataclasses import fields
from functools import cache

from engines.core.recorders import Recorders, changed, unchanged
from engines.harvest.content import content
from engines.harvest.events import cells_of
from engines.harvest.rules import phase_order
from engines.harvest.state import Built, Crop, FinalScore, HarvestState, Player, Step, Task
from proto import harvest_pb2 as pb

__all__ = ["COUNTED", "RECORDERS", "evolve"]

# Tasks resolved one at a time (each use takes one off ``amount``); every other task
# is a gain taken all at once.
COUNTED = frozenset(
    {
        "purchase",
        "field",
        "workshop",
        "trade",
        "roll_die",
        "seed_upgrade",
        "build",
        "clear_land",
        "clear_land_no_die",
        "two_space",
        "repeat_space",
        "repeat_built",
        "plant_free",
        "tend_free",
        "rose",
    }
)


RECORDERS: Recorders[HarvestState] = Recorders(pb.Event)

# A blank step, copied by ``replace`` (faster than the frozen dataclass's __init__).
_STEP = Step(seat=-1, source="")


@cache
def _task(kind: str, amount: int) -> Task:
    # Tasks are few and immutable: one instance of each is shared.
    return Task(kind, amount)


ORDERED_PHASES = ("actions", "jaime", "game_end")
PHASE_AWAITS = {"sunrise": "choose", "actions": "place", "jaime": "move"}


def _player(state: HarvestState, seat: int, **changes: object) -> HarvestState:
    return _seat(state, seat, changed(state.players[seat], **changes))


def _seat(state: HarvestState, seat: int, player: Player, **changes: object) -> HarvestState:
    """The state with ``player`` in ``seat`` and the other ``changes``, in one copy."""
    players = (*state.players[:seat], player, *state.players[seat + 1 :])
    return changed(state, players=players, **changes)


def _top_tasks(state: HarvestState, tasks: tuple[Task, ...], **changes: object) -> HarvestState:
    """The top step with these tasks (and their kinds) and the other ``changes``."""
    kinds = frozenset([t.kind for t in tasks])
    top = changed(state.steps[-1], tasks=tasks, kinds=kinds, **changes)
    return changed(state, steps=(*state.steps[:-1], top))


def _top(state: HarvestState, **changes: object) -> HarvestState:
    top = changed(state.steps[-1], **changes)
    return changed(state, steps=(*state.steps[:-1], top))


@RECORDERS.on("game_set_up")
def game_set_up(state: HarvestState, e: pb.GameSetUp) -> HarvestState:
    c = content()
    players = tuple(
        Player(
            dealt_characters=tuple(d.characters),
            dealt_farmhouses=tuple(d.farmhouses),
            sunrise=d.sunrise,
            coins=c.start_coins,
            water=c.start_water,
            bucket=c.start_bucket,
            fertilizer=c.start_fertilizer,
            seeds=c.start_seeds,
            forests=tuple(sorted(c.grid.cell(n) for n in d.forests)),
            pieces=c.pieces,
        )
        for d in e.deals
    )
    workshop = tuple(e.workshop)
    return changed(
        state,
        seats=e.seats,
        draft=e.draft,
        first_game=e.first_game,
        challenge=e.challenge,
        phase="draft" if e.draft else "choose_start",
        players=players,
        workshop=workshop,
        revealed_buildings=frozenset(b for b in workshop if b),
        market_large=e.market_large,
        market_small=e.market_small,
        market_seen=frozenset(t for t in (e.market_large, e.market_small) if t),
        market_left=c.market_stack - 1,
        gairy_tiles_per_turn=e.gairy_tiles_per_turn,
        gairy_pieces=c.pieces * e.gairy_tiles_per_turn,
        draft_characters=tuple(e.draft_characters),
        draft_farmhouses=tuple(e.draft_farmhouses),
        order=tuple(sorted(range(e.seats), key=lambda s: players[s].sunrise)),
    )


@RECORDERS.on("turn_began")
def turn_began(state: HarvestState, e: pb.TurnBegan) -> HarvestState:
    phase, seat = e.phase, e.seat
    changes: dict[str, object] = {}
    order, position = state.order, state.position
    if phase != state.phase:
        order = phase_order(state, phase) if phase in ORDERED_PHASES else state.order
        position = -1
        changes = {"phase": phase, "done": frozenset(), "order": order}
    changes["turn"] = seat
    changes["awaiting"] = PHASE_AWAITS.get(phase, "")
    changes["position"] = order.index(seat) if seat in order else position
    if seat >= 0 and state.players[seat].mick_used:
        return _seat(state, seat, changed(state.players[seat], mick_used=False), **changes)
    return changed(state, **changes)


# What a grant says, by its wire bytes: a game makes the same few grants again and
# again, and reading them field by field (a message per task) was a fifth of recording.
# With it, the step a new-step grant opens (steps are frozen, so one is shared).
_GRANTS: dict[bytes, tuple[int, str, tuple[Task, ...], bool, Step]] = {}


def _grant(e: pb.TasksGranted, wire: bytes) -> tuple[int, str, tuple[Task, ...], bool, Step]:
    """Seat, source, tasks and new step of a grant not met before (remembered by its
    wire bytes), and the step it opens when it opens one."""
    tasks = tuple([_task(t.kind, t.amount) for t in e.tasks])
    kinds = frozenset([t.kind for t in tasks])
    step = changed(_STEP, seat=e.seat, source=e.source, tasks=tasks, mode=e.mode, kinds=kinds)
    grant = (e.seat, e.source, tasks, e.new_step, step)
    if len(_GRANTS) >= 4096:
        _GRANTS.clear()
    _GRANTS[wire] = grant
    return grant


@RECORDERS.on("tasks_granted")
def tasks_granted(state: HarvestState, e: pb.TasksGranted) -> HarvestState:
    wire = e.SerializeToString()
    seat, source, tasks, new_step, step = _GRANTS.get(wire) or _grant(e, wire)
    if source == "mick":
        state = _player(state, seat, mick_used=True)
    if new_step or not state.steps:
        return changed(state, steps=(*state.steps, step))
    return _top_tasks(state, state.steps[-1].tasks + tasks)


@RECORDERS.on("task_resolved")
def task_resolved(state: HarvestState, e: pb.TaskResolved) -> HarvestState:
    top = state.steps[-1]
    index, used = e.task, e.used
    tasks = list(top.tasks)
    task = tasks[index]
    if task.kind in COUNTED and task.amount > 1:
        # One use of several: the step's task kinds stay the same.
        tasks[index] = _task(task.kind, task.amount - 1)
        kinds = top.kinds
    else:
        del tasks[index]
        kinds = frozenset([t.kind for t in tasks])
    used_now = top.used | {used} if used else top.used
    top = changed(top, tasks=tuple(tasks), kinds=kinds, used=used_now)
    return changed(state, steps=(*state.steps[:-1], top))


# The player's fields a resources change moves, by the event's field names (the seed
# fields move ``seeds``): the recorder reads only the fields the event sets.
_SUPPLY = frozenset({"coins", "water", "bucket", "fertilizer", "points", "rerolls"})
_SEED_INDEX = {"wheat": 0, "strawberry": 1, "blueberry": 2, "pumpkin": 3}

# What a resources change moves, by its wire bytes: the seat, the supply fields with
# their deltas and the seed slots with theirs. A game makes the same few changes again
# and again, and reading each set field by name was the costliest recording (profiled).
_Change = tuple[int, tuple[tuple[str, int], ...], tuple[tuple[int, int], ...]]
_CHANGES: dict[bytes, _Change] = {}


def _change(e: pb.ResourcesChanged) -> _Change:
    wire = e.SerializeToString()
    change = _CHANGES.get(wire)
    if change is None:
        supply: list[tuple[str, int]] = []
        seeds: list[tuple[int, int]] = []
        for field, delta in e.ListFields():
            name = field.name
            if name in _SUPPLY:
                supply.append((name, delta))
            elif name in _SEED_INDEX:
                seeds.append((_SEED_INDEX[name], delta))
        change = (e.seat, tuple(supply), tuple(seeds))
        if len(_CHANGES) >= 4096:
            _CHANGES.clear()
        _CHANGES[wire] = change
    return change


@RECORDERS.on("resources_changed")
def resources_changed(state: HarvestState, e: pb.ResourcesChanged) -> HarvestState:
    seat, supply, seed_deltas = _change(e)
    p = state.players[seat]
    changes: dict[str, object] = {}
    for name, delta in supply:
        changes[name] = getattr(p, name) + delta
    if seed_deltas:
        seeds = list(p.seeds)
        for index, delta in seed_deltas:
            seeds[index] += delta
        changes["seeds"] = tuple(seeds)
    return _seat(state, seat, changed(p, **changes))


@RECORDERS.on("worker_placed")
def worker_placed(state: HarvestState, e: pb.WorkerPlaced) -> HarvestState:
    seat, space = e.seat, e.space
    placements = (*state.placements, (space, seat)) if space else state.placements
    if seat < 0:
        return changed(state, placements=placements, gairy_pieces=state.gairy_pieces - 1)
    p = state.players[seat]
    players = list(state.players)
    players[seat] = changed(p, pieces=p.pieces - 1)
    return changed(state, players=tuple(players), placements=placements, awaiting="")


@RECORDERS.on("crop_placed")
def crop_placed(state: HarvestState, e: pb.CropPlaced) -> HarvestState:
    p = state.players[e.seat]
    cells = cells_of(e.cells)
    if e.crop == "blueberry":
        crops = tuple(
            changed(c, berry=True) if c.kind == "bush" and c.cells & cells else c for c in p.crops
        )
    else:
        crops = (*p.crops, Crop(e.crop, cells))
    state = _player(state, e.seat, crops=crops)
    if state.steps:
        state = _top(state, owed=e.owed)
    return state


@RECORDERS.on("crops_harvested")
def crops_harvested(state: HarvestState, e: pb.CropsHarvested) -> HarvestState:
    p = state.players[e.seat]
    kept = tuple(changed(c, berry=False) for c in p.crops if c.kind == "bush")
    return _player(state, e.seat, crops=kept)


@RECORDERS.on("land_cleared")
def land_cleared(state: HarvestState, e: pb.LandCleared) -> HarvestState:
    p = state.players[e.seat]
    forest = content().grid.cell(e.forest)
    state = _player(state, e.seat, forests=tuple(f for f in p.forests if f != forest))
    return _revealed(state, e.building, e.slot)


def _revealed(state: HarvestState, building: str, slot: int) -> HarvestState:
    workshop = list(state.workshop)
    if slot >= 0:
        workshop[slot] = building
    return changed(
        state,
        workshop=tuple(workshop),
        revealed_buildings=state.revealed_buildings | {building},
    )


@RECORDERS.on("building_built")
def building_built(state: HarvestState, e: pb.BuildingBuilt) -> HarvestState:
    workshop = list(state.workshop)
    workshop[e.slot] = ""
    cells = cells_of(e.cells)
    p = state.players[e.seat]
    state = changed(state, workshop=tuple(workshop))
    return _player(
        state,
        e.seat,
        crops=tuple(c for c in p.crops if not c.cells & cells),
        buildings=(*p.buildings, Built(e.building, cells)),
    )


@RECORDERS.on("step_finished")
def step_finished(state: HarvestState, e: pb.StepFinished) -> HarvestState:
    steps = state.steps[:-1]
    if steps:
        return changed(state, steps=steps)
    return changed(state, steps=steps, turn=-1, awaiting="", done=state.done | {e.seat})


@RECORDERS.on("piece_moved")
def piece_moved(state: HarvestState, e: pb.PieceMoved) -> HarvestState:
    placements = list(state.placements)
    placements.remove((e.from_space, e.seat))
    placements.append((e.to_space, e.seat))
    return changed(state, placements=tuple(placements), awaiting="")


@RECORDERS.on("round_ended")
def round_ended(state: HarvestState, e: pb.RoundEnded) -> HarvestState:
    c = content()
    left = state.market_left
    if e.market_large in dict(c.market_large):
        left -= 1
    players = tuple(changed(p, pieces=c.pieces) for p in state.players)
    return changed(
        state,
        phase="sunset",
        round=e.next_round,
        turn=-1,
        awaiting="",
        players=players,
        placements=(),
        market_large=e.market_large,
        market_small=e.market_small,
        market_seen=state.market_seen | {e.market_large, e.market_small} - {""},
        market_left=left,
        display=(),
        gairy_sunrise=0,
        gairy_revealed=frozenset(),
        gairy_pieces=c.pieces * state.gairy_tiles_per_turn,
    )


@RECORDERS.on("workshop_shifted")
def workshop_shifted(state: HarvestState, e: pb.WorkshopShifted) -> HarvestState:
    return changed(state, workshop=tuple(e.workshop))


@RECORDERS.on("game_finished")
def game_finished(state: HarvestState, e: pb.GameFinished) -> HarvestState:
    names = [f.name for f in fields(FinalScore)]
    final = tuple(FinalScore(**{name: getattr(s, name) for name in names}) for s in e.scores)
    return changed(
        state, phase="finished", turn=-1, awaiting="", final=final, winners=tuple(e.winners)
    )


@RECORDERS.on("start_kept")
def start_kept(state: HarvestState, e: pb.StartKept) -> HarvestState:
    state = _player(state, e.seat, character=e.character, farmhouse=e.farmhouse)
    return changed(state, done=state.done | {e.seat})


@RECORDERS.on("starts_revealed")
def starts_revealed(state: HarvestState, e: pb.StartsRevealed) -> HarvestState:
    players = tuple(
        changed(p, character=c, farmhouse=f)
        for p, c, f in zip(state.players, e.characters, e.farmhouses, strict=True)
    )
    return changed(state, players=players)


@RECORDERS.on("draft_picked")
def draft_picked(state: HarvestState, e: pb.DraftPicked) -> HarvestState:
    p = state.players[e.seat]
    state = _player(
        state,
        e.seat,
        character=e.character or p.character,
        farmhouse=e.farmhouse or p.farmhouse,
    )
    return changed(state, draft_picks=state.draft_picks + 1)


@RECORDERS.on("sunrise_revealed")
def sunrise_revealed(state: HarvestState, e: pb.SunriseRevealed) -> HarvestState:
    order = tuple(sorted(range(state.seats), key=lambda s: state.players[s].sunrise))
    return changed(
        state,
        phase="sunrise",
        round=e.round,
        display=tuple(e.tiles),
        gairy_sunrise=e.gairy_tile,
        order=order,
        done=frozenset(),
        turn=-1,
        awaiting="",
        position=-1,
    )


@RECORDERS.on("sunrise_taken")
def sunrise_taken(state: HarvestState, e: pb.SunriseTaken) -> HarvestState:
    old = state.players[e.seat].sunrise
    display = tuple(old if t == e.tile else t for t in state.display)
    return changed(_player(state, e.seat, sunrise=e.tile), display=display, awaiting="")


@RECORDERS.on("gairy_tile_drawn")
def gairy_tile_drawn(state: HarvestState, e: pb.GairyTileDrawn) -> HarvestState:
    return changed(state, gairy_revealed=state.gairy_revealed | {e.tile})


@RECORDERS.on("crop_returned")
def crop_returned(state: HarvestState, e: pb.CropReturned) -> HarvestState:
    return _top(state, owed="") if state.steps else state


@RECORDERS.on("building_revealed")
def building_revealed(state: HarvestState, e: pb.BuildingRevealed) -> HarvestState:
    return _revealed(state, e.building, e.slot)


RECORDERS.on("forest_die_rolled")(unchanged)


def evolve(state: HarvestState, event: pb.Event) -> HarvestState:
    """The state after ``event`` (rules use it to look at the state their own events make)."""
    return RECORDERS.evolve(state, event)
