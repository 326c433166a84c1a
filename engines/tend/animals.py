"""Animals: bought with a row of coins, kept in fenced pens, moved at any time.

An animal's die is taken from the shared supply when it is placed, set to 1, inside a
fully fenced pen with room for its whole square (several animals may share a pen; soil
under them does not matter). An animal may be bought before there is room for it: it
waits until a pen and a die are free (Early Purchase). Animals may be moved, keeping
their value, to any other spot inside a pen.
"""

from __future__ import annotations

from collections.abc import Iterator

from engines.tend import codes
from engines.tend.content import content
from engines.tend.events import farm_cell, farm_number, wrap
from engines.tend.farm_area import animal_spots, dice_in_use
from engines.tend.state import TendState
from proto import tend_pb2 as pb

__all__ = [
    "animal_of_die",
    "move_animal",
    "move_animal_candidates",
    "place_animal",
    "place_animal_candidates",
]


def animal_of_die(die: str) -> str:
    """The animal whose die has that colour ("" for a crop's die)."""
    for animal in content().animals.values():
        if animal.die == die:
            return animal.id
    return ""


def _cell(number: int) -> tuple[int, int]:
    try:
        return farm_cell(number)
    except ValueError:
        return (-1, -1)


def place_animal(state: TendState, cmd: pb.PlaceAnimal, seat: int) -> list[pb.Event]:
    """Put a bought animal in a pen, its die at 1."""
    player = state.players[seat]
    if cmd.animal not in player.owed_animals:
        raise codes.ANIMAL_NOT_OWED(animal=cmd.animal or "animal")
    die = content().animals[cmd.animal].die
    if dice_in_use(state, die) >= content().dice[die].count:
        raise codes.DICE_NONE_LEFT(die=die)
    if _cell(cmd.cell) not in animal_spots(player, cmd.animal):
        raise codes.ANIMAL_NO_PEN()
    placed = pb.AnimalPlaced(seat=seat, animal=cmd.animal, cell=cmd.cell)
    return [wrap(animal_placed=placed)]


def place_animal_candidates(state: TendState, seat: int) -> Iterator[pb.PlaceAnimal]:
    player = state.players[seat]
    for animal in sorted(set(player.owed_animals)):
        die = content().animals[animal].die
        if dice_in_use(state, die) < content().dice[die].count:
            for cell in animal_spots(player, animal):
                yield pb.PlaceAnimal(animal=animal, cell=farm_number(cell))


def move_animal(state: TendState, cmd: pb.MoveAnimal, seat: int) -> list[pb.Event]:
    """Move an animal to another spot inside a pen; its value stays."""
    player = state.players[seat]
    die = next((d for d in player.dice if d.cell == cmd.from_cell and animal_of_die(d.die)), None)
    if die is None:
        raise codes.ANIMAL_NONE_THERE()
    target = _cell(cmd.to_cell)
    if cmd.to_cell == die.cell or target not in animal_spots(
        player, animal_of_die(die.die), die.cell
    ):
        raise codes.ANIMAL_NO_PEN()
    moved = pb.AnimalMoved(seat=seat, from_cell=cmd.from_cell, to_cell=cmd.to_cell)
    return [wrap(animal_moved=moved)]


def move_animal_candidates(state: TendState, seat: int) -> Iterator[pb.MoveAnimal]:
    player = state.players[seat]
    for die in player.dice:
        animal = animal_of_die(die.die)
        if animal:
            for cell in animal_spots(player, animal, die.cell):
                if farm_number(cell) != die.cell:
                    yield pb.MoveAnimal(from_cell=die.cell, to_cell=farm_number(cell))
