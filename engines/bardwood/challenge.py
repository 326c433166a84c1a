"""Challenging Players: take an opponent's left-most Badge.

"1. Choose a player that you share a space with (or use Rangestones). 2. Pay Melody
equal to the visible Melody icons on their Badge track. 3. Take their left-most Badge."
Each opponent may be Challenged once a turn (see RULES.md).
"""

from __future__ import annotations

from engines.bardwood import codes
from engines.bardwood.badges import challenge_melody
from engines.bardwood.batch import Batch
from engines.bardwood.costs import affordable, pay
from engines.bardwood.legal import passing
from engines.bardwood.locations import bards_apart, spend_range
from engines.bardwood.state import BardwoodState
from proto import bardwood_pb2 as pb

__all__ = ["challenge", "challenges"]


def check_challenge(state: BardwoodState, cmd: pb.Challenge, seat: int) -> tuple[int, int]:
    """An opponent with Badges, on your space or in Rangestone reach, not yet Challenged
    this turn, whose visible Melody you can pay: ``(Rangestones, Melody)``."""
    target = cmd.seat
    if not 0 <= target < state.seats or target == seat:
        raise codes.NOT_AN_OPPONENT()
    if target in state.turn.challenged:
        raise codes.ALREADY_CHALLENGED()
    if not state.player(target).space:
        raise codes.BARD_NOT_PLACED()
    if state.player(target).badges == 0:
        raise codes.NOTHING_TO_TAKE()
    rangestones = bards_apart(state, seat, target)
    if rangestones > state.player(seat).rangestones:
        raise codes.OUT_OF_RANGE(target=f"Seat {target}'s Bard")
    melody = challenge_melody(state, target)
    affordable(state, seat, (("melody", melody),))
    return rangestones, melody


def challenge(state: BardwoodState, cmd: pb.Challenge, seat: int) -> list[pb.Event]:
    """Challenge an opponent: pay its visible Melody, take its left-most Badge."""
    rangestones, melody = check_challenge(state, cmd, seat)
    target = cmd.seat
    batch = Batch(state)
    spend_range(batch, seat, rangestones)
    pay(batch, seat, (("melody", melody),), "challenge")
    batch.add("challenged", seat=seat, target=target, melody=melody)
    batch.add("badges_taken", seat=seat, source=f"track:{target}", owners=[target])
    return batch.events


def challenges(state: BardwoodState, seat: int) -> list[pb.Challenge]:
    """Every opponent the rule's check lets the seat Challenge now."""
    bodies = [pb.Challenge(seat=other) for other in range(state.seats) if other != seat]
    return passing(check_challenge, state, seat, bodies)
