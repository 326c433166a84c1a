"""Freunde assembled from the game kit (engines.core.game): everything it declares, here.

The rules live in the modules named after the rulebook's sections (set-up, turns,
weather, plots, irrigation, the gardener and the panda, improvements, objectives, game
end); ``evolve`` records, ``flow`` says which commands each stage of a turn takes,
``redaction`` and ``view`` say who sees what. RULES.md maps every rule to its function
and its test.
"""

from __future__ import annotations

from engines.core.bots import RandomBot
from engines.core.contract import GameInfo, OptionSpec
from engines.core.game import Game, Move
from engines.freunde import (
    gardener_and_panda,
    improvements,
    irrigation,
    objectives,
    plots,
    turns,
    weather,
)
from engines.freunde.bots import GreedyFreundeBot
from engines.freunde.evolve import RECORDERS
from engines.freunde.flow import FLOW
from engines.freunde.game_end import standing
from engines.freunde.picture import picture
from engines.freunde.redaction import REDACTION
from engines.freunde.setup import DEFAULT_ROUND_LIMIT, MAX_SEATS, MIN_SEATS, set_up
from engines.freunde.state import FreundeState
from engines.freunde.view import board, players, private
from engines.freunde.words import WORDS
from proto import freunde_pb2 as pb

__all__ = ["ENGINE"]

INFO = GameInfo(
    "freunde",
    "Freunde",
    MIN_SEATS,
    MAX_SEATS,
    (
        OptionSpec(
            "round_limit",
            "int",
            DEFAULT_ROUND_LIMIT,
            "Safeguard: the game is scored after this many rounds if nobody has "
            "triggered the end (not in the rulebook; see RULES.md).",
            minimum=1,
            maximum=1000,
        ),
    ),
)

# Every move lists exactly the bodies its rule accepts (the conformance check proves it).
MOVES: dict[str, Move[FreundeState]] = {
    # Turns and weather
    "end_turn": Move(turns.end_turn, turns.turn_ends, draws=True, exact=True),
    "skip_weather": Move(weather.skip_weather, weather.weather_skips, exact=True),
    "choose_weather": Move(weather.choose_weather, weather.weather_choices, exact=True),
    "grow_with_rain": Move(weather.grow_with_rain, weather.rain_growths, exact=True),
    "move_panda_by_storm": Move(weather.move_panda_by_storm, weather.storm_moves, exact=True),
    "take_improvement": Move(weather.take_improvement, weather.improvement_takings, exact=True),
    # Available actions
    "draw_plots": Move(plots.draw_plots, plots.plot_draws, exact=True),
    "place_plot": Move(plots.place_plot, plots.placements, exact=True),
    "take_irrigation": Move(irrigation.take_irrigation, irrigation.irrigation_takings, exact=True),
    "move_gardener": Move(
        gardener_and_panda.move_gardener, gardener_and_panda.gardener_moves, exact=True
    ),
    "move_panda": Move(gardener_and_panda.move_panda, gardener_and_panda.panda_moves, exact=True),
    "draw_objective": Move(objectives.draw_objective, objectives.objective_draws, exact=True),
    # Free actions
    "place_irrigation": Move(
        irrigation.place_irrigation, irrigation.channel_placements, exact=True
    ),
    "place_improvement": Move(
        improvements.place_improvement, improvements.chip_placements, exact=True
    ),
    "claim_objective": Move(objectives.claim_objective, objectives.claims, exact=True),
}

ENGINE: Game[FreundeState, pb.Command, pb.Event] = Game(
    info=INFO,
    command_type=pb.Command,
    event_type=pb.Event,
    initial_state=FreundeState,
    setup=set_up,
    recorders=RECORDERS,
    flow=FLOW,
    moves=MOVES,
    redaction=REDACTION,
    board=board,
    players=players,
    private=private,
    standing=standing,
    bots={"random": RandomBot, "greedy": GreedyFreundeBot},
    wording=WORDS,
    picture=picture,
)
