"""Every refusal Harvest's rules give: a stable code clients switch on, and the player's
message.

Codes never change once published; messages may be reworded. A message may name
``{placeholders}`` filled from the refused command (never another seat's secret).
Rules raise them as ``raise codes.SPACE_CLOSED()`` or ``raise codes.PAYMENT_WRONG_AMOUNT(cost=2)``.
The refusals every game shares (the game is over, not your turn, an empty command, a
command the stage does not take) are the kit's (``engines.core.codes``), made before a
rule runs; a stage's own sentence is in ``stages.py``.
"""

from __future__ import annotations

from engines.core.codes import Refusal

__all__ = ["ALL", "Refusal"]

# --- Game Setup, Player Setup, Draft Variant --------------------------------------------
SETUP_SEATS = Refusal("setup.seats", "Harvest is for 1 to 4 players.")
START_NOT_DEALT = Refusal("start.not_dealt", "Keep one of the two {kind} you were dealt.")
DRAFT_ONE = Refusal("draft.one", "Pick one Character or one Farmhouse.")
DRAFT_HAVE_CHARACTER = Refusal("draft.have_character", "You already have a Character.")
DRAFT_HAVE_FARMHOUSE = Refusal("draft.have_farmhouse", "You already have a Farmhouse.")
DRAFT_UNAVAILABLE = Refusal("draft.unavailable", "That {kind} is not available.")
CHALLENGE_UNKNOWN = Refusal("challenge.unknown", "There is no such solo challenge.")
CHALLENGE_SOLO = Refusal("challenge.solo", "A solo challenge is played by one player.")

# --- Sunrise Phase ------------------------------------------------------------------------
SUNRISE_NOT_IN_DISPLAY = Refusal(
    "sunrise.not_in_display", "That Sunrise tile is not in the display."
)

# --- Action Phase: spaces, pieces, costs --------------------------------------------------
SPACE_UNKNOWN = Refusal("space.unknown", "There is no such action space this round.")
SPACE_CLOSED = Refusal("space.closed", "That action space is closed this round.")
REUSE_NONE = Refusal("reuse.none", "Nothing lets you use an action space again.")
REUSE_WRONG_SPACE = Refusal("reuse.wrong_space", "You cannot use that action space this way.")
MOVE_NO_PIECE = Refusal("move.no_piece", "You have no Player Piece on that space.")
MOVE_SAME_SPACE = Refusal("move.same_space", "Move the piece to another space.")
PAYMENT_MISSING = Refusal(
    "payment.missing", "Say how you pay: send a payment, an empty one when nothing is owed."
)
PAYMENT_INVALID = Refusal("payment.invalid", "A payment cannot be negative.")
PAYMENT_COINS_ONLY = Refusal("payment.coins_only", "Only River the Fox may pay Coins with goods.")
PAYMENT_WRONG_AMOUNT = Refusal("payment.wrong_amount", "This costs {cost} Coins.")
PAYMENT_CANNOT_AFFORD = Refusal("payment.cannot_afford", "You do not have enough to pay that.")

# --- benefits (Icon Reference), Forest Die ------------------------------------------------
BENEFIT_UNKNOWN = Refusal("benefit.unknown", "There is no such benefit waiting.")
BENEFIT_NEEDS_ACTION = Refusal("benefit.needs_action", "That one is taken with its own action.")
BENEFIT_BAD_OPTION = Refusal("benefit.bad_option", "Choose one of the options this benefit offers.")
REROLL_NO_ROLL = Refusal("reroll.no_roll", "There is no Forest Die result to re-roll.")
REROLL_NONE_LEFT = Refusal("reroll.none_left", "You have no re-roll left this round.")
SUPPLY_EMPTY = Refusal("supply.empty", "The Supply has no more {piece} tiles.")

# --- The General Store --------------------------------------------------------------------
PURCHASE_NONE = Refusal("purchase.none", "You have no General Store purchase left.")
PURCHASE_UNKNOWN = Refusal("purchase.unknown", "The General Store does not sell that.")
PURCHASE_FERTILIZER_FULL = Refusal("purchase.fertilizer_full", "Your Fertilizer track is full.")
PURCHASE_BUCKET_FULL = Refusal("purchase.bucket_full", "Your Bucket is already full.")

