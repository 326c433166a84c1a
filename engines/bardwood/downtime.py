"""3. Downtime and Drawing Cards.

"Draw cards until you have 2 in hand" (Skill cards: every drawn Improv, Creature or
Fan is played at once, then drawing goes on): an Improv goes into the Song, a Fan gives
one effect of the player's choice and is discarded, a Creature gives its bonus and goes
on a Creature spot of the player's choice. "If your deck ever runs out of cards,
immediately shuffle your discard pile to form your new deck." After drawing, coins and
Bardstones above 12 are returned, one at a time, as the player chooses.

Drawing stops when neither the deck nor the discard pile holds a Skill card (Fans would
cycle for ever; see RULES.md). Cards put on top of the deck in view of all are drawn
first, and everyone sees which; any other card is drawn at random from the unseen rest
of the deck and only its owner sees it.
"""

from __future__ import annotations

from engines.bardwood import codes
from engines.bardwood.batch import Batch
from engines.bardwood.content import content
from engines.bardwood.icons import gain
from engines.bardwood.state import BardwoodState
from engines.core.deck import draw_random
from engines.core.rng import Rng
from proto import bardwood_pb2 as pb

__all__ = [
    "cheer_fan",
    "cheers",
    "creature_places",
    "draw_to_hand",
    "place_creature",
    "return_to_supply",
    "returns",
    "skills_in_hand",
]

STONES = ("coin", "songstone", "rangestone", "loudstone")
_FIELD = {"coin": "coins", "songstone": "songstones", "rangestone": "rangestones",
          "loudstone": "loudstones"}  # fmt: skip


def skills_in_hand(state: BardwoodState, seat: int) -> int:
    """How many Skill cards ``seat`` holds."""
    return sum(1 for card in state.player(seat).hand if content().card(card).skill)


def _skill_left(state: BardwoodState, seat: int) -> bool:
    player = state.player(seat)
    pool = (*player.known, *player.unseen, *player.discard)
    return any(content().card(card).skill for card in pool)


def _draw_card(batch: Batch, seat: int, rng: Rng) -> str:
    """Draw one card (reshuffling the discard pile when the deck is empty)."""
    player = batch.state.player(seat)
    if not player.deck_size:
        batch.add("deck_reshuffled", seat=seat, cards=len(player.discard))
        player = batch.state.player(seat)
    if player.known:
        card = player.known[0]
        batch.add("known_card_drawn", seat=seat, card=card)
    else:
        (card,) = draw_random(player.unseen, 1, rng)
        batch.add("card_drawn", seat=seat, card=card)
    player = batch.state.player(seat)
    if not player.deck_size and player.discard:
        batch.add("deck_reshuffled", seat=seat, cards=len(player.discard))
    return card


def draw_to_hand(batch: Batch, seat: int, rng: Rng) -> bool:
    """Draw until 2 Skill cards are in hand, playing the others as they come. False when
    a drawn Fan or Creature waits for its owner's choice."""
    target = content().hand_size
    while skills_in_hand(batch.state, seat) < target and _skill_left(batch.state, seat):
        card = _draw_card(batch, seat, rng)
        drawn = content().card(card)
        if drawn.kind == "improv":
            batch.add("improv_placed", seat=seat, card=card)
        elif drawn.kind == "fan":
            batch.add("choice_opened", seat=seat, kind="cheer_fan", card=card)
            return False
        elif drawn.kind == "creature":
            gain(batch, seat, drawn.bonus, "creature")
            batch.add("choice_opened", seat=seat, kind="place_creature", card=card)
            return False
    return True


def cheer_fan(state: BardwoodState, cmd: pb.CheerFan, seat: int) -> list[pb.Event]:
    """Fan: choose one effect on the card, then place it face up in the discard pile."""
    choice = state.choice
    assert choice is not None
    fan = content().card(choice.card)
    if not 0 <= cmd.choice < len(fan.cheer):
        raise codes.NO_SUCH_CHEER(choice=cmd.choice)
    batch = Batch(state)
    batch.add("choice_closed", seat=seat, kind="cheer_fan")
    batch.add("fan_cheered", seat=seat, card=fan.id, choice=cmd.choice)
    gain(batch, seat, fan.cheer[cmd.choice], "fan")
    return batch.events


def cheers(state: BardwoodState, seat: int) -> list[pb.CheerFan]:
    """Each effect of the Fan just drawn."""
    choice = state.choice
    if choice is None:
        return []
    return [pb.CheerFan(choice=i) for i in range(len(content().card(choice.card).cheer))]


def place_creature(state: BardwoodState, cmd: pb.PlaceCreature, seat: int) -> list[pb.Event]:
    """Creature: (its bonus gained) face up onto one of your Creature spots."""
    choice = state.choice
    assert choice is not None
    if not 0 <= cmd.spot < content().creature_spots:
        raise codes.NO_SUCH_SPOT()
    return [
        pb.Event(choice_closed=pb.ChoiceClosed(seat=seat, kind="place_creature")),
        pb.Event(creature_placed=pb.CreaturePlaced(seat=seat, card=choice.card, spot=cmd.spot)),
    ]


def creature_places(state: BardwoodState, seat: int) -> list[pb.PlaceCreature]:
    """Each of the player's Creature spots."""
    return [pb.PlaceCreature(spot=spot) for spot in range(content().creature_spots)]


def return_to_supply(state: BardwoodState, cmd: pb.ReturnToSupply, seat: int) -> list[pb.Event]:
    """Down to 12 coins and Bardstones, one at a time."""
    field = _FIELD.get(cmd.resource)
    player = state.player(seat)
    if field is None or getattr(player, field) == 0:
        raise codes.NONE_TO_RETURN(resource=cmd.resource[:40])
    batch = Batch(state)
    batch.add("resources_changed", seat=seat, reason="limit", **{field: -1})
    if batch.state.player(seat).stones <= content().stone_limit:
        batch.add("choice_closed", seat=seat, kind="return_stones")
    return batch.events


def returns(state: BardwoodState, seat: int) -> list[pb.ReturnToSupply]:
    """Each kind of coin or Bardstone the player has."""
    player = state.player(seat)
    return [pb.ReturnToSupply(resource=r) for r in STONES if getattr(player, _FIELD[r])]
