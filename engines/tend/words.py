"""Tend's moves and events in words, for menus, logs and chat.

A move is named as a player says it at the table ("Resolve River Fisher", "Chop the
woods at row 4, column 2 (2 actions)", "Sell the milk for 4 coins"); its menu is the part
of the sheet or the task it belongs to (Task cards, Tend, Chop, Fish, Use the milk,
Ship the milk...). The kit splits a menu longer than 25 options into numbered parts.

Tend keeps no secret in its events (an unscratched square is not in any event: it is
drawn when scratched), so every viewer reads the same line. Squares are written
"row R, column C", counted from 1 as a person counts them; a fishing or geode square by
the white and black dice that meet there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from engines.core.game import MoveWords
from engines.tend.content import Option, content
from engines.tend.resources import sell_price
from engines.tend.state import TendState
from engines.tend.task_phase import awaiting_half, card_in_hand
from proto import tend_pb2 as pb

__all__ = ["WORDS", "option_words"]

_TASKS = {"tend": "Tend", "chop": "Chop", "mine": "Mine", "fish": "Fish", "any": "any task"}
_PHASES = {
    "start": "the start",
    "tasks": "the task phase",
    "neighbour": "the neighbour phase",
    "final": "the last neighbour phase",
}
_MARKS = {"tilled": "tilled soil", "fence": "a fence", "trellis": "a trellis"}


def _name(ident: str) -> str:
    """``wild_fruit`` as ``wild fruit``; ``fish:any`` as ``any fish``."""
    if ident.endswith(":any"):
        return f"any {ident.removesuffix(':any')}"
    return ident.replace("_", " ")


def _title(ident: str) -> str:
    return " ".join(word.capitalize() for word in _name(ident).split())


def _goods(goods: Iterable[str]) -> str:
    listed = [_name(g) for g in goods]
    if not listed:
        return "nothing"
    return ", ".join(listed[:-1]) + f" and {listed[-1]}" if len(listed) > 1 else listed[0]


def _cell(cell: int, cols: int) -> str:
    return f"row {cell // cols + 1}, column {cell % cols + 1}"


def _farm(cell: int) -> str:
    return _cell(cell, content().farm.cols)


def _scratch(square: int) -> str:
    return _cell(square, content().scratch.cols)


def _dice(square: int) -> str:
    """A fishing or geode square by the dice that meet there (2 to 6)."""
    first = 2
    return f"white {square // 5 + first}, black {square % 5 + first}"


def _manifest(cells: Sequence[int]) -> str:
    cols = content().manifest.grid.cols
    boxes = sorted(cells)
    if not boxes:
        return "nowhere"
    rows = sorted({c // cols + 1 for c in boxes})
    columns = sorted({c % cols + 1 for c in boxes})
    where_rows = f"row {rows[0]}" if len(rows) == 1 else f"rows {rows[0]}-{rows[-1]}"
    where_cols = (
        f"column {columns[0]}" if len(columns) == 1 else f"columns {columns[0]}-{columns[-1]}"
    )
    return f"{where_rows}, {where_cols} ({len(boxes)} box{'es' if len(boxes) > 1 else ''})"


def _feature(ident: str, space: int = -1) -> str:
    """A sheet feature, with the row of ``space`` when its grid unlocks row by row."""
    feature = content().features.get(ident)
    if feature is None:
        return _title(ident)
    name = _title(ident)
    if space >= 0 and feature.lined and len(feature.rows) > 1:
        return f"{name} (row {feature.row_of(space) + 1})"
    return name


def _effect(kind: str, name: str, amount: int, bonus: int) -> str:
    if kind == "task":
        extra = f" with {bonus} extra action{'s' if bonus > 1 else ''}" if bonus else ""
        return f"{_TASKS.get(name, _title(name))}{extra}"
    if kind == "good":
        return f"{amount} {_name(name)}" if amount > 1 else f"a {_name(name)}"
    if kind == "coins":
        return f"{amount} coin{'s' if amount > 1 else ''}"
    if kind in _MARKS:
        return f"{amount} x {_MARKS[kind]}"
    return f"{_name(kind)} {_name(name)}".strip()


def option_words(option: Option) -> str:
    """One option of a task card: its effects in order ("Chop, then a wood")."""
    return ", then ".join(_effect(e.kind, e.name, e.amount, e.bonus) for e in option) or "nothing"


def _side(side: str) -> str:
    return f"your {side} track"


def _neighbour_card(card: str) -> str:
    info = content().neighbour_cards.get(card)
    if info is None:
        return "a neighbour card"
    return f"the {' or '.join(_name(g) for g in info.goods)} card (+{info.bonus})"


class TendWords:
    """The wording the kit asks for (``engines.core.game.Wording``)."""

    def command(self, state: TendState, command: pb.Command, seat: int) -> MoveWords:
        kind = command.WhichOneof("kind") or ""
        body = getattr(command, kind) if kind else None
        player = state.players[seat]
        if isinstance(body, pb.KeepNeighbours):
            return MoveWords(
                "Neighbour cards",
                f"Keep {_neighbour_card(body.left)} on the left "
                f"and {_neighbour_card(body.right)} on the right",
            )
        if isinstance(body, pb.KeepNeighbour):
            return MoveWords(
                "Neighbour cards", f"Keep {_neighbour_card(body.card)} beside {_side(body.side)}"
            )
        if isinstance(body, pb.DiscardNeighbour):
            beside = player.card_beside(body.side)
            return MoveWords(
                "Neighbour cards",
                f"Discard {_neighbour_card(beside)} beside {_side(body.side)} and draw another",
            )
        if isinstance(body, pb.TakeGift):
            return MoveWords(
                "Gifts", f"Take a {_name(body.good)} from {_neighbour_card(body.card)}"
            )
        if isinstance(body, pb.ChooseCard):
            name = content().cards[state.row[body.slot]].name
            return MoveWords("Task cards", f"Resolve {name} (card {body.slot + 1})")
        if isinstance(body, pb.ChooseOption):
            card = card_in_hand(state, player)
            half = awaiting_half(state, player)
            options = card.top if half == "top" else card.bottom
            return MoveWords(
                f"{card.name}: {half} half", f"Take {option_words(options[body.option])}"
            )
        if isinstance(body, pb.ChooseTask):
            return MoveWords("Choose a task", f"Do the {_TASKS[body.task]} task")
        if isinstance(body, pb.UseEnergy):
            return MoveWords("Energy", f"Use a charge of {_title(body.bar)} for +1 action")
        if isinstance(body, pb.Plant):
            return MoveWords("Tend", f"Plant {_name(body.crop)} at {_farm(body.cell)}")
        if isinstance(body, pb.Water):
            return MoveWords("Tend", f"Water the crop at {_farm(body.cell)} and those touching it")
        if isinstance(body, pb.Till):
            return MoveWords("Tend", f"Till {content().till} squares of soil")
        if isinstance(body, pb.Chop | pb.Mine):
            return self._scratch_words(kind, body.square)
        if isinstance(body, pb.Cast):
            return MoveWords("Fish", f"Fish the {_name(body.area)}: roll the dice")
        if isinstance(body, pb.Aim):
            rod = f"the {_name(body.rod)} rod" if body.rod else "no rod"
            return MoveWords("Fish", f"Use {rod} around {_dice(body.square)}")
        if isinstance(body, pb.Catch):
            fish = self._fish(state, seat, body.square)
            return MoveWords("Fish", f"Catch the {fish} at {_dice(body.square)}")
        if isinstance(body, pb.CrackGeode):
            good = content().geode.grid[body.square // 5][body.square % 5] or "nothing"
            return MoveWords("Geode", f"Take the {_name(good)} at {_dice(body.square)}")
        return self._use_words(state, seat, kind, body)

    @staticmethod
    def _scratch_words(kind: str, square: int) -> MoveWords:
        top = square // content().scratch.cols < content().top_rows
        cost = content().scratch_costs[0 if top else 1]
        where = "woods" if kind == "chop" else "mine"
        return MoveWords(
            _TASKS[kind],
            f"{_TASKS[kind]} the {where} at {_scratch(square)} "
            f"({cost} action{'s' if cost > 1 else ''})",
        )

    @staticmethod
    def _fish(state: TendState, seat: int, square: int) -> str:
        task = state.players[seat].task
        area = task.area if task is not None else ""
        grid = content().tables.get(area)
        good = grid.grid[square // 5][square % 5] if grid is not None else None
        return _name(good) if good else "nothing"

    @staticmethod
    def _use_words(state: TendState, seat: int, kind: str, body: object) -> MoveWords:
        """What is done with a good in hand, coins, marks, animals, and finishing."""
        if isinstance(body, pb.Spend):
            what = "a coin" if body.good == "coin" else f"the {_name(body.good)}"
            group = "Spend coins" if body.good == "coin" else f"Use the {_name(body.good)}"
            return MoveWords(group, f"Spend {what} on {_feature(body.feature, body.space)}")
        if isinstance(body, pb.Sell):
            price = sell_price(state.players[seat], body.good)
            return MoveWords(
                f"Use the {_name(body.good)}", f"Sell the {_name(body.good)} for {price} coins"
            )
        if isinstance(body, pb.Ship):
            return MoveWords(
                f"Ship the {_name(body.good)}",
                f"Ship the {_name(body.good)} to {_manifest(body.cells)}",
            )
        if isinstance(body, pb.Gift):
            card = state.players[seat].card_beside(body.side)
            return MoveWords(
                f"Use the {_name(body.good)}",
                f"Gift the {_name(body.good)} with {_neighbour_card(card)} ({body.side})",
            )
        if isinstance(body, pb.Groundskeep):
            return MoveWords(
                f"Use the {_name(body.good)}",
                f"Groundskeep: turn the {_name(body.good)} into {_MARKS.get(body.mark, body.mark)}",
            )
        if isinstance(body, pb.Discard):
            return MoveWords(
                f"Use the {_name(body.good)}", f"Let the {_name(body.good)} go (no use for it)"
            )
        if isinstance(body, pb.Draw):
            mark = _MARKS.get(body.mark, _name(body.mark))
            return MoveWords(f"Draw {mark}", f"Draw {mark} at {_farm(body.cell)}")
        if isinstance(body, pb.PlaceAnimal):
            return MoveWords("Animals", f"Place the {_name(body.animal)} at {_farm(body.cell)}")
        if isinstance(body, pb.MoveAnimal):
            return MoveWords(
                "Animals",
                f"Move the animal at {_farm(body.from_cell)} to {_farm(body.to_cell)}",
            )
        if isinstance(body, pb.CallTime):
            return MoveWords("Done", "Call time: the round timer ran out")
        return MoveWords("Done", _finish_words(state, seat))

    def event(self, event: pb.Event, viewer: int | None) -> str:
        kind = event.WhichOneof("kind") or ""
        body = getattr(event, kind) if kind else None
        say = _EVENT_LINES.get(kind)
        return say(body) if say is not None else _title(kind or "event")


def _finish_words(state: TendState, seat: int) -> str:
    player = state.players[seat]
    if player.task is not None:
        left = player.task.actions
        return f"End the {_TASKS[player.task.kind]} task ({_count(left, 'action')} left)"
    half = awaiting_half(state, player)
    if half == "top":
        return "Skip the top half of the card"
    if half == "bottom":
        return "Skip the bottom half of the card"
    coins = f" ({player.purse} unspent coins are lost)" if player.purse else ""
    return f"Finish {_PHASES.get(state.phase, 'this phase')}{coins}"


def _count(amount: int, one: str, many: str = "") -> str:
    """``3 actions``, ``1 box``."""
    return f"{amount} {one if amount == 1 else many or one + 's'}"


def _seat(seat: int) -> str:
    return f"Seat {seat}"


def _square_found(content_: pb.Square) -> str:
    parts = []
    if content_.good:
        amount = content_.amount or 1
        parts.append(
            f"{amount} {_name(content_.good)}" if amount > 1 else f"a {_name(content_.good)}"
        )
    if content_.level:
        parts.append("a level")
    if content_.actions:
        parts.append(f"+{content_.actions} action{'s' if content_.actions > 1 else ''}")
    if content_.coins:
        parts.append(f"{content_.coins} coin{'s' if content_.coins > 1 else ''}")
    return _goods(parts) if parts else "nothing"


def _ticked(dice: Iterable[pb.DieTicked]) -> str:
    said = []
    for die in dice:
        harvest = f", harvesting {_goods(die.harvest)}" if die.harvest else ""
        then = f" ({die.then})" if die.then else ""
        said.append(f"{_name(die.die)} at {_farm(die.cell)} to {die.value}{harvest}{then}")
    return "; ".join(said) if said else "nothing"


def _final(body: pb.GameFinished) -> str:
    scores = ", ".join(f"seat {s.seat} {s.total}" for s in body.scores)
    winners = " and ".join(f"seat {w}" for w in body.winners)
    return f"Game over: {scores}; {winners} win{'s' if len(body.winners) == 1 else ''}"


def _gifted(body: pb.GoodGifted) -> str:
    to = "sets it aside" if body.to_seat < 0 else f"gives it to seat {body.to_seat}"
    return (
        f"{_seat(body.seat)} gifts a {_name(body.good)} with {_neighbour_card(body.card)}, "
        f"{to} and crosses {_count(body.boxes, 'box', 'boxes')} of the {body.side} track"
    )


def _scored(body: pb.ObjectiveScored) -> str:
    objective = content().objectives.get(body.objective)
    name = objective.name if objective is not None else _title(body.objective)
    points = ", ".join(f"seat {n} {p}" for n, p in enumerate(body.points))
    return f"Season {body.season} objective {name} scores: {points}"


def _row(body: pb.TaskRowDealt) -> str:
    names = [content().cards[c].name for c in body.row]
    shuffled = " (the task deck was reshuffled)" if body.reshuffled else ""
    return f"Round {body.round}: the task row is {', '.join(names)}{shuffled}"


_EVENT_LINES: dict[str, Callable[[Any], str]] = {
    "game_set_up": lambda b: (
        f"Tend is set up for {b.seats} player{'s' if b.seats > 1 else ''}"
        f"{'' if b.advanced_cards else ' (no advanced cards)'}"
    ),
    "neighbours_kept": lambda b: (
        f"{_seat(b.seat)} keeps {_neighbour_card(b.left)} on the left "
        f"and {_neighbour_card(b.right)} on the right"
    ),
    "phase_began": lambda b: f"Round {b.round}: {_PHASES.get(b.phase, _name(b.phase))} begins",
    "neighbours_drawn": lambda b: (
        f"{_seat(b.seat)} draws {', '.join(_neighbour_card(c) for c in b.cards)} "
        f"for the {b.side} track{' (the neighbour deck was reshuffled)' if b.reshuffled else ''}"
    ),
    "neighbour_kept": lambda b: (
        f"{_seat(b.seat)} keeps {_neighbour_card(b.card)} beside the {b.side} track"
    ),
    "neighbour_discarded": lambda b: (
        f"{_seat(b.seat)} discards {_neighbour_card(b.card)} from the {b.side} track"
    ),
    "gift_taken": lambda b: (
        f"{_seat(b.seat)} takes a {_name(b.good)} from the gifted {_neighbour_card(b.card)}"
    ),
    "objective_scored": _scored,
    "task_row_dealt": _row,
    "dice_grew": lambda b: f"{_seat(b.seat)}'s dice grow: {_ticked(b.dice)}",
    "card_chosen": lambda b: (
        f"{_seat(b.seat)} resolves {content().cards[b.card].name} (card {b.slot + 1})"
    ),
    "option_chosen": lambda b: (
        f"{_seat(b.seat)} skips the {b.half} half"
        if b.option < 0
        else f"{_seat(b.seat)} takes option {b.option + 1} of the {b.half} half"
    ),
    "task_began": lambda b: (
        f"{_seat(b.seat)} begins the {_TASKS.get(b.task, b.task)} task with "
        f"{b.actions} action{'s' if b.actions != 1 else ''} ({_name(b.source)})"
    ),
    "task_queued": lambda b: (
        f"{_seat(b.seat)} will do {_effect('task', b.task, 1, b.bonus)} ({_name(b.source)})"
    ),
    "energy_used": lambda b: f"{_seat(b.seat)} uses a charge of {_title(b.bar)}: +1 action",
    "square_scratched": lambda b: (
        f"{_seat(b.seat)} scratches the {b.area} at {_scratch(b.square)}: "
        f"{_square_found(b.content)}"
    ),
    "actions_changed": lambda b: (
        f"{_seat(b.seat)} {'gains' if b.delta >= 0 else 'uses'} {abs(b.delta)} "
        f"action{'s' if abs(b.delta) != 1 else ''} ({_name(b.reason)})"
    ),
    "level_gained": lambda b: f"{_seat(b.seat)} reaches {b.track} level {b.level}",
    "geode_rolled": lambda b: (
        f"{_seat(b.seat)} rolls a geode: black {b.black}, white {b.white}"
        f"{f', a {_name(b.good)}' if b.good else ' (a wild 1: a choice)'}"
    ),
    "geode_cracked": lambda b: (
        f"{_seat(b.seat)} takes the {_name(b.good)} at {_dice(b.square)} of the geode card"
    ),
    "crop_planted": lambda b: f"{_seat(b.seat)} plants {_name(b.crop)} at {_farm(b.cell)}",
    "crops_watered": lambda b: (
        f"{_seat(b.seat)} waters the crop at {_farm(b.cell)}: {_ticked(b.dice)}"
    ),
    "mark_drawn": lambda b: (
        f"{_seat(b.seat)} draws {_MARKS.get(b.mark, _name(b.mark))} at {_farm(b.cell)}"
    ),
    "line_cast": lambda b: f"{_seat(b.seat)} fishes the {b.area}: black {b.black}, white {b.white}",
    "aimed": lambda b: (
        f"{_seat(b.seat)} aims {f'the {_name(b.rod)} rod' if b.rod else 'no rod'} "
        f"at {_dice(b.square)}"
    ),
    "fish_caught": lambda b: (
        f"{_seat(b.seat)} catches {f'a {_name(b.good)}' if b.good else 'nothing'} "
        f"at {_dice(b.square)}"
    ),
    "goods_gained": lambda b: (
        f"{_seat(b.seat)} gains {_goods(b.goods)}{f' ({_name(b.source)})' if b.source else ''}"
    ),
    "coins_gained": lambda b: (
        f"{_seat(b.seat)} gains {b.coins} coin{'s' if b.coins != 1 else ''} to spend this turn"
        f"{f' ({_name(b.source)})' if b.source else ''}"
    ),
    "coins_lost": lambda b: (
        f"{_seat(b.seat)} loses {b.coins} unspent coin{'s' if b.coins != 1 else ''}"
    ),
    "good_spent": lambda b: (
        f"{_seat(b.seat)} spends {'a coin' if b.good == 'coin' else f'a {_name(b.good)}'} "
        f"on {_feature(b.feature, b.space)}"
    ),
    "good_sold": lambda b: f"{_seat(b.seat)} sells a {_name(b.good)} for {b.coins} coins",
    "good_shipped": lambda b: (
        f"{_seat(b.seat)} ships a {_name(b.good)} to {_manifest(b.cells)} of the manifest"
    ),
    "good_gifted": _gifted,
    "good_groundskept": lambda b: (
        f"{_seat(b.seat)} groundskeeps a {_name(b.good)} for {b.count} x "
        f"{_MARKS.get(b.mark, _name(b.mark))}"
    ),
    "good_discarded": lambda b: f"{_seat(b.seat)} lets a {_name(b.good)} go",
    "row_completed": lambda b: (
        f"{_seat(b.seat)} completes manifest row {b.row + 1}"
        if b.feature == "manifest"
        else f"{_seat(b.seat)} completes {_title(b.feature)}"
        + (f" row {b.row + 1}" if len(_rows_of(b.feature)) > 1 else "")
    ),
    "unlocked": lambda b: f"{_seat(b.seat)} unlocks {_unlocked(b)}",
    "animal_placed": lambda b: f"{_seat(b.seat)} places a {_name(b.animal)} at {_farm(b.cell)}",
    "animal_moved": lambda b: (
        f"{_seat(b.seat)} moves the animal at {_farm(b.from_cell)} to {_farm(b.to_cell)}"
    ),
    "task_ended": lambda b: (
        f"{_seat(b.seat)} ends the task"
        + (
            f" ({b.actions_left} action{'s' if b.actions_left != 1 else ''} unused)"
            if b.actions_left
            else ""
        )
    ),
    "card_finished": lambda b: (
        f"{_seat(b.seat)} finishes card {b.slot + 1}{' with its bottom half' if b.bottom else ''}"
    ),
    "phase_finished": lambda b: (
        f"{_seat(b.seat)} is done with {_PHASES.get(b.phase, _name(b.phase))}"
    ),
    "time_called": lambda b: (
        f"{_seat(b.seat)} calls time"
        + (
            f": seats {', '.join(str(s) for s in b.stopped)} stop where they are"
            if b.stopped
            else ""
        )
    ),
    "game_finished": _final,
}


def _rows_of(feature: str) -> tuple[tuple[str, ...], ...]:
    info = content().features.get(feature)
    return info.rows if info is not None and info.lined else ((),)


def _unlocked(body: pb.Unlocked) -> str:
    if body.what == "energy":
        return f"an energy bar with {body.amount} charges"
    if body.what == "tool":
        return f"an upgraded {_TASKS.get(body.name, body.name)} tool (+1 action)"
    if body.what == "area":
        return f"{_name(body.name)} fishing"
    if body.what == "animal":
        return f"a {_name(body.name)} to place in a pen"
    if body.what == "explorer":
        return "the seasoned explorer"
    if body.what == "lure":
        return "a lure (+1 fishing action)"
    return f"the {_name(body.name)} {_name(body.what)}".replace("  ", " ").strip()


WORDS = TendWords()
