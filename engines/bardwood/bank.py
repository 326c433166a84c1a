"""High Note Bank: "Gain Money or Badges! Each player can only ever have up to one Badge
here at a time. a. Place your left-most Badge to gain coins equal to the Market cost.
b. Take all Badges that are placed here." Your own Badges taken back leave the game.
"""

from __future__ import annotations

from engines.bardwood import codes
from engines.bardwood.batch import Batch
from engines.bardwood.legal import passing
from engines.bardwood.locations import activate, location_of, usable
from engines.bardwood.market import market_cost
from engines.bardwood.state import BardwoodState
from engines.bardwood.supply import receive
from proto import bardwood_pb2 as pb

__all__ = ["bank_uses", "use_bank"]


def check_bank(state: BardwoodState, cmd: pb.UseBank, seat: int) -> None:
    """Next to the Bank, not there yet this turn; a Badge to place (and none of yours there
    yet), or Badges to take."""
    usable(state, seat, location_of("bank", "bank"))
    if cmd.collect:
        if not state.bank:
            raise codes.BANK_EMPTY()
    elif seat in state.bank:
        raise codes.BANK_HAS_YOURS()
    elif state.player(seat).badges == 0:
        raise codes.NO_BADGES()


def use_bank(state: BardwoodState, cmd: pb.UseBank, seat: int) -> list[pb.Event]:
    """High Note Bank: place your left-most Badge for coins, or take every Badge there."""
    check_bank(state, cmd, seat)
    batch = Batch(state)
    if cmd.collect:
        activate(batch, seat, "bank")
        batch.add("badges_taken", seat=seat, source="bank", owners=list(state.bank))
        return batch.events
    activate(batch, seat, "bank")
    batch.add("badge_placed", seat=seat, to="bank")
    receive(batch, seat, "bank", {"coin": market_cost(state)})
    return batch.events


def bank_uses(state: BardwoodState, seat: int) -> list[pb.UseBank]:
    """Placing and collecting, as the rule's check allows."""
    return passing(check_bank, state, seat, [pb.UseBank(collect=False), pb.UseBank(collect=True)])
