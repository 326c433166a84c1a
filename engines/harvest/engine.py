"""Harvest on the engine contract: ``ENGINE`` is what ``engines.get("harvest")`` returns."""

from __future__ import annotations

from typing import Any

from engines.core.contract import GameInfo, OptionSpec, Outcome, TableConfig
from engines.core.rng import Rng
from engines.harvest.challenges import NO_CHALLENGE, challenge_result
from engines.harvest.content import content
from engines.harvest.decide import decide, to_act
from engines.harvest.evolve import evolve
from engines.harvest.flow import advance
from engines.harvest.legal import legal_commands
from engines.harvest.setup import set_up
from engines.harvest.state import HarvestState
from engines.harvest.view import redact, view
from proto import harvest_pb2

__all__ = ["ENGINE", "HarvestEngine"]


class HarvestEngine:
    """Harvest, 1-4 players (Mayor Gairy joins at 1-2)."""

    info = GameInfo(
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
    command_type = harvest_pb2.Command
    event_type = harvest_pb2.Event

    @property
    def game(self) -> str:
        return "harvest"

    def setup(self, config: TableConfig, rng: Rng) -> list[harvest_pb2.Event]:
        events = set_up(config.seats, config.options, rng)
        state = self.initial_state()
        for event in events:
            state = evolve(state, event)
        return events + advance(state, rng)

    def initial_state(self) -> HarvestState:
        return HarvestState()

    def evolve(self, state: HarvestState, event: harvest_pb2.Event) -> HarvestState:
        return evolve(state, event)

    def decide(
        self, state: HarvestState, command: harvest_pb2.Command, seat: int, rng: Rng
    ) -> list[harvest_pb2.Event]:
        return decide(state, command, seat, rng)

    def legal_commands(self, state: HarvestState, seat: int) -> list[harvest_pb2.Command]:
        return legal_commands(state, seat)

    def view(self, state: HarvestState, seat: int | None) -> dict[str, Any]:
        return view(state, seat)

    def redact(self, event: harvest_pb2.Event, seat: int | None) -> harvest_pb2.Event | None:
        return redact(event, seat)

    def outcome(self, state: HarvestState) -> Outcome:
        finished = state.phase == "finished"
        if finished:
            scores = tuple(f.total for f in state.final)
            breakdown: dict[str, Any] = {
                str(f.seat): {
                    "track": f.track,
                    "buildings": f.buildings,
                    "crops": f.crops,
                    "bushes": f.bushes,
                    "coins": f.coins,
                    "leftovers": f.leftovers,
                }
                for f in state.final
            }
            challenge = challenge_result(state)
            if challenge is not None:
                breakdown["challenge"] = challenge
        else:
            scores = tuple(p.points for p in state.players)
            breakdown = {}
        return Outcome(
            phase=state.phase,
            to_act=() if finished else to_act(state),
            finished=finished,
            scores=scores,
            winners=state.winners,
            breakdown=breakdown,
        )


ENGINE = HarvestEngine()
