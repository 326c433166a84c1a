"""Movement, and Your First Turn's starting space.

"For each Movement Point you have, you have two options; either move your Bard to an
adjacent space (not diagonal), or Boat to the next space (upwards). Once your boat is
at -3, you can go no further!" Points are spent any time in the turn after they are
gained (Composition after the discard, or between Locations while Singing); unused
ones are lost when the turn ends.
"""

from __future__ import annotations

from engines.bardwood import codes
from engines.bardwood.content import content
from engines.bardwood.state import BardwoodState
from proto import bardwood_pb2 as pb

__all__ = [
    "bard_moves",
    "boat_moves",
    "move_bard",
    "move_boat",
    "place_bard",
    "starting_spaces",
]


def place_bard(state: BardwoodState, cmd: pb.PlaceBard, seat: int) -> list[pb.Event]:
    """Your First Turn: your Bard starts on one of the two starting spaces."""
    spaces = content().starting_spaces
    if cmd.space not in spaces:
        raise codes.NOT_A_STARTING_SPACE(spaces=", ".join(spaces))
    return [pb.Event(bard_placed=pb.BardPlaced(seat=seat, space=cmd.space))]


def starting_spaces(state: BardwoodState, seat: int) -> list[pb.PlaceBard]:
    """The two starting spaces."""
    return [pb.PlaceBard(space=space) for space in content().starting_spaces]


def move_bard(state: BardwoodState, cmd: pb.MoveBard, seat: int) -> list[pb.Event]:
    """One movement point: the Bard to an orthogonally adjacent space."""
    if state.turn.movement <= 0:
        raise codes.NO_MOVEMENT()
    if cmd.space not in content().neighbours(state.player(seat).space):
        raise codes.NOT_NEXT_SPACE(space=cmd.space[:40])
    return [pb.Event(bard_moved=pb.BardMoved(seat=seat, space=cmd.space))]


def bard_moves(state: BardwoodState, seat: int) -> list[pb.MoveBard]:
    """The spaces next to the Bard, while movement points are left."""
    if state.turn.movement <= 0:
        return []
    return [pb.MoveBard(space=n) for n in content().neighbours(state.player(seat).space)]


def move_boat(state: BardwoodState, cmd: pb.MoveBoat, seat: int) -> list[pb.Event]:
    """One movement point: the boat one step up the Legend discount track."""
    if state.turn.movement <= 0:
        raise codes.NO_MOVEMENT()
    boat = state.player(seat).boat
    if boat >= len(content().legend_discounts) - 1:
        raise codes.BOAT_AT_END()
    return [pb.Event(boat_moved=pb.BoatMoved(seat=seat, position=boat + 1))]


def boat_moves(state: BardwoodState, seat: int) -> list[pb.MoveBoat]:
    """One step up, while movement points are left and the boat is below -3."""
    last = len(content().legend_discounts) - 1
    if state.turn.movement <= 0 or state.player(seat).boat >= last:
        return []
    return [pb.MoveBoat()]
