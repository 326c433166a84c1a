"""What a seat sees of a Tend table: everything, since Tend keeps no secret.

Every sheet is public at the table, and the only hidden things of the game are the
decks' order and the unscratched squares of each scratch-off card, which the engine does
not hold at all (it draws them when they are revealed): the views show how many cards
each deck holds and what each half of a woods or mine still holds in total, never
anything more. The view carries every sheet in full, so a client can draw the farm
sheet, the cargo sheet and the scratch-off card from it.

Numbers follow ``proto/tend.proto``: farm cells, manifest cells and scratch squares are
numbered row by row.
"""

from __future__ import annotations

from typing import Any

from engines.core.redaction import Redaction
from engines.tend.content import Square, content
from engines.tend.scoring import final_score
from engines.tend.scratch_off import preview
from engines.tend.stages import step_of
from engines.tend.state import Player, Scratch, Task, TendState
from proto import tend_pb2 as pb

__all__ = ["REDACTION", "board", "players", "private"]

REDACTION: Redaction[pb.Event] = Redaction(pb.Event, {})
"""Tend's events carry no secret: every draw is recorded when it is revealed."""


def _square(square: Square) -> dict[str, Any]:
    """What a square shows: its good, a level arrow, extra actions, coins (each only
    when there)."""
    shown: dict[str, Any] = {"good": square.good} if square.good else {}
    if square.level:
        shown["level"] = True
    if square.actions:
        shown["actions"] = square.actions
    if square.coins:
        shown["coins"] = square.coins
    if square.good and square.amount > 1:
        shown["amount"] = square.amount
    return shown


def _counted(squares: list[Square]) -> list[dict[str, Any]]:
    """A preview as each kind of square and how many the half holds."""
    counts: dict[Square, int] = {}
    for square in squares:
        counts[square] = counts.get(square, 0) + 1
    return [{**_square(square), "count": count} for square, count in counts.items()]


def _scratch(area: str, scratch: Scratch) -> dict[str, Any]:
    """The printed card (rocks, path, each half's preview) and what is scratched; what a
    half still holds is its preview less the squares scratched in it."""
    return {
        "rocks": list(scratch.rocks),
        "path": list(scratch.path),
        "top": _counted(preview(area, scratch, True)),
        "bottom": _counted(preview(area, scratch, False)),
        "scratched": [{"square": n, **_square(s)} for n, s in scratch.scratched],
    }


def _task(task: Task | None) -> dict[str, Any] | None:
    if task is None:
        return None
    return {
        "task": task.kind,
        "actions": task.actions,
        "source": task.source,
        "energy_used": task.energy_used,
        "area": task.area,
        "black": task.black,
        "white": task.white,
        "centre": task.centre,
        "rod": task.rod,
        "caught": list(task.caught),
    }


def _sheets(player: Player) -> dict[str, Any]:
    crossed: dict[str, list[int]] = {}
    for feature, space in player.crossed:
        crossed.setdefault(feature, []).append(space)
    rows: dict[str, list[int]] = {}
    for feature, row in player.rows_done:
        rows.setdefault(feature, []).append(row)
    return {
        "crossed": crossed,
        "rows_done": rows,
        "tools": list(player.tools),
        "rods": list(player.rods),
        "lure": player.lure,
        "energy": [{"bar": bar, "charges": charges} for bar, charges in player.energy],
        "areas": ["pond", *(a for a in content().areas if a in player.areas)],
        "abilities": list(player.abilities),
        "explorer": player.explorer,
        "badges": list(player.badges),
        "levels": {"chop": player.chop_level, "mine": player.mine_level},
    }


def _player(state: TendState, seat: int) -> dict[str, Any]:
    player = state.players[seat]
    score = next((f for f in state.final if f.seat == seat), None) or final_score(state, seat)
    return {
        "seat": seat,
        "step": "finished" if state.phase == "finished" else step_of(state, seat),
        "farm": {
            "tilled": list(player.tilled),
            "fences": list(player.fences),
            "trellises": list(player.trellises),
            "dice": [{"die": d.die, "cell": d.cell, "value": d.value} for d in player.dice],
            "owed_animals": list(player.owed_animals),
        },
        "sheets": _sheets(player),
        "woods": _scratch("woods", player.woods),
        "mine": _scratch("mine", player.mine),
        "manifest": [{"good": good, "cells": list(cells)} for good, cells in player.shipped],
        "neighbours": {
            "left": player.left,
            "right": player.right,
            "drawn": {side: list(cards) for side, cards in player.drawn},
            "gifts": list(player.gifts),
            "incoming": list(player.incoming),
            "track_left": player.track_left,
            "track_right": player.track_right,
        },
        "turn": {
            "coins": player.purse,
            "holding": list(player.pending),
            "geodes": [{"black": b, "white": w} for b, w in player.geodes],
            "card": state.row[player.card] if player.card >= 0 else "",
            "slot": player.card,
            "half": player.half,
            "task": _task(player.task),
            "waiting": [
                {"task": w.task, "bonus": w.bonus, "source": w.source}
                for w in (*player.line, *player.bonus)
            ],
            "chosen": list(player.chosen),
            "done": player.done,
        },
        "score": {
            "objectives": list(score.objectives),
            "stalls": list(score.stalls),
            "badges": score.badges,
            "doubled": score.doubled,
            "neighbour": score.neighbour,
            "total": score.total,
        },
    }


def board(state: TendState, viewer: int | None) -> dict[str, Any]:
    """The table: round and phase, objectives, the task row and the decks (as counts)."""
    return {
        "round": state.round,
        "phase": state.phase,
        "objectives": list(state.objectives),
        "row": list(state.row),
        "upcoming": [{"top": u.top, "below": len(u.seasons)} for u in state.upcoming],
        "task_deck": len(state.task_deck),
        "task_discard": len(state.task_discard),
        "neighbour_deck": len(state.neighbour_deck),
        "neighbour_discard": len(state.neighbour_discard),
        "advanced_cards": state.advanced_cards,
        "round_timer": state.round_timer,
        "winners": list(state.winners),
    }


def players(state: TendState, viewer: int | None) -> list[dict[str, Any]]:
    return [_player(state, seat) for seat in range(state.seats)]


def private(state: TendState, seat: int) -> dict[str, Any]:
    """Nothing is private in Tend (see the module docstring)."""
    return {}
