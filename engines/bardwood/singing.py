"""2. Singing: every Song card, in any order; its top free, its paid effect once its
Volume cost is paid; then the Song is discarded but the Instrument.

"You may always gain the top (for free). Optionally, you may pay the cost in the middle
to gain the bottom." "All effects are one time each, unless it shows otherwise" (the
repeat icon: any number of times; "x2": twice). "You can pay any optional costs in any
order ... You don't need to use a card fully all at once." A slash is "or": one side is
chosen. An arrow's cost is paid each time its benefit is taken.
"""

from __future__ import annotations

from engines.bardwood import codes
from engines.bardwood.batch import Batch
from engines.bardwood.content import Effect, content
from engines.bardwood.costs import pay, payment
from engines.bardwood.icons import gain
from engines.bardwood.state import BardwoodState, SongCard
from proto import bardwood_pb2 as pb

__all__ = [
    "card_uses",
    "end_song",
    "pay_volume",
    "use_card",
    "volume_payments",
]


def _held(state: BardwoodState, seat: int, slot: int) -> SongCard:
    song = state.player(seat).song
    if not 0 <= slot < len(song):
        raise codes.NO_SONG_CARD(slot=slot)
    return song[slot]


def pay_volume(state: BardwoodState, cmd: pb.PayVolume, seat: int) -> list[pb.Event]:
    """Pay a Song card's Volume cost (or a Loudstone instead) to use its paid effect."""
    held = _held(state, seat, cmd.slot)
    cost = content().card(held.card).cost
    if cost == 0:
        raise codes.NO_VOLUME_COST()
    if held.paid:
        raise codes.ALREADY_PAID()
    player = state.player(seat)
    if cmd.loudstone:
        if player.loudstones == 0:
            raise codes.NO_LOUDSTONE()
        volume = 0
    elif player.volume < cost:
        raise codes.VOLUME_SHORT(cost=cost)
    else:
        volume = cost
    paid = pb.VolumePaid(seat=seat, slot=cmd.slot, volume=volume, loudstone=cmd.loudstone)
    return [pb.Event(volume_paid=paid)]


def volume_payments(state: BardwoodState, seat: int) -> list[pb.PayVolume]:
    """Each Song card's cost the player can pay, in Volume or with a Loudstone."""
    player = state.player(seat)
    out = []
    for slot, held in enumerate(player.song):
        cost = content().card(held.card).cost
        if not cost or held.paid:
            continue
        if player.volume >= cost:
            out.append(pb.PayVolume(slot=slot))
        if player.loudstones:
            out.append(pb.PayVolume(slot=slot, loudstone=True))
    return out


def _effect(held: SongCard, part: str, index: int) -> tuple[Effect, int]:
    card = content().card(held.card)
    if part == "top":
        effects, uses = card.top, held.top_uses
    elif part == "paid":
        effects, uses = card.paid, held.paid_uses
        if card.cost and not held.paid:
            raise codes.COST_UNPAID()
    else:
        raise codes.NO_SUCH_EFFECT()
    if not 0 <= index < len(effects):
        raise codes.NO_SUCH_EFFECT()
    return effects[index], uses[index]


def use_card(state: BardwoodState, cmd: pb.UseCard, seat: int) -> list[pb.Event]:
    """Use one icon group of a Song card: pay an arrow's cost, gain the chosen side."""
    held = _held(state, seat, cmd.slot)
    effect, used = _effect(held, cmd.part, cmd.effect)
    if not 0 <= cmd.choice < len(effect.options):
        raise codes.NO_SUCH_EFFECT()
    if effect.times and used >= effect.times:
        raise codes.EFFECT_USED_UP()
    batch = Batch(state)
    if effect.pay:
        pay(batch, seat, effect.pay, "card")
    batch.add(
        "card_used", seat=seat, slot=cmd.slot, part=cmd.part, effect=cmd.effect, choice=cmd.choice
    )
    gain(batch, seat, effect.options[cmd.choice], "card")
    return batch.events


def card_uses(state: BardwoodState, seat: int) -> list[pb.UseCard]:
    """Every effect still usable, each side of a slash, paid parts once paid for."""
    out = []
    for slot, held in enumerate(state.player(seat).song):
        card = content().card(held.card)
        parts = [("top", card.top, held.top_uses)]
        if held.paid or not card.cost:
            parts.append(("paid", card.paid, held.paid_uses))
        for part, effects, uses in parts:
            for index, effect in enumerate(effects):
                if effect.times and uses[index] >= effect.times:
                    continue
                if effect.pay and payment(state, seat, effect.pay) is None:
                    continue
                for choice in range(len(effect.options)):
                    out.append(pb.UseCard(slot=slot, part=part, effect=index, choice=choice))
    return out


def end_song(batch: Batch) -> None:
    """After Singing: the Song but the Instrument to the discard pile, the Song tracker
    back on the Tempo wheel, Melody and Lyric gone; then Downtime."""
    seat = batch.state.turn.seat
    song = batch.state.player(seat).song
    cards = [held.card for held in song if content().card(held.card).kind != "instrument"]
    batch.add("song_ended", seat=seat, cards=cards)
    batch.add("downtime_began", seat=seat)
