"""Harvest assembled from the kit's parts: ``ENGINE`` is what ``engines.get("harvest")``
returns. Each part lives in the module named after what it does (see RULES.md)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from engines.core.bots import RandomBot
from engines.core.contract import GameInfo, OptionSpec, TableConfig
from engines.core.game import Game, Standing
from engines.core.rng import Rng
from engines.harvest.bots import HarvestGreedyBot
from engines.harvest.challenges import NO_CHALLENGE, challenge_result
from engines.harvest.content import content
from engines.harvest.evolve import RECORDERS
from engines.harvest.moves import MOVES
from engines.harvest.picture import picture
from engines.harvest.setup import set_up
from engines.harvest.stages import FLOW
from engines.harvest.state import HarvestState
from engines.harvest.turns import advance
from engines.harvest.view import REDACTION, board, players, private
from engines.harvest.words import WORDS
from proto import harvest_pb2 as pb

__all__ = ["ENGINE", "INFO", "standing"]

INFO = GameInfo(
    "harvest",
    "Harvest",
    1,
    4,
    (
        OptionSpec("draft", "bool", False, "Draft Variant: pick Characters and Farmhouses."),
        OptionSpec(
            "first_game", "bool", False, "First Time Player: deal the four suggested combos."
        ),
        OptionSpec(
            "challenge",
            "choice",
            NO_CHALLENGE,
            "Solo Challenge Almanac (1 player): set-up changes and a goal;"
            " the outcome's breakdown says whether it was met.",
            choices=(NO_CHALLENGE, *(c.id for c in content().challenges)),
        ),
    ),
)


def _setup(config: TableConfig, rng: Rng) -> list[pb.Event]:
    return set_up(config.seats, config.options, rng)


def standing(state: HarvestState) -> Standing:
    """Points on the track while the game runs; Game End's totals, each part and the
    solo challenge's result once it is over."""
    if state.phase != "finished":
        return Standing(scores=tuple(p.points for p in state.players))
    breakdown: dict[str, Any] = {
        str(f.seat): {part: n for part, n in asdict(f).items() if part not in ("seat", "total")}
        for f in state.final
    }
    challenge = challenge_result(state)
    if challenge is not None:
        breakdown["challenge"] = challenge
    return Standing(
        scores=tuple(f.total for f in state.final), winners=state.winners, breakdown=breakdown
    )


ENGINE: Game[HarvestState, pb.Command, pb.Event] = Game(
    info=INFO,
    command_type=pb.Command,
    event_type=pb.Event,
    initial_state=HarvestState,
    setup=_setup,
    recorders=RECORDERS,
    flow=FLOW,
    moves=MOVES,
    redaction=REDACTION,
    board=board,
    players=players,
    private=private,
    standing=standing,
    advance=advance,
    bots={"random": RandomBot, "greedy": HarvestGreedyBot},
    wording=WORDS,
    picture=picture,
    # While seats choose, a seat sees its own kept Character among the farms.
    players_by_viewer=True,
)
