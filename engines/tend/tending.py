"""Tending: plant a crop, water a crop and the crops touching it, or till 6 soil.

A crop needs its whole square of tilled soil (2 x 2, 3 x 3 or 4 x 4 by size), free of
other dice, and a trellis under it when the crop climbs one; its die is taken from the
shared supply and set to 1. Watering ticks the chosen crop and every crop orthogonally
touching it (a special project's irrigation adds the diagonal ones); animals are never
watered. Tilling gives 6 soil to draw on empty squares.
"""

from __future__ import annotations

from collections.abc import Iterator

from engines.tend import codes
from engines.tend.content import content
from engines.tend.events import farm_cell, farm_number, gained, wrap
from engines.tend.farm_area import crop_spots, dice_in_use, die_cells, mark_spots
from engines.tend.growth import harvest_of, tick
from engines.tend.state import Die, Player, TendState
from proto import tend_pb2 as pb

__all__ = [
    "plant",
    "plant_candidates",
    "tend_possible",
    "till",
    "till_candidates",
    "water",
    "water_candidates",
    "watered",
]


def _spent(state: TendState, seat: int, reason: str) -> pb.Event:
    """One tend action spent (refused when none is left)."""
    task = state.players[seat].task
    left = task.actions if task is not None else 0
    if left < 1:
        raise codes.ACTIONS_SHORT(cost=1, left=left)
    return wrap(actions_changed=pb.ActionsChanged(seat=seat, delta=-1, reason=reason))


def _die_left(state: TendState, die: str) -> bool:
    return dice_in_use(state, die) < content().dice[die].count


def plant(state: TendState, cmd: pb.Plant, seat: int) -> list[pb.Event]:
    """Plant a crop: a die of its colour at 1 on its square of tilled soil."""
    info = content().crops.get(cmd.crop)
    if info is None:
        raise codes.CROP_UNKNOWN(crop=cmd.crop or "that")
    if not _die_left(state, info.die):
        raise codes.DICE_NONE_LEFT(die=info.die)
    try:
        cell = farm_cell(cmd.cell)
    except ValueError:
        cell = (-1, -1)
    if cell not in crop_spots(state.players[seat], cmd.crop):
        raise codes.CROP_NO_SPOT(crop=cmd.crop, trellis=" over a trellis" if info.trellis else "")
    return [
        _spent(state, seat, "plant"),
        wrap(crop_planted=pb.CropPlanted(seat=seat, crop=cmd.crop, cell=cmd.cell)),
    ]


def _actions_left(state: TendState, seat: int) -> bool:
    task = state.players[seat].task
    return task is not None and task.actions >= 1


def plant_candidates(state: TendState, seat: int) -> Iterator[pb.Plant]:
    if not _actions_left(state, seat):
        return
    player = state.players[seat]
    for crop, info in content().crops.items():
        if _die_left(state, info.die):
            for cell in crop_spots(player, crop):
                yield pb.Plant(crop=crop, cell=farm_number(cell))


def _crop_dice(player: Player) -> list[Die]:
    dice = content().dice
    return [d for d in player.dice if dice[d.die].kind == "crop"]


def watered(player: Player, target: Die) -> list[Die]:
    """The target crop and every crop touching it (diagonally too with irrigation)."""
    diagonal = any(content().abilities[a].get("water_diagonal") for a in player.abilities)
    reach = set()
    for r, c in die_cells(target):
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if (dr == 0 or dc == 0 or diagonal) and (dr, dc) != (0, 0):
                    reach.add((r + dr, c + dc))
    return [d for d in _crop_dice(player) if d == target or die_cells(d) & reach]


def water(state: TendState, cmd: pb.Water, seat: int) -> list[pb.Event]:
    """Water a crop: it and the crops touching it tick up; white symbols are harvested."""
    player = state.players[seat]
    target = next((d for d in _crop_dice(player) if d.cell == cmd.cell), None)
    if target is None:
        raise codes.WATER_NO_CROP()
    ticked = [tick(d) for d in watered(player, target)]
    events = [
        _spent(state, seat, "water"),
        wrap(crops_watered=pb.CropsWatered(seat=seat, cell=cmd.cell, dice=ticked)),
    ]
    harvest = harvest_of(ticked)
    if harvest:
        events.append(gained(seat, harvest, "watering"))
    return events


def water_candidates(state: TendState, seat: int) -> Iterator[pb.Water]:
    if not _actions_left(state, seat):
        return
    for die in _crop_dice(state.players[seat]):
        yield pb.Water(cell=die.cell)


def till(state: TendState, cmd: pb.Till, seat: int) -> list[pb.Event]:
    """Till: 6 tilled soil to draw on empty squares (fewer when fewer are empty)."""
    if not mark_spots(state.players[seat], "tilled"):
        raise codes.TILL_NO_ROOM()
    return [_spent(state, seat, "till"), gained(seat, ["tilled"] * content().till, "till")]


def till_candidates(state: TendState, seat: int) -> Iterator[pb.Till]:
    if _actions_left(state, seat) and mark_spots(state.players[seat], "tilled"):
        yield pb.Till()


def tend_possible(state: TendState, seat: int) -> bool:
    """Whether any tend action would be possible with an action in hand."""
    player = state.players[seat]
    if mark_spots(player, "tilled") or _crop_dice(player):
        return True
    crops = content().crops
    return any(_die_left(state, c.die) and crop_spots(player, c.id) for c in crops.values())
