"""Your Turn (a quick look): Composition, Singing when triggered, Downtime; then the next
player clockwise. The flow as data (``FLOW``), ``Finish``, and what follows on its own
(``advance``): opening hands, the move from Composition to Singing or Downtime, Downtime's
drawing, the end of an Act, final turns and the end of the game.
"""

from __future__ import annotations

from engines.bardwood import codes
from engines.bardwood.acts import end_act
from engines.bardwood.batch import Batch
from engines.bardwood.composition import composed, end_composition
from engines.bardwood.content import content
from engines.bardwood.downtime import draw_to_hand
from engines.bardwood.scoring import final_scores, winners
from engines.bardwood.setup import chooser
from engines.bardwood.singing import end_song
from engines.bardwood.state import BardwoodState
from engines.core.flow import Flow, Stage
from engines.core.rng import Rng
from proto import bardwood_pb2 as pb

__all__ = ["FLOW", "advance", "finish", "finishes"]

SINGING = (
    "use_card",
    "pay_volume",
    "perform",
    "tell_legend",
    "soothe",
    "assist",
    "challenge",
    "boast",
    "use_bank",
    "buy",
    "choose_motif",
    "spend_badges",
    "use_event_offer",
    "move_bard",
    "move_boat",
    "make_loudstone",
    "finish",
)


def stage_of(state: BardwoodState) -> str:
    """The stage: the open choice, the first turn's starting space, or the phase."""
    if state.choices:
        return state.choices[-1].kind
    if state.phase == "compose" and not state.player(state.turn.seat).space:
        return "place_bard"
    return state.phase


# Between two events of one command's batch (what a replay can stop at): nobody acts.
PASSING = ("setup", "downtime", "between")


def to_act(state: BardwoodState) -> tuple[int, ...]:
    """The seat of the open choice, the next Character chooser, or the seat whose turn it
    is."""
    if state.choices:
        return (state.choices[-1].seat,)
    if state.phase == "choose_character":
        return (chooser(state),)
    if state.phase in PASSING:
        return ()
    return (state.turn.seat,)


FLOW: Flow[BardwoodState] = Flow(
    stages=(
        Stage("choose_character", ("choose_character",), "Choose your Character first."),
        Stage("place_bard", ("place_bard",), "Put your Bard on a starting space first."),
        Stage(
            "compose",
            ("play_card", "discard_card", "move_bard", "move_boat", "make_loudstone", "finish"),
            "You are composing: play one card to your Song and discard the other.",
        ),
        Stage("sing", SINGING, "You are Singing: use your Song, visit Locations, or finish."),
        Stage("mark_legend", ("mark_legend",), "Put a Rune on a face-up Legend of that Tier."),
        Stage("choose_motif", ("choose_motif",), "Choose the Motif whose benefit you gain."),
        Stage("place_badges", ("place_badge", "finish"), "Place a Badge on a Creature or finish."),
        Stage("cheer_fan", ("cheer_fan",), "Choose one effect of the Fan you drew."),
        Stage("place_creature", ("place_creature",), "Put the Creature you drew on a spot."),
        Stage("return_stones", ("return_to_supply",), "Return coins or Bardstones down to 12."),
        *(Stage(name, (), "The rules are moving the game on.") for name in PASSING),
    ),
    stage_of=stage_of,
    to_act=to_act,
    finished=lambda state: state.finished,
)


def finish(state: BardwoodState, cmd: pb.Finish, seat: int) -> list[pb.Event]:
    """Done: with Composition (giving up unspent movement), with the Song, or with
    placing Motif Badges."""
    batch = Batch(state)
    if state.choices:
        batch.add("choice_closed", seat=seat, kind=state.choices[-1].kind)
    elif state.phase == "compose":
        if not composed(state):
            raise codes.COMPOSITION_UNFINISHED()
        end_composition(batch)
    else:
        end_song(batch)
    return batch.events


def finishes(state: BardwoodState, seat: int) -> list[pb.Finish]:
    """Finish, except in Composition before a card is played and one discarded."""
    if not state.choices and state.phase == "compose" and not composed(state):
        return []
    return [pb.Finish()]


def advance(state: BardwoodState, rng: Rng) -> list[pb.Event]:
    """Everything that happens without a player's choice, until one is needed."""
    batch = Batch(state)
    while not batch.state.finished and not batch.state.choices:
        current = batch.state
        if current.phase == "choose_character":
            if any(not p.character for p in current.players):
                break
            _deal_opening_hands(batch, rng)
            _begin_turn(batch, current.first_player)
        elif current.phase == "compose":
            seat = current.turn.seat
            if not current.player(seat).space or not composed(current):
                break
            sings = current.player(seat).song_triggered or current.turn.swan_song
            if not sings and current.turn.movement > 0:
                break
            end_composition(batch)
        elif current.phase == "downtime":
            seat = current.turn.seat
            if not draw_to_hand(batch, seat, rng):
                break
            if batch.state.player(seat).stones > content().stone_limit:
                batch.add("choice_opened", seat=seat, kind="return_stones")
                break
            _end_turn(batch)
        else:
            break
    return batch.events


def _deal_opening_hands(batch: Batch, rng: Rng) -> None:
    """Starting Deck Setup 5: everyone draws 2 (a drawn Improv joins the Song)."""
    state = batch.state
    for step in range(state.seats):
        draw_to_hand(batch, (state.first_player + step) % state.seats, rng)


def _begin_turn(batch: Batch, seat: int, final: bool = False) -> None:
    first = batch.state.player(seat).turns == 0
    batch.add("turn_began", seat=seat, final=final, first=first)


def _end_turn(batch: Batch) -> None:
    """The turn is over: the Act ends if its pool ran out; then the next turn, a final
    turn, or the end of the game."""
    state = batch.state
    seat = state.turn.seat
    batch.add("turn_ended", seat=seat)
    if batch.state.act_ending:
        end_act(batch, batch.state.act)
    state = batch.state
    if not state.end_triggered:
        _begin_turn(batch, (seat + 1) % state.seats)
    elif state.final_seats:
        _begin_turn(batch, state.final_seats[0], final=True)
    else:
        _end_game(batch)


def _end_game(batch: Batch) -> None:
    """After the last final turn: the Act II Event ends, then End Game Scoring."""
    end_act(batch, batch.state.act)
    scores = final_scores(batch.state)
    batch.add(
        "game_finished",
        scores=[
            pb.FinalScore(
                seat=s.seat,
                total_halves=s.total_halves,
                crystals=s.crystals,
                legends=s.legends,
                blue_halves=s.blue_halves,
                stones=s.stones,
            )
            for s in scores
        ],
        winners=list(winners(scores)),
    )
