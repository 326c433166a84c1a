"""Freunde's flow as data: the stages of a turn and the commands each takes.

Turns: "Each turn consists of 2 steps: 1. Randomly determining that turn's weather
(except in the player's first turn) 2. Performing 2 different actions. A player may
place improvements and irrigation channels, and claim completed objectives, at any
time during their turn."

- ``weather``: a rain, storm, clouds or question mark waits for its choice (or to be
  declined) before the actions;
- ``actions``: the actions, and ending the turn;
- ``plot``: the plots just drawn wait for one of them to be placed;

and the free actions are taken in all three. Only the seat whose turn it is acts.
The stage follows from the recorded facts: drawn plots not yet placed, then a weather
still waiting, else the actions.
"""

from __future__ import annotations

import operator

from engines.core.flow import Flow, Stage
from engines.freunde.state import FreundeState
from engines.freunde.weather import weather_pending

__all__ = ["ACTIONS", "FLOW", "FREE_ACTIONS", "WEATHER_EFFECTS"]

FREE_ACTIONS: tuple[str, ...] = ("place_irrigation", "place_improvement", "claim_objective")

WEATHER_EFFECTS: tuple[str, ...] = (
    "skip_weather",
    "choose_weather",
    "grow_with_rain",
    "move_panda_by_storm",
    "take_improvement",
)
ACTIONS: tuple[str, ...] = (
    "end_turn",
    "draw_plots",
    "take_irrigation",
    "move_gardener",
    "move_panda",
    "draw_objective",
)


def _stage_of(state: FreundeState) -> str:
    if not state.seats:
        return "setup"
    if state.turn.drawn_plots:
        return "plot"
    if weather_pending(state):
        return "weather"
    return "actions"


def _whose_turn(state: FreundeState) -> tuple[int, ...]:
    return (state.turn.seat,)


def _nobody(state: FreundeState) -> tuple[int, ...]:
    return ()


FLOW: Flow[FreundeState] = Flow(
    stages=(
        Stage(
            "setup",
            (),
            waiting_for="The game has not been set up yet.",
            to_act=_nobody,
        ),
        Stage(
            "weather",
            (*WEATHER_EFFECTS, *FREE_ACTIONS),
            waiting_for="Deal with this turn's weather first.",
        ),
        Stage(
            "actions",
            (*ACTIONS, *FREE_ACTIONS),
            waiting_for="That is not possible at this point of your turn.",
        ),
        Stage(
            "plot",
            ("place_plot", *FREE_ACTIONS),
            waiting_for="Place one of the plots you drew first.",
        ),
    ),
    stage_of=_stage_of,
    to_act=_whose_turn,
    # The game is over once it has an end reason ("" until GameEnded records one): a
    # C-level attribute read rather than a lambda, asked once for every command played.
    finished=operator.attrgetter("end_reason"),
)
