"""Bardstones › Loudstone (option ``loudstones``): "Anytime, spend 6 Volume to gain 1
Loudstone." Volume passing 6 becomes a Loudstone on its own (see ``supply``); this is
the deliberate exchange at 6. Songstones are spent in ``costs``, Rangestones in
``locations``.
"""

from __future__ import annotations

from engines.bardwood import codes
from engines.bardwood.content import content
from engines.bardwood.legal import passing
from engines.bardwood.state import BardwoodState
from proto import bardwood_pb2 as pb

__all__ = ["loudstone_exchanges", "make_loudstone"]


def check_loudstone(state: BardwoodState, cmd: pb.MakeLoudstone, seat: int) -> None:
    """Loudstones are in the game and the player has 6 Volume."""
    if not state.loudstones or state.player(seat).volume < content().loudstone_volume:
        raise codes.NO_LOUDSTONES()


def make_loudstone(state: BardwoodState, cmd: pb.MakeLoudstone, seat: int) -> list[pb.Event]:
    """Spend 6 Volume for a Loudstone."""
    check_loudstone(state, cmd, seat)
    volume = content().loudstone_volume
    changed = pb.ResourcesChanged(seat=seat, reason="loudstone", volume=-volume, loudstones=1)
    return [pb.Event(resources_changed=changed)]


def loudstone_exchanges(state: BardwoodState, seat: int) -> list[pb.MakeLoudstone]:
    """The exchange, when the rule's check allows it."""
    return passing(check_loudstone, state, seat, [pb.MakeLoudstone()])
