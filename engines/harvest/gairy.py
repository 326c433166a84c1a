"""Mayor Gairy (1-2 players): his placements by tile and arrow, and his Workshop visits."""

from __future__ import annotations

from engines.core.deck import draw_random
from engines.core.rng import Rng
from engines.harvest.content import Space, content
from engines.harvest.events import wrap
from engines.harvest.evolve import evolve
from engines.harvest.rules import is_open, spaces_in_play, stack_count
from engines.harvest.state import HarvestState
from engines.harvest.workshop import draw_building, workshop_slot
from proto import harvest_pb2 as pb

__all__ = ["gairy_space", "gairy_turn"]


def gairy_space(state: HarvestState, section: str, arrow: str) -> Space | None:
    """Action Phase (Gairy): up = highest value Open space, down = lowest, left/right =
    leftmost/rightmost; spaces without a value (the market) go by position."""
    open_spaces = [s for s in spaces_in_play(state) if s.section == section and is_open(state, s)]
    if not open_spaces:
        return None
    if arrow in ("up", "down") and any(s.value for s in open_spaces):
        ranked = sorted(open_spaces, key=lambda s: s.value, reverse=arrow == "up")
        return ranked[0]
    return open_spaces[-1] if arrow == "right" else open_spaces[0]


def _place_one(state: HarvestState, rng: Rng) -> list[pb.Event]:
    """Reveal Gairy tiles until one names a section with an Open space."""
    c = content()
    events: list[pb.Event] = []
    while True:
        unseen = (t for t, _, _ in c.gairy_tiles if t not in state.gairy_revealed)
        picked = draw_random(unseen, 1, rng)
        if not picked:
            placed = wrap(worker_placed=pb.WorkerPlaced(seat=-1, space="", gairy_tile=0))
            return [*events, placed]
        (tile,) = picked
        space = gairy_space(state, *c.gairy_tile(tile))
        drawn = wrap(gairy_tile_drawn=pb.GairyTileDrawn(tile=tile, space=space.id if space else ""))
        events.append(drawn)
        state = evolve(state, drawn)
        if space is None:
            continue
        events.append(wrap(worker_placed=pb.WorkerPlaced(seat=-1, space=space.id, gairy_tile=tile)))
        if space.section == "workshop":
            events += _workshop_visit(state, rng)
        return events


def _workshop_visit(state: HarvestState, rng: Rng) -> list[pb.Event]:
    """Action Phase (Gairy): "draw a random unused Building and reveal it in the highest
    available empty space of the WORKSHOP, as if it had just been cleared": like a
    cleared building (Clear Land), it is discarded when no Workshop space is empty."""
    if stack_count(state) <= 0:
        return []
    building = draw_building(state, rng)
    slot = workshop_slot(state)
    return [wrap(building_revealed=pb.BuildingRevealed(building=building, slot=slot))]


def gairy_turn(state: HarvestState, rng: Rng) -> list[pb.Event]:
    """Gairy's turn: one tile, two when playing solo."""
    events: list[pb.Event] = []
    for _ in range(state.gairy_tiles_per_turn):
        if state.gairy_pieces <= 0:
            break
        placed = _place_one(state, rng)
        for event in placed:
            state = evolve(state, event)
        events += placed
    return events
