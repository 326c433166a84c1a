"""Motifs: choose one, gain its benefit and flip it to its VP-crystal side; a Motif
showing its VP side gives one VP per VP-side Motif (itself included) and flips them all
back.

At the Motif location the location's cost is paid (once a turn, next to it); the Motif
icon and 2 spent Badges activate a Motif at no cost, anywhere (see RULES.md). The Motif
of Trust places up to 2 of your Badges, each on a Creature without one of yours.
"""

from __future__ import annotations

from engines.bardwood import codes
from engines.bardwood.batch import Batch
from engines.bardwood.content import content
from engines.bardwood.costs import affordable, pay
from engines.bardwood.crystals import take_crystals
from engines.bardwood.icons import gain
from engines.bardwood.legal import passing
from engines.bardwood.locations import activate, location_of, usable
from engines.bardwood.state import BardwoodState
from proto import bardwood_pb2 as pb

__all__ = [
    "badge_placements",
    "badge_targets",
    "check_motif",
    "choose_motif",
    "motif_choices",
    "place_badge",
]


def badge_targets(state: BardwoodState, seat: int) -> list[str]:
    """Creature piles whose top Creature carries none of ``seat``'s Badges."""
    if state.player(seat).badges == 0:
        return []
    return [pile.location for pile in state.piles if pile.cards and seat not in pile.badges]


def _free(state: BardwoodState) -> bool:
    choice = state.choice
    return choice is not None and choice.kind == "choose_motif"


def check_motif(state: BardwoodState, cmd: pb.ChooseMotif, seat: int) -> None:
    """A Motif on that spot; at the location: next to it, not there yet, its cost."""
    if not 0 <= cmd.slot < len(state.motifs) or not state.motifs[cmd.slot][0]:
        raise codes.NO_MOTIF(slot=cmd.slot)
    if not _free(state):
        usable(state, seat, location_of("motifs", "motifs"))
        affordable(state, seat, content().motif_cost)


def choose_motif(state: BardwoodState, cmd: pb.ChooseMotif, seat: int) -> list[pb.Event]:
    """Choose a Motif: its benefit and a flip to the VP side, or VP for every VP side."""
    check_motif(state, cmd, seat)
    batch = Batch(state)
    if _free(state):
        batch.add("choice_closed", seat=seat, kind="choose_motif")
    else:
        pay(batch, seat, content().motif_cost, "motif")
        activate(batch, seat, "motifs")
    motif_id, vp_side = state.motifs[cmd.slot]
    batch.add("motif_chosen", seat=seat, slot=cmd.slot, motif=motif_id, vp_side=vp_side)
    if vp_side:
        showing = [slot for slot, (m, side) in enumerate(state.motifs) if m and side]
        take_crystals(batch, seat, len(showing), "motif")
        batch.add("motifs_turned", slots=showing, vp_side=False)
        return batch.events
    batch.add("motifs_turned", slots=[cmd.slot], vp_side=True)
    motif = content().motif(motif_id)
    if motif.kind == "badges":
        if badge_targets(batch.state, seat):
            batch.add("choice_opened", seat=seat, kind="place_badges", count=motif.badges)
    else:
        gain(batch, seat, motif.gain, "motif")
    return batch.events


def motif_choices(state: BardwoodState, seat: int) -> list[pb.ChooseMotif]:
    """Every Motif spot the rule's check accepts."""
    bodies = [pb.ChooseMotif(slot=slot) for slot in range(len(state.motifs))]
    return passing(check_motif, state, seat, bodies)


def place_badge(state: BardwoodState, cmd: pb.PlaceBadge, seat: int) -> list[pb.Event]:
    """Motif of Trust: one of your Badges on a Creature without one of yours."""
    if cmd.location not in badge_targets(state, seat):
        raise codes.BADGE_TARGET()
    choice = state.choice
    assert choice is not None
    batch = Batch(state)
    batch.add("badge_placed", seat=seat, to=cmd.location)
    batch.add("choice_closed", seat=seat, kind="place_badges")
    if choice.count > 1 and badge_targets(batch.state, seat):
        batch.add("choice_opened", seat=seat, kind="place_badges", count=choice.count - 1)
    return batch.events


def badge_placements(state: BardwoodState, seat: int) -> list[pb.PlaceBadge]:
    """Every pile whose top Creature can take one of your Badges."""
    return [pb.PlaceBadge(location=loc) for loc in badge_targets(state, seat)]
