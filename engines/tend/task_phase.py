"""Task Phase: choose two of the five task cards and resolve them, one at a time.

Everyone plays at once and may choose the same cards. A card is resolved in full before
the next: an "or" offers one option to choose; a conditional card's bottom half may be
resolved only when its condition holds once its top half is done. Tasks from a
completed cargo row or the intern program wait until the card in hand is done, then are
performed like any task (upgrades and energy bars apply). A player who is done flips
the guide card; coins not spent this turn are lost then.
"""

from __future__ import annotations

from engines.core.rng import Rng
from engines.tend import codes
from engines.tend.actions import can_continue, task_began
from engines.tend.chopping_and_mining import rewards_rolling_geodes
from engines.tend.content import TASKS, Card, Option, content
from engines.tend.events import wrap
from engines.tend.fishing import aims
from engines.tend.measures import holds
from engines.tend.neighbours import SIDES, draw_neighbours
from engines.tend.state import Player, TendState, Waiting
from proto import tend_pb2 as pb

__all__ = [
    "awaiting_half",
    "call_time",
    "card_in_hand",
    "choose_card",
    "choose_card_candidates",
    "choose_option",
    "choose_option_candidates",
    "choose_task",
    "choose_task_candidates",
    "finish",
    "finish_events",
    "seat_steps",
    "waiting_task",
]

CARDS_PER_ROUND = 2


def card_in_hand(state: TendState, player: Player) -> Card:
    return content().cards[state.row[player.card]]


def awaiting_half(state: TendState, player: Player) -> str:
    """The half of the card in hand whose option the player must choose ("" none)."""
    if player.card < 0 or player.task is not None or player.line or player.pending:
        return ""
    if player.geodes:
        return ""
    if not player.chose:
        return player.half
    card = card_in_hand(state, player)
    bottom_open = card.condition is not None and holds(player, card.condition)
    if player.half == "top" and bottom_open and len(card.bottom) > 1:
        return "bottom"
    return ""


def waiting_task(player: Player) -> Waiting | None:
    """The next task in line: the card's first, else (no card in hand) a bonus task."""
    if player.line:
        return player.line[0]
    if player.card < 0 and player.bonus:
        return player.bonus[0]
    return None


def _options(card: Card, half: str) -> tuple[Option, ...]:
    return card.top if half == "top" else card.bottom


def _resolve(state: TendState, seat: int, half: str, option: int, rng: Rng) -> list[pb.Event]:
    card = card_in_hand(state, state.players[seat])
    chosen = wrap(option_chosen=pb.OptionChosen(seat=seat, half=half, option=option))
    effects = _options(card, half)[option]
    return [chosen, *rewards_rolling_geodes(seat, effects, "card", rng)]


def choose_card(state: TendState, cmd: pb.ChooseCard, seat: int) -> list[pb.Event]:
    """Choose one of the five face-up cards to resolve (two a round, each once)."""
    player = state.players[seat]
    if not 0 <= cmd.slot < len(state.row):
        raise codes.CARD_SLOT_UNKNOWN()
    if cmd.slot in player.chosen:
        raise codes.CARD_TAKEN()
    if len(player.chosen) >= CARDS_PER_ROUND:
        raise codes.CARD_TWO()
    chosen = pb.CardChosen(seat=seat, slot=cmd.slot, card=state.row[cmd.slot])
    return [wrap(card_chosen=chosen)]


def choose_card_candidates(state: TendState, seat: int) -> list[pb.ChooseCard]:
    player = state.players[seat]
    if len(player.chosen) >= CARDS_PER_ROUND:
        return []
    return [pb.ChooseCard(slot=s) for s in range(len(state.row)) if s not in player.chosen]


def choose_option(state: TendState, cmd: pb.ChooseOption, seat: int, rng: Rng) -> list[pb.Event]:
    """An "or": take one of the options of the half being resolved."""
    player = state.players[seat]
    half = awaiting_half(state, player)
    options = _options(card_in_hand(state, player), half)
    if not 0 <= cmd.option < len(options):
        raise codes.OPTION_UNKNOWN(last=len(options) - 1)
    return _resolve(state, seat, half, cmd.option, rng)


def choose_option_candidates(state: TendState, seat: int) -> list[pb.ChooseOption]:
    player = state.players[seat]
    half = awaiting_half(state, player)
    if not half:
        return []
    count = len(_options(card_in_hand(state, player), half))
    return [pb.ChooseOption(option=i) for i in range(count)]


