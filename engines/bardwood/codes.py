"""Every refusal of Bardwood Grove's rules: a stable code and the sentence a player reads.

Codes shared by every game (game over, not your turn, empty command, wrong stage) are
the kit's (:mod:`engines.core.codes`). Messages name only what the refused command
asked for, never another seat's secret.
"""

from __future__ import annotations

from engines.core.codes import Refusal

__all__ = ["ALL"]

CHARACTER_UNKNOWN = Refusal("character.unknown", "There is no Character called {character!r}.")
CHARACTER_TAKEN = Refusal("character.taken", "{character} is already taken; choose another.")
NOT_A_STARTING_SPACE = Refusal(
    "bard.not_a_starting_space", "Your Bard starts on one of the starting spaces: {spaces}."
)
CARD_NOT_IN_HAND = Refusal("card.not_in_hand", "You have no {card!r} in your hand.")
ALREADY_PLAYED = Refusal("composition.already_played", "You have already played a card this turn.")
ALREADY_DISCARDED = Refusal(
    "composition.already_discarded", "You have already discarded a card this turn."
)
COMPOSITION_UNFINISHED = Refusal(
    "composition.unfinished", "Play one card to your Song and discard the other first."
)
NO_MOVEMENT = Refusal("movement.none_left", "You have no movement points left this turn.")
NOT_NEXT_SPACE = Refusal(
    "movement.not_adjacent", "Your Bard moves one space at a time, never diagonally: {space!r}."
)
BOAT_AT_END = Refusal("movement.boat_at_end", "Your boat is at -3 and can go no further.")
NO_SONG_CARD = Refusal("song.no_such_card", "Your Song has no card in place {slot}.")
NO_VOLUME_COST = Refusal("song.no_volume_cost", "That card has no Volume cost to pay.")
ALREADY_PAID = Refusal("song.already_paid", "You have already paid that card's Volume cost.")
VOLUME_SHORT = Refusal("song.volume_short", "That card's cost is {cost} Volume; you have less.")
NO_LOUDSTONE = Refusal("song.no_loudstone", "You have no Loudstone to pay with.")
NO_SUCH_EFFECT = Refusal("song.no_such_effect", "That card has no such effect.")
COST_UNPAID = Refusal("song.cost_unpaid", "Pay the card's Volume cost before its paid effect.")
EFFECT_USED_UP = Refusal("song.effect_used", "You have used that effect as often as it allows.")
CANNOT_PAY = Refusal("cost.cannot_pay", "You cannot pay {cost}.")
LOCATION_UNKNOWN = Refusal("location.unknown", "There is no {location!r} to do that at.")
NOT_ADJACENT = Refusal("location.not_adjacent", "Your Bard is not next to {location}.")
OUT_OF_RANGE = Refusal(
    "location.out_of_range", "{target} is out of reach, even with your Rangestones."
)
LOCATION_USED = Refusal("location.used", "You have already been to {location} this turn.")
PERFORM_SPOT = Refusal("perform.spot_taken", "Runestone spot {spot} is not an empty spot.")
NO_RUNE_THERE = Refusal("rune.none_there", "No Rune is left on the bonus spot of area {area}.")
NO_SUCH_TIER = Refusal("legend.no_such_tier", "Legends come in Tiers 1, 2 and 3.")
NO_DISCOUNT = Refusal("legend.no_discount", "Your boat gives no discount yet.")
LEGEND_NOT_OPEN = Refusal(
    "legend.not_available", "Put the Rune on a face-up Legend of Tier {tier} without one."
)
NO_SUCH_SPOT = Refusal("creature.no_such_spot", "Your Creature spots are 0 and 1.")
EMPTY_PILE = Refusal("creature.none_left", "No Creature is left at {location}.")
ALREADY_ASSISTED = Refusal(
    "creature.badge_already_there", "One of your Badges is already on that Creature."
)
BADGE_TARGET = Refusal(
    "motif.badge_target", "Place the Badge on the top Creature of a pile without one of yours."
)
NO_BADGES = Refusal("badges.none_left", "You have no Badges left on your track.")
NOT_AN_OPPONENT = Refusal("challenge.not_an_opponent", "Challenge another player at the table.")
NOTHING_TO_TAKE = Refusal("challenge.no_badges", "That player has no Badges left to take.")
ALREADY_CHALLENGED = Refusal(
    "challenge.already", "You have already Challenged that player this turn."
)
BARD_NOT_PLACED = Refusal("challenge.bard_not_placed", "That player's Bard is not on the map yet.")
BANK_HAS_YOURS = Refusal("bank.already_yours", "One of your Badges is already on the Bank.")
BANK_EMPTY = Refusal("bank.empty", "There are no Badges on the High Note Bank.")
NOT_IN_DECK = Refusal("market.not_in_deck", "That deck holds no {card!r}.")
DECK_EXHAUSTED = Refusal(
    "market.exhausted", "That deck is empty: pay the cost for 1 VP without naming a card."
)
NO_MOTIF = Refusal("motif.empty_spot", "There is no Motif on spot {slot}.")
NO_CREATURES = Refusal("boast.no_creatures", "You have no Creatures to Boast about.")
TOO_FEW_BADGES = Refusal(
    "badges.too_few", "That needs {count} opponents' Badges on your Character card."
)
NO_SUCH_REWARD = Refusal("badges.no_such_reward", "Spend Badges for vp, motif, songstone or coin.")
NO_OFFER = Refusal("event.no_offer", "The current Event makes no offer.")
OFFER_USED = Refusal("event.offer_used", "You have used the Event's offer this Song.")
NO_LOUDSTONES = Refusal(
    "loudstone.not_possible", "A Loudstone needs Loudstones in the game and 6 Volume."
)
NO_SUCH_CHEER = Refusal("fan.no_such_effect", "That Fan has no effect {choice}.")
NONE_TO_RETURN = Refusal("supply.none_of_that", "You have no {resource!r} to return.")

ALL: tuple[Refusal, ...] = tuple(
    value for value in dict(globals()).values() if isinstance(value, Refusal)
)
