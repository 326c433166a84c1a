"""Tend on the game kit: ``ENGINE`` is what ``engines.get("tend")`` returns.

Each command kind is one move: its rule (in the module named after the rulebook
section it comes from) and its candidates, taken only at the seat steps of
:mod:`engines.tend.stages` that list it.
"""

from __future__ import annotations

from engines.core.contract import GameInfo, OptionSpec
from engines.core.game import Game, Move, Standing
from engines.tend import (
    actions,
    animals,
    cargo,
    chopping_and_mining,
    farm_area,
    fishing,
    neighbours,
    resources,
    task_phase,
    tending,
)
from engines.tend.bots import BOTS
from engines.tend.evolve import RECORDERS
from engines.tend.picture import picture
from engines.tend.rounds import advance
from engines.tend.scoring import running_total
from engines.tend.setup import MAX_SEATS, set_up
from engines.tend.stages import FLOW, seat_move
from engines.tend.state import TendState
from engines.tend.view import REDACTION, board, players, private
from engines.tend.words import WORDS
from proto import tend_pb2 as pb

__all__ = ["ENGINE"]

# Every move lists exactly the commands its rule accepts (exact=True: legal_commands
# skips re-deciding them); the conformance check's deep games prove it on every step.
_MOVES: dict[str, Move[TendState]] = {
    "keep_neighbours": Move(
        neighbours.keep_neighbours, neighbours.keep_neighbours_candidates, exact=True
    ),
    "keep_neighbour": Move(
        neighbours.keep_neighbour, neighbours.keep_neighbour_candidates, exact=True
    ),
    "discard_neighbour": Move(
        neighbours.discard_neighbour,
        neighbours.discard_neighbour_candidates,
        draws=True,
        exact=True,
    ),
    "take_gift": Move(neighbours.take_gift, neighbours.take_gift_candidates, exact=True),
    "choose_card": Move(task_phase.choose_card, task_phase.choose_card_candidates, exact=True),
    "choose_option": Move(
        task_phase.choose_option, task_phase.choose_option_candidates, draws=True, exact=True
    ),
    "choose_task": Move(task_phase.choose_task, task_phase.choose_task_candidates, exact=True),
    "use_energy": Move(actions.use_energy, actions.use_energy_candidates, exact=True),
    "plant": Move(tending.plant, tending.plant_candidates, exact=True),
    "water": Move(tending.water, tending.water_candidates, exact=True),
    "till": Move(tending.till, tending.till_candidates, exact=True),
    "chop": Move(
        chopping_and_mining.chop, chopping_and_mining.chop_candidates, draws=True, exact=True
    ),
    "mine": Move(
        chopping_and_mining.mine, chopping_and_mining.mine_candidates, draws=True, exact=True
    ),
    "cast": Move(fishing.cast, fishing.cast_candidates, draws=True, exact=True),
    "aim": Move(fishing.aim, fishing.aim_candidates, exact=True),
    "catch": Move(fishing.catch, fishing.catch_candidates, exact=True),
    "crack_geode": Move(
        chopping_and_mining.crack_geode, chopping_and_mining.crack_geode_candidates, exact=True
    ),
    "spend": Move(resources.spend, resources.spend_candidates, exact=True),
    "sell": Move(resources.sell, resources.sell_candidates, exact=True),
    "ship": Move(cargo.ship, cargo.ship_candidates, exact=True),
    "gift": Move(neighbours.gift, neighbours.gift_candidates, exact=True),
    "groundskeep": Move(resources.groundskeep, resources.groundskeep_candidates, exact=True),
    "draw": Move(farm_area.draw, farm_area.draw_candidates, exact=True),
    "discard": Move(resources.discard, resources.discard_candidates, exact=True),
    "place_animal": Move(animals.place_animal, animals.place_animal_candidates, exact=True),
    "move_animal": Move(animals.move_animal, animals.move_animal_candidates, exact=True),
    "finish": Move(task_phase.finish, lambda state, seat: [pb.Finish()], exact=True),
    "call_time": Move(task_phase.call_time, lambda state, seat: [pb.CallTime()], exact=True),
}


def standing(state: TendState) -> Standing:
    """Scores as they stand (the final ones once the game is over), winners, breakdown."""
    if state.final:
        scores = tuple(f.total for f in state.final)
        breakdown = {
            str(f.seat): {
                "objectives": list(f.objectives),
                "stalls": list(f.stalls),
                "badges": f.badges,
                "neighbour": f.neighbour,
                "doubled": f.doubled,
            }
            for f in state.final
        }
        return Standing(scores, state.winners, breakdown)
    return Standing(tuple(running_total(state, s) for s in range(state.seats)))


ENGINE: Game[TendState, pb.Command, pb.Event] = Game(
    info=GameInfo(
        "tend",
        "Tend",
        1,
        MAX_SEATS,
        (
            OptionSpec(
                "advanced_cards",
                "bool",
                True,
                "Play with the task cards marked advanced (leave them out for a first game).",
            ),
            OptionSpec(
                "round_timer",
                "bool",
                False,
                "Round timer (for 7 or more players): a seat that is done may call time "
                "when the timer runs out, which ends everyone's task phase.",
            ),
        ),
    ),
    command_type=pb.Command,
    event_type=pb.Event,
    initial_state=TendState,
    setup=set_up,
    recorders=RECORDERS,
    flow=FLOW,
    moves={kind: seat_move(kind, move) for kind, move in _MOVES.items()},
    redaction=REDACTION,
    board=board,
    players=players,
    private=private,
    standing=standing,
    advance=advance,
    bots=BOTS,
    wording=WORDS,
    picture=picture,
)