def choose_task(state: TendState, cmd: pb.ChooseTask, seat: int) -> list[pb.Event]:
    """A task of your choice (the intern program, bonus tasks, "any" on a card)."""
    waiting = waiting_task(state.players[seat])
    if cmd.task not in TASKS or waiting is None or waiting.task != "any":
        raise codes.TASK_UNKNOWN()
    return [task_began(state, seat, waiting, cmd.task)]


def choose_task_candidates(state: TendState, seat: int) -> list[pb.ChooseTask]:
    return [pb.ChooseTask(task=t) for t in TASKS]


def finish_events(state: TendState, seat: int) -> list[pb.Event]:
    """The seat is done with its phase: this turn's unspent coins are lost."""
    player = state.players[seat]
    events = []
    if player.purse:
        events.append(wrap(coins_lost=pb.CoinsLost(seat=seat, coins=player.purse)))
    done = pb.PhaseFinished(seat=seat, phase=state.phase)
    return [*events, wrap(phase_finished=done)]


def finish(state: TendState, cmd: pb.Finish, seat: int) -> list[pb.Event]:
    """Done with what is in hand: the task's actions left, the card's half being
    offered, or the whole phase when nothing is in hand."""
    player = state.players[seat]
    if player.pending or player.geodes:
        raise codes.FINISH_NOT_NOW()
    if player.task is not None:
        ended = pb.TaskEnded(seat=seat, actions_left=player.task.actions)
        return [wrap(task_ended=ended)]
    half = awaiting_half(state, player)
    if half == "top":
        return [wrap(option_chosen=pb.OptionChosen(seat=seat, half="top", option=-1))]
    if half == "bottom":
        return [wrap(card_finished=pb.CardFinished(seat=seat, slot=player.card, bottom=False))]
    if player.busy():
        raise codes.FINISH_NOT_NOW()
    return finish_events(state, seat)


def call_time(state: TendState, cmd: pb.CallTime, seat: int) -> list[pb.Event]:
    """The round timer ran out: every seat still working stops where it is."""
    if not state.round_timer:
        raise codes.TIMER_OFF()
    if not state.players[seat].done:
        raise codes.TIMER_NOT_DONE()
    stopped = [s for s, p in enumerate(state.players) if not p.done]
    return [wrap(time_called=pb.TimeCalled(seat=seat, stopped=stopped))]


def seat_steps(state: TendState, seat: int, rng: Rng) -> list[pb.Event]:
    """The next automatic step of a seat, if any: start a waiting task, aim a cast that
    leaves no choice, end a task that can do nothing more, take a card's only option,
    check its condition, finish it, draw neighbour cards for an empty side."""
    player = state.players[seat]
    if player.done or player.pending or player.geodes:
        return []
    task = player.task
    if task is not None:
        if task.kind == "fish" and task.area and task.centre < 0:
            (only, *more) = aims(player)
            if not more:
                square, rod = only
                return [wrap(aimed=pb.Aimed(seat=seat, square=square, rod=rod))]
        if not can_continue(state, seat):
            return [wrap(task_ended=pb.TaskEnded(seat=seat, actions_left=task.actions))]
        return []
    waiting = waiting_task(player)
    if waiting is not None:
        return [task_began(state, seat, waiting, waiting.task)] if waiting.task in TASKS else []
    if player.card >= 0:
        return _card_step(state, seat, player, rng)
    if state.phase in ("neighbour", "final") and not player.gifts:
        return _refill(state, seat, player, rng)
    return []


def _card_step(state: TendState, seat: int, player: Player, rng: Rng) -> list[pb.Event]:
    card = card_in_hand(state, player)
    if not player.chose:
        only = len(_options(card, player.half)) == 1
        return _resolve(state, seat, player.half, 0, rng) if only else []
    if player.half == "top" and card.condition is not None and holds(player, card.condition):
        return _resolve(state, seat, "bottom", 0, rng) if len(card.bottom) == 1 else []
    finished = pb.CardFinished(seat=seat, slot=player.card, bottom=player.half == "bottom")
    return [wrap(card_finished=finished)]


def _refill(state: TendState, seat: int, player: Player, rng: Rng) -> list[pb.Event]:
    """Replacing gifted cards: draw 2 for each empty side (when any card is left)."""
    drawn = dict(player.drawn)
    for side in SIDES:
        empty = not player.card_beside(side) and side not in drawn
        if empty and (state.neighbour_deck or state.neighbour_discard):
            return [draw_neighbours(state, seat, side, 2, rng)]
    return []