# --- The Fields ---------------------------------------------------------------------------
FIELD_NONE = Refusal("field.none", "You have no Field Action left.")
FIELD_UNKNOWN = Refusal("field.unknown", "A Field Action is plant, tend or harvest.")
FIELD_BAD_CELLS = Refusal("field.bad_cells", "Those are not field spaces of your farm.")
FIELD_CELLS_ORDER = Refusal("field.cells_order", "List each field space once, in increasing order.")
PLANT_NOT_NOW = Refusal("plant.not_now", "You are not planting now.")
PLANT_UNKNOWN_SEED = Refusal("plant.unknown_seed", "That is not a Seed.")
PLANT_NO_SEED = Refusal("plant.no_seed", "You have no such Seed in your supply.")
PLANT_BAD_SHAPE = Refusal("plant.bad_shape", "The Seed's tile does not have that shape.")
PLANT_NOT_EMPTY = Refusal("plant.not_empty", "Seeds go on empty field spaces.")
PLANT_NO_FERTILIZER = Refusal("plant.no_fertilizer", "You do not have enough Fertilizer.")
TEND_NOT_NOW = Refusal("tend.not_now", "You are not tending now.")
TEND_UNKNOWN_CROP = Refusal("tend.unknown_crop", "That is not a Crop.")
TEND_NO_WATER = Refusal("tend.no_water", "You do not have enough Water.")
TEND_BAD_SPOT = Refusal(
    "tend.bad_spot",
    "A tended Crop goes on empty spaces beside a Crop of its type;"
    " a Blueberry goes on one of your Bushes that has none.",
)
TEND_OWED = Refusal("tend.owed", "Place the tended {crop} first.")
TEND_OWED_HAS_SPACE = Refusal("tend.owed_has_space", "The tended {crop} has a space to go.")

# --- The Workshop -------------------------------------------------------------------------
UPGRADE_NONE = Refusal("upgrade.none", "Nothing lets you upgrade your Bucket now.")
UPGRADE_BUCKET_MAX = Refusal("upgrade.bucket_max", "Your Bucket is fully upgraded.")
CLEAR_NONE = Refusal("clear.none", "Nothing lets you clear land now.")
CLEAR_NO_FOREST = Refusal("clear.no_forest", "There is no Forest tile there.")
BUILD_NONE = Refusal("build.none", "Nothing lets you build now.")
BUILD_NO_BUILDING = Refusal("build.no_building", "There is no building in that Workshop space.")
BUILD_NO_SITE = Refusal("build.no_site", "Buildings need a cleared 2x2 block of field.")
WINDMILL_NONE = Refusal("windmill.none", "Nothing lets you repeat a building now.")
WINDMILL_NOT_BUILT = Refusal("windmill.not_built", 'Choose one of your own "when built" buildings.')

# --- The Trading Post, Seed upgrades ------------------------------------------------------
TRADE_NONE = Refusal("trade.none", "You have no Trade Action waiting now.")
TRADE_UNKNOWN_ACTION = Refusal(
    "trade.unknown_action", "Trade for a Field Action, Clear Land or a Seed upgrade."
)
TRADE_UNKNOWN_PAYMENT = Refusal(
    "trade.unknown_payment", "Pay with a Seed, 2 Fertilizer or 3 Water."
)
TRADE_NO_SEED = Refusal("trade.no_seed", "You have no such Seed to trade.")
TRADE_NO_FOREST = Refusal("trade.no_forest", "You have no Forest left to clear.")
TRADE_CANNOT_AFFORD = Refusal("trade.cannot_afford", "A trade costs {amount} {give}.")
UPGRADE_SEED_NONE = Refusal("upgrade_seed.none", "You have no Seed upgrade waiting.")
UPGRADE_SEED_TOP = Refusal("upgrade_seed.top", "Only Wheat, Strawberry and Blueberry upgrade.")
UPGRADE_SEED_NO_SEED = Refusal("upgrade_seed.no_seed", "You have no such Seed.")

ALL: tuple[Refusal, ...] = tuple(v for v in globals().values() if isinstance(v, Refusal))
