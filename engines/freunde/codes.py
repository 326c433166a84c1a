"""Every refusal Freunde's own rules give: a stable code clients switch on, and the
player's message.

The checks every game makes first (game over, not your turn, empty command, a command
the stage does not take, a missing field) use the shared codes of
:mod:`engines.core.codes`. Codes never change once published; messages may be
reworded. Rules raise them as ``raise codes.PLOT_NOT_ADJACENT()``.
"""

from __future__ import annotations

from engines.core.codes import Refusal

__all__ = ["ALL"]

# --- Set-up -------------------------------------------------------------------------------
SETUP_SEATS = Refusal("setup.seats", "Freunde is played by 2 to 4 players.")
SETUP_ROUND_LIMIT = Refusal("setup.round_limit", "The round limit must be a positive number.")

# --- Turns: two different actions, then the end of the turn ---------------------------------
TURN_NO_ACTIONS_LEFT = Refusal("turn.no_actions_left", "You have used all your actions this turn.")
TURN_SAME_ACTION = Refusal(
    "turn.same_action", "Your actions must be different (unless the wind blows)."
)
TURN_ACTIONS_REMAINING = Refusal(
    "turn.actions_remaining", "Take your two actions before ending your turn."
)

# --- Weather --------------------------------------------------------------------------------
WEATHER_NO_CHOICE = Refusal("weather.no_choice", "This weather does not let you choose another.")
WEATHER_NOT_ALLOWED = Refusal("weather.not_allowed", "Choose one of: {allowed}.")
WEATHER_NOT_RAIN = Refusal("weather.not_rain", "Only rain grows bamboo on a plot of your choice.")
WEATHER_NOT_STORM = Refusal("weather.not_storm", "Only a storm moves the panda anywhere.")
WEATHER_NOT_CLOUDS = Refusal("weather.not_clouds", "Only clouds give an improvement chip.")
RAIN_NOT_IRRIGATED = Refusal("rain.not_irrigated", "Rain grows bamboo on an irrigated plot only.")
RAIN_CANNOT_GROW = Refusal(
    "rain.cannot_grow", "That bamboo is already 4 tall or its colour has run out."
)
STORM_NOT_A_PLOT = Refusal("storm.not_a_plot", "The storm moves the panda to another plot.")
IMPROVEMENT_BANK_EMPTY = Refusal(
    "improvement.bank_empty", "There is no chip of that improvement left in the bank."
)

# --- Available actions › Plots --------------------------------------------------------------
PLOT_STACK_EMPTY = Refusal("plot.stack_empty", "There are no plots left to draw.")
PLOT_NO_SPACE = Refusal("plot.no_space", "There is no place left for a plot.")
PLOT_NOT_DRAWN = Refusal("plot.not_drawn", "Place one of the plots you drew.")
PLOT_OCCUPIED = Refusal("plot.occupied", "That place is already taken.")
PLOT_NOT_ADJACENT = Refusal("plot.not_adjacent", "A plot must touch the pond or two placed plots.")

# --- Available actions › Irrigation; Irrigation channels ------------------------------------
IRRIGATION_SUPPLY_EMPTY = Refusal(
    "irrigation.supply_empty", "There are no irrigation channels left."
)
IRRIGATION_NONE_IN_RESERVE = Refusal(
    "irrigation.none_in_reserve", "You have no irrigation channel in your reserve."
)
IRRIGATION_NOT_BETWEEN_PLOTS = Refusal(
    "irrigation.not_between_plots", "A channel goes on the side between two tiles."
)
IRRIGATION_OCCUPIED = Refusal("irrigation.occupied", "That side already carries a channel.")
IRRIGATION_NOT_CONNECTED = Refusal(
    "irrigation.not_connected", "A channel must touch the pond or another channel at a corner."
)

# --- Available actions › Gardener, Panda ----------------------------------------------------
GARDENER_NOT_STRAIGHT_LINE = Refusal(
    "gardener.not_straight_line",
    "The gardener moves in a straight line over placed tiles, without jumping gaps.",
)
PANDA_NOT_STRAIGHT_LINE = Refusal(
    "panda.not_straight_line",
    "The panda moves in a straight line over placed tiles, without jumping gaps.",
)

# --- Improvements ---------------------------------------------------------------------------
IMPROVEMENT_NOT_IN_RESERVE = Refusal(
    "improvement.not_in_reserve", "You have no chip of that improvement in your reserve."
)
IMPROVEMENT_NOT_BLANK = Refusal(
    "improvement.not_blank", "Improvements go only on plots with no bamboo and no improvement."
)

# --- Available actions › Objective; Completing objectives -----------------------------------
OBJECTIVE_HAND_FULL = Refusal("objective.hand_full", "You may hold at most 5 objectives.")
OBJECTIVE_DECK_EMPTY = Refusal("objective.deck_empty", "There is no objective left to draw there.")
OBJECTIVE_DECK_CYCLED = Refusal(
    "objective.deck_cycled", "Every card of that deck was already shown by the garden this turn."
)
OBJECTIVE_NOT_IN_HAND = Refusal("objective.not_in_hand", "That objective is not in your hand.")
OBJECTIVE_NOT_MET = Refusal("objective.not_met", "The garden or your reserve does not show it yet.")

ALL: tuple[Refusal, ...] = tuple(
    value for value in list(globals().values()) if isinstance(value, Refusal)
)
