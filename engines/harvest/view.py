"""What a seat may see: ``view`` and ``redact``.

The only secrets are the two Characters and two Farmhouses dealt to each seat (the
unkept ones are never shown), and what each seat kept until every seat has chosen;
stacks hold no order (tiles are drawn when revealed).
"""

from __future__ import annotations

from typing import Any

from engines.harvest.content import content
from engines.harvest.events import cell_numbers
from engines.harvest.rules import stack_count
from engines.harvest.state import HarvestState, Player, Step
from proto import harvest_pb2 as pb

__all__ = ["redact", "view"]


def _player(player: Player, mine: bool, choosing: bool) -> dict[str, Any]:
    hidden = choosing and not mine
    out: dict[str, Any] = {
        "character": "" if hidden else player.character,
        "farmhouse": "" if hidden else player.farmhouse,
        "sunrise": player.sunrise,
        "coins": player.coins,
        "water": player.water,
        "bucket": player.bucket,
        "fertilizer": player.fertilizer,
        "points": player.points,
        "seeds": dict(
            zip(("wheat", "strawberry", "blueberry", "pumpkin"), player.seeds, strict=True)
        ),
        "rerolls": player.rerolls,
        "pieces": player.pieces,
        "forests": [cell_numbers([f])[0] for f in player.forests],
        "crops": [
            {"crop": c.kind, "cells": cell_numbers(c.cells), "berry": c.berry} for c in player.crops
        ],
        "buildings": [
            {"building": b.building, "cells": cell_numbers(b.cells)} for b in player.buildings
        ],
    }
    if mine and choosing:
        out["dealt_characters"] = list(player.dealt_characters)
        out["dealt_farmhouses"] = list(player.dealt_farmhouses)
    return out


def _step(step: Step) -> dict[str, Any]:
    return {
        "seat": step.seat,
        "source": step.source,
        "tasks": [{"kind": t.kind, "amount": t.amount} for t in step.tasks],
        "used": sorted(step.used),
        "mode": step.mode,
        "owed": step.owed,
    }


def _challenge(challenge_id: str) -> dict[str, Any] | None:
    """The solo challenge being played, with its goals, for the player to read."""
    challenge = content().challenge(challenge_id)
    if challenge is None:
        return None
    return {"id": challenge.id, "title": challenge.title, "text": challenge.text}


def view(state: HarvestState, seat: int | None) -> dict[str, Any]:
    """Everything public, plus the seat's own dealt choices while it is choosing."""
    choosing = state.phase == "choose_start"
    return {
        "phase": state.phase,
        "round": state.round,
        "turn": state.turn,
        "awaiting": state.awaiting,
        "order": list(state.order),
        "display": list(state.display),
        "gairy": {
            "sunrise": state.gairy_sunrise,
            "pieces": state.gairy_pieces,
            "revealed": sorted(state.gairy_revealed),
        }
        if state.gairy_tiles_per_turn
        else None,
        "placements": [{"space": s, "seat": p} for s, p in state.placements],
        "workshop": list(state.workshop),
        "building_stack": max(stack_count(state), 0) if state.players else 0,
        "market": {"large": state.market_large, "small": state.market_small},
        "steps": [_step(s) for s in state.steps],
        "draft": {
            "characters": list(state.draft_characters),
            "farmhouses": list(state.draft_farmhouses),
        }
        if state.draft
        else None,
        "challenge": _challenge(state.challenge),
        "players": [_player(p, i == seat, choosing) for i, p in enumerate(state.players)],
        "final": [
            {"seat": f.seat, "total": f.total, "leftovers": f.leftovers} for f in state.final
        ],
        "winners": list(state.winners),
    }


def redact(event: pb.Event, seat: int | None) -> pb.Event:
    """The event as ``seat`` sees it: other seats' dealt Characters and Farmhouses removed,
    and their kept ones until everyone has chosen (``StartsRevealed``)."""
    kind = event.WhichOneof("kind")
    if kind == "start_kept" and event.start_kept.seat != seat:
        return pb.Event(start_kept=pb.StartKept(seat=event.start_kept.seat))
    if kind != "game_set_up" or event.game_set_up.first_game:
        return event
    hidden = pb.Event()
    hidden.CopyFrom(event)
    for index, deal in enumerate(hidden.game_set_up.deals):
        if index != seat:
            del deal.characters[:]
            del deal.farmhouses[:]
    return hidden
