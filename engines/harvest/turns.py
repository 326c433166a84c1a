"""What follows on its own: who acts next, and the steps nobody chooses (Gairy, Sunset,
Game End).

After every accepted command the kit asks ``advance`` for the next automatic step, and
again, until a seat must choose, so each command's events include whatever follows
from it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields

from engines.core.rng import Rng
from engines.harvest.buildings import end_game_tasks
from engines.harvest.characters import moves_after_placement
from engines.harvest.content import content
from engines.harvest.events import granted, turn_began, wrap
from engines.harvest.evolve import evolve
from engines.harvest.gairy import gairy_turn
from engines.harvest.rules import phase_order
from engines.harvest.scoring import final_scores, winners
from engines.harvest.setup import reveal_starts
from engines.harvest.state import FinalScore, HarvestState
from engines.harvest.sunrise import reveal_sunrise
from engines.harvest.sunset import sunset
from proto import harvest_pb2 as pb

__all__ = ["advance"]


def _after(state: HarvestState, phase: str) -> tuple[tuple[int, ...], int]:
    """The order and the position to search from, for ``phase``."""
    if state.phase == phase:
        return state.order, state.position
    return phase_order(state, phase), -1


def _next_in(order: tuple[int, ...], position: int, wants: Callable[[int], bool]) -> int | None:
    for seat in order[position + 1 :]:
        if wants(seat):
            return seat
    return None


def _action_turn(state: HarvestState, rng: Rng) -> list[pb.Event]:
    """Action Phase: turns go round in Sunrise order until every piece is placed."""
    order, position = _after(state, "actions")
    # The next seat round the order with a piece left.
    for seat in (*order[position + 1 :], *order[: position + 1]):
        if (state.gairy_pieces if seat < 0 else state.players[seat].pieces) > 0:
            break
    else:
        return _jaime_turn(state, rng)
    began = turn_began("actions", seat)
    if seat >= 0:
        return [began]
    return [began, *gairy_turn(evolve(state, began), rng)]


def _jaime_turn(state: HarvestState, rng: Rng) -> list[pb.Event]:
    """Jaime the Rabbit may move a piece after all placements, before Sunset."""
    order, position = _after(state, "jaime")

    def moves(seat: int) -> bool:
        return moves_after_placement(state.players[seat]) and any(
            s == seat for _, s in state.placements
        )

    seat = _next_in(order, position, moves)
    if seat is None:
        return _sunset(state, rng)
    return [turn_began("jaime", seat)]


def _sunset(state: HarvestState, rng: Rng) -> list[pb.Event]:
    """Sunset Phase, or after the 4th Action Phase, Game End."""
    if state.round >= content().rounds:
        return _game_end(state)
    return sunset(state, rng)


# A final score's parts, named as on the wire (read field by field: dataclasses.asdict
# copies each value through deepcopy).
_SCORED = tuple(f.name for f in fields(FinalScore))


def _game_end(state: HarvestState) -> list[pb.Event]:
    """Game End 1: each player in Sunrise order resolves their "End Game" buildings."""
    order, position = _after(state, "game_end")
    seat = _next_in(order, position, lambda s: bool(end_game_tasks(state.players[s])))
    if seat is None:
        scores = final_scores(state)
        return [
            wrap(
                game_finished=pb.GameFinished(
                    scores=[pb.FinalScore(**{n: getattr(s, n) for n in _SCORED}) for s in scores],
                    winners=winners(scores),
                )
            )
        ]
    tasks = end_game_tasks(state.players[seat])
    return [turn_began("game_end", seat), granted(seat, "game_end", tasks, new_step=True)]


def advance(state: HarvestState, rng: Rng) -> list[pb.Event]:
    """The events of the next automatic step; none when a seat must choose or the game
    is over."""
    if state.phase in ("setup", "finished") or state.steps or state.turn >= 0:
        return []
    if state.phase == "choose_start":
        if len(state.done) < state.seats:
            return []
        return [*reveal_starts(state), reveal_sunrise(state, rng, 1)]
    if state.phase == "draft":
        return [reveal_sunrise(state, rng, 1)] if state.draft_picks >= 2 * state.seats else []
    if state.phase == "sunrise":
        for seat in state.order:
            if seat not in state.done:
                return [turn_began("sunrise", seat)]
        return _action_turn(state, rng)
    if state.phase == "actions":
        return _action_turn(state, rng)
    if state.phase == "jaime":
        return _jaime_turn(state, rng)
    if state.phase == "sunset":
        return [reveal_sunrise(state, rng, state.round)]
    if state.phase == "game_end":
        return _game_end(state)
    return []
