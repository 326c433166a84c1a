"""Given/when/then helpers for Harvest scenarios.

Positions are built from events, never by editing state: a table is set up for real,
and each helper appends the events that would bring it to the position a test needs
(``ResourcesChanged`` for goods, ``CropPlaced`` for a farm, ``TurnBegan`` and
``TasksGranted`` for a turn in progress...), folded by the engine's own recorders. A
command is then sent with :func:`run`, which also checks it against ``legal_commands``:
an accepted command must be listed, a refused one must not be.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engines.core.contract import TableConfig
from engines.core.errors import RuleViolation
from engines.core.play import Table
from engines.core.rng import Rng
from engines.harvest.content import content
from engines.harvest.engine import ENGINE
from engines.harvest.rules import SEED_FIELDS
from engines.harvest.state import Built, Crop, HarvestState
from proto import harvest_pb2 as pb

GOODS = ("coins", "water", "bucket", "fertilizer", "points", "rerolls")


def cell(row: int, col: int) -> int:
    return content().grid.index((row, col))


def cells(*pairs: tuple[int, int]) -> list[int]:
    return sorted(cell(r, c) for r, c in pairs)


def crop(kind: str, *pairs: tuple[int, int], berry: bool = False) -> Crop:
    return Crop(kind, frozenset(pairs), berry)


def block(top: int, left: int) -> frozenset[tuple[int, int]]:
    """The 2x2 field spaces with ``(top, left)`` as their top-left."""
    return frozenset((top + r, left + c) for r in range(2) for c in range(2))


def table(seats: int = 2, seed: int = 7, **options: Any) -> Table:
    return Table.create(
        ENGINE, TableConfig(f"scenario-{seats}-{seed}", seats, options), bytes([seed])
    )


def started(seats: int = 2, seed: int = 7) -> HarvestState:
    """A table past Player Setup (first-game combos), in round 1's Sunrise."""
    return table(seats, seed, first_game=True).state


def given(state: HarvestState, *events: pb.Event) -> HarvestState:
    """The position after ``events``."""
    for event in events:
        state = ENGINE.evolve(state, event)
    return state


def event(**kind: Any) -> pb.Event:
    return pb.Event(**kind)


def _resources(seat: int, **deltas: int) -> pb.Event:
    return event(resources_changed=pb.ResourcesChanged(seat=seat, reason="scenario", **deltas))


def _crop_events(seat: int, crops: Iterable[Crop]) -> list[pb.Event]:
    placed = []
    for c in crops:
        numbers = cells(*c.cells)
        placed.append(event(crop_placed=pb.CropPlaced(seat=seat, crop=c.kind, cells=numbers)))
        if c.berry:
            placed.append(
                event(crop_placed=pb.CropPlaced(seat=seat, crop="blueberry", cells=numbers))
            )
    return placed


def _unseen_building(state: HarvestState) -> str:
    return min(set(content().buildings) - state.revealed_buildings)


def with_player(state: HarvestState, seat: int, **changes: Any) -> HarvestState:
    """The seat's Character, Farmhouse, goods, Seeds, Forests, Buildings, Crops, Sunrise
    tile or pieces changed to the values given, each by the event that records it."""
    player = state.players[seat]
    unknown = set(changes) - {
        *GOODS,
        "character",
        "farmhouse",
        "seeds",
        "forests",
        "buildings",
        "crops",
        "sunrise",
        "pieces",
    }
    assert not unknown, f"with_player cannot set {unknown}"
    if "character" in changes or "farmhouse" in changes:
        kept = [(p.character, p.farmhouse) for p in state.players]
        kept[seat] = (
            changes.get("character", player.character),
            changes.get("farmhouse", player.farmhouse),
        )
        shown = pb.StartsRevealed(characters=[c for c, _ in kept], farmhouses=[f for _, f in kept])
        state = given(state, event(starts_revealed=shown))
    deltas = {k: changes[k] - getattr(player, k) for k in GOODS if k in changes}
    if "seeds" in changes:
        deltas |= {
            name: new - old
            for name, new, old in zip(SEED_FIELDS, changes["seeds"], player.seeds, strict=True)
        }
    if any(deltas.values()):
        state = given(state, _resources(seat, **deltas))
    if "forests" in changes:
        assert set(changes["forests"]) <= set(player.forests), "Forests only ever go"
        for forest in player.forests:
            if forest not in changes["forests"]:
                cleared = pb.LandCleared(
                    seat=seat,
                    forest=cell(*forest),
                    building=_unseen_building(state),
                    slot=-1,
                )
                state = given(state, event(land_cleared=cleared))
    for built in changes.get("buildings", ()):
        if built in state.players[seat].buildings:
            continue
        # Built from its own Workshop space if it shows there, else from an empty one
        # (the Workshop stays as it is), else from the first.
        workshop = state.workshop
        slot = workshop.index(built.building) if built.building in workshop else 0
        slot = workshop.index("") if "" in workshop and built.building not in workshop else slot
        placed = pb.BuildingBuilt(
            seat=seat, building=built.building, slot=slot, cells=cells(*built.cells)
        )
        state = given(state, event(building_built=placed))
    if "crops" in changes:
        assert not state.players[seat].crops, "with_player plants on an empty field"
        state = given(state, *_crop_events(seat, changes["crops"]))
    if "sunrise" in changes:
        state = given(
            state, event(sunrise_taken=pb.SunriseTaken(seat=seat, tile=changes["sunrise"]))
        )
    for _ in range(state.players[seat].pieces - changes.get("pieces", player.pieces)):
        state = given(state, event(worker_placed=pb.WorkerPlaced(seat=seat, space="")))
    return state


