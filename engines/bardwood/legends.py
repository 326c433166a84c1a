"""Legends: "1. Choose a Tier. 2. Pay the indicated cost (with a possible discount).
3. Gain the indicated number of VP crystals. 4. Flip the top Legend from that Tier's
face-down stack. 5. Choose any one of the face-up Legends (from your chosen Tier) to
place any one of your Runes on."

The discount is optional: "reduce the cost by up to the value of your boat's current
position. Then, move your boat back to the starting space." The face-down stack keeps no
order: a flip draws at random from the Tier's Legends not yet seen (the same odds).
Without a Rune, or with every face-up Legend of the Tier marked, step 5 is skipped.
"""

from __future__ import annotations

from engines.bardwood import codes
from engines.bardwood.batch import Batch
from engines.bardwood.content import Gains, content
from engines.bardwood.costs import affordable, pay
from engines.bardwood.crystals import take_crystals
from engines.bardwood.legal import passing
from engines.bardwood.locations import activate, location_of, open_to, usable
from engines.bardwood.state import BardwoodState
from engines.core.deck import draw_random
from engines.core.rng import Rng
from proto import bardwood_pb2 as pb

__all__ = [
    "check_tell",
    "legend_marks",
    "legend_tellings",
    "mark_legend",
    "open_legends",
    "tell_legend",
]


def open_legends(state: BardwoodState, tier: int) -> list[str]:
    """Face-up Legends of ``tier`` without a Rune."""
    marked = {legend for legend, _ in state.legend_runes}
    return [legend for legend in state.legends_up[tier - 1] if legend not in marked]


def check_tell(state: BardwoodState, cmd: pb.TellLegend, seat: int) -> tuple[Gains, int]:
    """Next to the Legends, not there yet this turn, a Tier, a boat that gives a
    discount when one is asked for, and the cost: ``(cost, discount)``."""
    usable(state, seat, location_of("legends", "legends"))
    if cmd.tier not in (1, 2, 3):
        raise codes.NO_SUCH_TIER()
    tier = content().tier(cmd.tier)
    discount = 0
    if cmd.discount:
        boat = content().legend_discounts[state.player(seat).boat]
        if boat == 0:
            raise codes.NO_DISCOUNT()
        discount = min(boat, dict(tier.cost).get("lyric", 0))
    cost = tuple((name, n - discount if name == "lyric" else n) for name, n in tier.cost)
    cost = tuple((name, n) for name, n in cost if n)
    affordable(state, seat, cost)
    return cost, discount


def tell_legend(state: BardwoodState, cmd: pb.TellLegend, seat: int, rng: Rng) -> list[pb.Event]:
    """Tell a Legend of ``cmd.tier``: pay, gain its VP, flip the next one, then choose
    where the Rune goes."""
    cost, discount = check_tell(state, cmd, seat)
    tier = content().tier(cmd.tier)
    batch = Batch(state)
    pay(batch, seat, cost, "legend")
    activate(batch, seat, "legends")
    batch.add(
        "legend_told", seat=seat, tier=cmd.tier, discount=discount, boat_used=bool(cmd.discount)
    )
    take_crystals(batch, seat, tier.vp, "legend")
    if state.legends_down[cmd.tier - 1] > 0:
        seen = set(state.legends_up[cmd.tier - 1])
        unseen = [leg for leg in content().legends_of(cmd.tier) if leg not in seen]
        (flipped,) = draw_random(unseen, 1, rng)
        batch.add("legend_revealed", tier=cmd.tier, legend=flipped)
    if any(batch.state.player(seat).runes) and open_legends(batch.state, cmd.tier):
        batch.add("choice_opened", seat=seat, kind="mark_legend", tier=cmd.tier)
    return batch.events


def legend_tellings(state: BardwoodState, seat: int) -> list[pb.TellLegend]:
    """Each Tier, with and without the boat's discount, as the rule's check allows."""
    if not open_to(state, seat, "legends"):
        return []
    bodies = [pb.TellLegend(tier=t, discount=d) for t in (1, 2, 3) for d in (False, True)]
    return passing(check_tell, state, seat, bodies)


def mark_legend(state: BardwoodState, cmd: pb.MarkLegend, seat: int) -> list[pb.Event]:
    """Step 5: a Rune from a Tempo bonus spot onto a face-up Legend of the Tier told."""
    choice = state.choice
    assert choice is not None
    if cmd.legend not in open_legends(state, choice.tier):
        raise codes.LEGEND_NOT_OPEN(tier=choice.tier)
    runes = state.player(seat).runes
    if not 0 <= cmd.rune < len(runes) or runes[cmd.rune] == 0:
        raise codes.NO_RUNE_THERE(area=cmd.rune)
    return [
        pb.Event(rune_placed=pb.RunePlaced(seat=seat, area=cmd.rune, to=f"legend:{cmd.legend}")),
        pb.Event(choice_closed=pb.ChoiceClosed(seat=seat, kind="mark_legend")),
    ]


def legend_marks(state: BardwoodState, seat: int) -> list[pb.MarkLegend]:
    """Each open Legend of the Tier told, with each Tempo area that still has a Rune."""
    choice = state.choice
    if choice is None:
        return []
    runes = state.player(seat).runes
    return [
        pb.MarkLegend(legend=legend, rune=area)
        for legend in open_legends(state, choice.tier)
        for area, left in enumerate(runes)
        if left
    ]
