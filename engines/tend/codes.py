"""Every refusal Tend gives beyond the shared ones: a stable code and the player's message.

Codes never change once published; messages may be reworded. A message may name
``{placeholders}`` filled from the refused command (there is nothing secret to leak:
Tend stores no secret). Rules raise them as ``raise codes.SPACE_TAKEN()``.
"""

from __future__ import annotations

from engines.core.codes import Refusal

__all__ = ["ALL"]

# --- Setup and the neighbour phase ---------------------------------------------------------
SETUP_SEATS = Refusal("setup.seats", "Tend is for 1 to 8 players.")
NEIGHBOUR_NOT_DRAWN = Refusal("neighbour.not_drawn", "Keep cards you drew: {card} is not one.")
NEIGHBOUR_SAME_CARD = Refusal("neighbour.same_card", "Keep two different cards, one a side.")
SIDE_UNKNOWN = Refusal("side.unknown", "A side is 'left' or 'right'.")
SIDE_EMPTY = Refusal("side.empty", "You have no neighbour card beside your {side} track.")
NEIGHBOUR_NEW = Refusal(
    "neighbour.new", "Only cards from earlier phases may be swapped: your {side} card came now."
)
SIDE_NOTHING_DRAWN = Refusal("side.nothing_drawn", "You drew no cards for your {side} track.")
NEIGHBOUR_DECK_EMPTY = Refusal("neighbour.deck_empty", "No neighbour card is left to replace it.")
GIFT_NOT_RECEIVED = Refusal("gift.not_received", "No neighbour gifted you that card.")
GIFT_WRONG_GOOD = Refusal("gift.wrong_good", "That card does not show {good}.")
GIFT_NO_CARD = Refusal("gift.no_card", "Your {side} neighbour card does not ask for {good}.")

# --- the task phase: cards, options, tasks -------------------------------------------------
CARD_SLOT_UNKNOWN = Refusal("card.slot_unknown", "The task row has slots 0 to 4.")
CARD_TAKEN = Refusal("card.already_chosen", "You already resolved that card this round.")
CARD_TWO = Refusal("card.two_taken", "You have resolved your two task cards this round.")
OPTION_UNKNOWN = Refusal("option.unknown", "This half of the card has options 0 to {last}.")
TASK_UNKNOWN = Refusal("task.unknown", "A task is tend, chop, mine or fish.")
FINISH_NOT_NOW = Refusal("finish.not_now", "Use what you gained first.")

# --- energy bars ----------------------------------------------------------------------------
ENERGY_USED = Refusal("energy.used", "You already used an energy bar in this task.")
ENERGY_EMPTY = Refusal("energy.empty", "That energy bar is not unlocked or has no charge left.")

# --- actions --------------------------------------------------------------------------------
ACTIONS_SHORT = Refusal("actions.short", "That takes {cost} actions; you have {left}.")

# --- tending --------------------------------------------------------------------------------
CROP_UNKNOWN = Refusal("crop.unknown", "There is no crop called {crop}.")
CROP_NO_SPOT = Refusal(
    "crop.no_spot", "A {crop} needs its whole square of free tilled soil there{trellis}."
)
DICE_NONE_LEFT = Refusal("dice.none_left", "No {die} die is left in the supply.")
WATER_NO_CROP = Refusal("water.no_crop", "No crop has its corner on that square.")
TILL_NO_ROOM = Refusal("till.no_room", "Your farm has no empty square left to till.")

# --- chopping and mining --------------------------------------------------------------------
SQUARE_OFF = Refusal("square.off_card", "That square is not on the card.")
SQUARE_ROCK = Refusal("square.rock", "That square is rock: it cannot be scratched.")
SQUARE_DONE = Refusal("square.scratched", "That square is already scratched.")
SQUARE_UNREACHED = Refusal(
    "square.unreached", "Scratch a square in the top row or next to one already scratched."
)
GEODE_NOT_ROLLED = Refusal("geode.not_rolled", "That geode square does not match your roll.")

# --- fishing ----------------------------------------------------------------------------------
AREA_LOCKED = Refusal("area.locked", "You have not unlocked {area} fishing.")
AIM_WRONG = Refusal("aim.wrong", "Aim where your dice meet (a 1 is any row or column).")
ROD_LOCKED = Refusal("rod.locked", "Use a rod you have unlocked, or none if you have none.")
CATCH_OUTSIDE = Refusal("catch.outside", "That square is outside your catch area.")
CATCH_EMPTY = Refusal("catch.empty", "That square is empty: nothing to catch.")
CATCH_TWICE = Refusal("catch.twice", "You already caught the fish on that square this task.")

# --- gaining and using resources ------------------------------------------------------------
GOOD_NOT_HELD = Refusal("good.not_held", "You have no {good} to use right now.")
COIN_NONE = Refusal("coin.none", "You have no coins left this turn.")
SPACE_UNKNOWN = Refusal("space.unknown", "Your sheets have no such space.")
SPACE_TAKEN = Refusal("space.taken", "That space is already crossed out.")
SPACE_WRONG_GOOD = Refusal("space.wrong_good", "That space does not take {good}.")
SPACE_NOT_FIRST = Refusal("space.not_first", "Cross the first free space of that kind in its row.")
LURE_ONLY_ONE = Refusal("lure.only_one", "Only one lure can be unlocked.")
SELL_UNLISTED = Refusal("sell.unlisted", "The commissary does not buy {good}.")
SHIP_UNLISTED = Refusal("ship.unlisted", "Only goods the commissary lists go in the manifest.")
SHIP_BAD_CELLS = Refusal(
    "ship.bad_cells", "Place {good} in its own shape on free manifest boxes, in ascending order."
)
SHIP_TOUCHES = Refusal("ship.touches", "A good may not touch another good of its type on any side.")
GROUNDS_UNKNOWN = Refusal("grounds.unknown", "Groundskeeping turns {good} into no {mark}.")
DISCARD_USEFUL = Refusal("discard.useful", "Your {good} still has a use: you must use it.")
MARK_UNKNOWN = Refusal("mark.unknown", "You have no {mark} to draw.")
MARK_NO_ROOM = Refusal("mark.no_room", "You cannot draw {mark} on that square.")

# --- animals --------------------------------------------------------------------------------
ANIMAL_NOT_OWED = Refusal("animal.not_owed", "You have no {animal} waiting for a pen.")
ANIMAL_NO_PEN = Refusal(
    "animal.no_pen", "An animal needs its whole square free inside a fully fenced pen."
)
ANIMAL_NONE_THERE = Refusal("animal.none_there", "No animal has its corner on that square.")

# --- the round timer ------------------------------------------------------------------------
TIMER_OFF = Refusal("timer.off", "This table plays without the round timer.")
TIMER_NOT_DONE = Refusal("timer.not_done", "Finish your own task phase before calling time.")

ALL: tuple[Refusal, ...] = tuple(v for v in dict(globals()).values() if isinstance(v, Refusal))
