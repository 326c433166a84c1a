"""What a seat may see: the view's board, players and private parts, and the secrets
of events (``REDACTION``).

The only secrets are the two Characters and two Farmhouses dealt to each seat (the
unkept ones are never shown to another seat), and what each seat kept until every seat
has chosen; stacks hold no order (tiles are drawn when revealed), so they show as counts.
"""

from __future__ import annotations

from typing import Any

from engines.core.redaction import BY_INDEX, Redaction, Secret
from engines.harvest.content import content
from engines.harvest.events import cell_numbers
from engines.harvest.rules import SEED_FIELDS, stack_count
from engines.harvest.state import HarvestState, Player, Step
from proto import harvest_pb2 as pb

__all__ = ["REDACTION", "board", "players", "private"]


def _dealt_in_secret(set_up: pb.GameSetUp) -> bool:
    """First-game combos are dealt face up; other deals are each seat's own."""
    return not set_up.first_game


REDACTION: Redaction[pb.Event] = Redaction(
    pb.Event,
    {
        "game_set_up": (
            Secret("deals.characters", owner=BY_INDEX, when=_dealt_in_secret),
            Secret("deals.farmhouses", owner=BY_INDEX, when=_dealt_in_secret),
        ),
        # Player Setup 2 is simultaneous: a kept pair shows once all have chosen.
        "start_kept": (
            Secret("character", owner="seat"),
            Secret("farmhouse", owner="seat"),
        ),
    },
)


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


def board(state: HarvestState, seat: int | None) -> dict[str, Any]:
    """The Town Board and the round: everything public about the table as a whole."""
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
        "final": [
            {"seat": f.seat, "total": f.total, "leftovers": f.leftovers} for f in state.final
        ],
        "winners": list(state.winners),
    }


def _player(seat: int, player: Player, shown: bool) -> dict[str, Any]:
    return {
        "seat": seat,
        "character": player.character if shown else None,
        "farmhouse": player.farmhouse if shown else None,
        "sunrise": player.sunrise,
        "coins": player.coins,
        "water": player.water,
        "bucket": player.bucket,
        "fertilizer": player.fertilizer,
        "points": player.points,
        "seeds": dict(zip(SEED_FIELDS, player.seeds, strict=True)),
        "rerolls": player.rerolls,
        "pieces": player.pieces,
        "forests": cell_numbers(player.forests),
        "crops": [
            {"crop": c.kind, "cells": cell_numbers(c.cells), "berry": c.berry} for c in player.crops
        ],
        "buildings": [
            {"building": b.building, "cells": cell_numbers(b.cells)} for b in player.buildings
        ],
    }


def players(state: HarvestState, seat: int | None) -> list[dict[str, Any]]:
    """Each farm, in seat order; while seats choose, another seat's kept Character and
    Farmhouse show as ``null``."""
    choosing = state.phase == "choose_start"
    return [
        _player(index, player, shown=not choosing or index == seat)
        for index, player in enumerate(state.players)
    ]


def private(state: HarvestState, seat: int) -> dict[str, Any]:
    """The Characters and Farmhouses dealt to the seat (the kept ones among them); none
    before set-up (a replay of version 0)."""
    if seat >= len(state.players):
        return {"dealt_characters": [], "dealt_farmhouses": []}
    player = state.players[seat]
    return {
        "dealt_characters": list(player.dealt_characters),
        "dealt_farmhouses": list(player.dealt_farmhouses),
    }