def turn(state: HarvestState, seat: int, phase: str = "actions") -> HarvestState:
    """``seat``'s turn begins in ``phase``."""
    return given(state, event(turn_began=pb.TurnBegan(phase=phase, seat=seat)))


def resolving(
    state: HarvestState, seat: int, *tasks: tuple[str, int], mode: str = "", phase: str = "actions"
) -> HarvestState:
    """``seat`` is in the middle of its turn with these benefits waiting."""
    granted = pb.TasksGranted(
        seat=seat,
        source="test",
        tasks=[pb.Task(kind=k, amount=a) for k, a in tasks],
        new_step=True,
        mode=mode,
    )
    return given(turn(state, seat, phase), event(tasks_granted=granted))


def placing(state: HarvestState, seat: int) -> HarvestState:
    """``seat`` is about to place a Player Piece."""
    assert not state.steps
    return turn(state, seat, "actions")


def with_placements(state: HarvestState, *placed: tuple[str, int]) -> HarvestState:
    """Pieces on these ``(space, seat)`` spaces (seat -1: Mayor Gairy)."""
    return given(
        state,
        *(event(worker_placed=pb.WorkerPlaced(seat=s, space=space)) for space, s in placed),
    )


def with_workshop(state: HarvestState, *slots: str) -> HarvestState:
    """The Workshop's six spaces holding these buildings ("" for an empty space)."""
    assert len(slots) == len(content().workshop_slot_costs)
    emptied = event(workshop_shifted=pb.WorkshopShifted(workshop=[""] * len(slots)))
    revealed = [
        event(building_revealed=pb.BuildingRevealed(building=b, slot=i))
        for i, b in enumerate(slots)
        if b
    ]
    return given(state, emptied, *revealed)


def at_round(state: HarvestState, number: int, display: tuple[int, ...] = ()) -> HarvestState:
    """Round ``number``'s Sunrise, with this display (the same tiles by default)."""
    revealed = pb.SunriseRevealed(
        round=number, tiles=display or state.display, gairy_tile=state.gairy_sunrise
    )
    return given(state, event(sunrise_revealed=revealed))


def with_market(state: HarvestState, large: str) -> HarvestState:
    """The Farmer's Market showing ``large`` on its large space (pieces come back)."""
    ended = pb.RoundEnded(
        next_round=state.round, market_large=large, market_small=state.market_small
    )
    return at_round(given(state, event(round_ended=ended)), state.round)


def gairy_drew(state: HarvestState, *tiles: int) -> HarvestState:
    """Gairy tiles revealed this round."""
    return given(state, *(event(gairy_tile_drawn=pb.GairyTileDrawn(tile=t)) for t in tiles))


def gairy_pieces(state: HarvestState, left: int) -> HarvestState:
    """Gairy with ``left`` pieces still to place."""
    placed = [event(worker_placed=pb.WorkerPlaced(seat=-1, space=""))] * (state.gairy_pieces - left)
    return given(state, *placed)


def turn_over(state: HarvestState, seat: int) -> HarvestState:
    """``seat`` is done with its turn (nothing left to resolve)."""
    return given(state, event(step_finished=pb.StepFinished(seat=seat)))


def pieces_all_placed(state: HarvestState, phase: str = "actions") -> HarvestState:
    """Every piece placed (Gairy's too) and the last turn of ``phase`` over: what comes
    next is automatic (Jaime's move, Sunset, Game End)."""
    for seat in range(len(state.players)):
        state = with_player(state, seat, pieces=0)
    return turn_over(turn(gairy_pieces(state, 0), 0, phase), 0)


def game_over(state: HarvestState, *totals: int) -> HarvestState:
    """Game End has been scored: these totals (default: the points on the track)."""
    scores = totals or tuple(p.points for p in state.players)
    final = [pb.FinalScore(seat=s, total=t, track=t) for s, t in enumerate(scores)]
    best = max(scores)
    winners = [s for s, t in enumerate(scores) if t == best]
    return given(state, event(game_finished=pb.GameFinished(scores=final, winners=winners)))


def command(**kind: Any) -> pb.Command:
    return pb.Command(**kind)


def run(
    state: HarvestState, seat: int, cmd: pb.Command, version: int = 1
) -> tuple[list[pb.Event], HarvestState]:
    """When ``seat`` sends ``cmd``: the events and the state after them. An accepted
    command must be one ``legal_commands`` lists; a refused one (``RuleViolation``
    propagates) must not be."""
    listed = cmd in ENGINE.legal_commands(state, seat)
    try:
        events = ENGINE.decide(state, cmd, seat, Rng(b"scenario", "harvest", version))
    except RuleViolation:
        assert not listed, "legal_commands lists a command decide refuses"
        raise
    assert listed, "decide accepts a command legal_commands does not list"
    return events, given(state, *events)


def kinds(events: list[pb.Event]) -> list[str]:
    return [e.WhichOneof("kind") or "" for e in events]


def first(events: list[pb.Event], kind: str) -> Any:
    return next(getattr(e, kind) for e in events if e.WhichOneof("kind") == kind)


__all__ = [
    "Built",
    "at_round",
    "block",
    "cell",
    "cells",
    "command",
    "crop",
    "first",
    "gairy_drew",
    "gairy_pieces",
    "game_over",
    "given",
    "kinds",
    "pieces_all_placed",
    "placing",
    "resolving",
    "run",
    "started",
    "table",
    "turn",
    "turn_over",
    "with_market",
    "with_placements",
    "with_player",
    "with_workshop",
]
