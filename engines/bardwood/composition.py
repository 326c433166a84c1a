"""1. Composition: "with those 2 cards, in any order, you must: play 1 card, discard 1
card".

Playing puts the card to the right of the Song with no immediate effect. Discarding
gains the card's strip: the Tempo turn is mandatory, and the other gains are taken in
full (each is a pure gain, so declining never helps; see RULES.md). On a player's first
turn the movement gained is 1 less. With one card in hand a player plays or discards
it; with none, Composition is over at once.
"""

from __future__ import annotations

from engines.bardwood import codes
from engines.bardwood.batch import Batch
from engines.bardwood.content import content
from engines.bardwood.icons import gain
from engines.bardwood.state import BardwoodState
from proto import bardwood_pb2 as pb

__all__ = [
    "composed",
    "discard_card",
    "discards",
    "end_composition",
    "play_card",
    "plays",
]


def composed(state: BardwoodState) -> bool:
    """Composition is done: a card played and one discarded, or nothing left in hand."""
    turn = state.turn
    return (turn.played and turn.discarded) or not state.player(turn.seat).hand


def play_card(state: BardwoodState, cmd: pb.PlayCard, seat: int) -> list[pb.Event]:
    """Play 1 card: to the right of the right-most card of the Song."""
    if state.turn.played:
        raise codes.ALREADY_PLAYED()
    if cmd.card not in state.player(seat).hand:
        raise codes.CARD_NOT_IN_HAND(card=cmd.card[:40])
    return [pb.Event(card_played=pb.CardPlayed(seat=seat, card=cmd.card))]


def discard_card(state: BardwoodState, cmd: pb.DiscardCard, seat: int) -> list[pb.Event]:
    """Discard 1 card: face up to the discard pile, gaining its strip at once."""
    if state.turn.discarded:
        raise codes.ALREADY_DISCARDED()
    if cmd.card not in state.player(seat).hand:
        raise codes.CARD_NOT_IN_HAND(card=cmd.card[:40])
    batch = Batch(state)
    batch.add("card_discarded", seat=seat, card=cmd.card)
    before = batch.state.turn.movement
    gain(batch, seat, content().card(cmd.card).strip, "strip")
    if state.turn.first and batch.state.turn.movement > before:
        penalty = content().first_turn_penalty
        batch.add("resources_changed", seat=seat, reason="first_turn", movement=-penalty)
    return batch.events


def plays(state: BardwoodState, seat: int) -> list[pb.PlayCard]:
    """Each card in hand, until one has been played this turn."""
    if state.turn.played:
        return []
    return [pb.PlayCard(card=card) for card in sorted(set(state.player(seat).hand))]


def discards(state: BardwoodState, seat: int) -> list[pb.DiscardCard]:
    """Each card in hand, until one has been discarded this turn."""
    if state.turn.discarded:
        return []
    return [pb.DiscardCard(card=card) for card in sorted(set(state.player(seat).hand))]


def end_composition(batch: Batch) -> None:
    """On to Singing when the Song tracker is on the Song (or on a final turn), else to
    Downtime."""
    state = batch.state
    seat = state.turn.seat
    if state.player(seat).song_triggered or state.turn.swan_song:
        batch.add("singing_began", seat=seat, swan_song=not state.player(seat).song_triggered)
    else:
        batch.add("downtime_began", seat=seat)
