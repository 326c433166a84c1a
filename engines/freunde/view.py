"""What each seat sees of a Freunde table, in the common envelope (engines.core.view).

``board`` and ``players`` are the same for every viewer, spectators included; only
``private`` differs. A hidden card is ``null`` in its list, so the list keeps its
length: every player's ``hand`` is a list of ``null`` as long as the hand (card backs
show their kind, so ``hand_kinds`` counts them), and ``board.drawn_plots`` holds one
``null`` per plot the player to act is choosing from. The viewer's own hand and, while
it chooses, its drawn plots are in ``private``. Decks are counts; no list shows a
deck's order.

board:    round, round_limit, first_player, weather, actions_taken, actions_allowed,
          drawn_plots, pond, garden (one entry per plot: q, r, tile, colour,
          improvement, bamboo, irrigated), channels, gardener, panda, supply, decks,
          emperor, winners, end_reason
players:  seat, hand, hand_kinds, claimed, bamboo, irrigation, improvements, emperor, score
private:  hand (cards: card, kind, name, points), drawn_plots (tiles: tile, colour,
          improvement)
"""

from __future__ import annotations

from typing import Any

from engines.core.view import hidden_cards
from engines.freunde.actions import action_limit
from engines.freunde.content import OBJECTIVES, TILES
from engines.freunde.game_end import score
from engines.freunde.garden import improvement_at, is_irrigated
from engines.freunde.state import COLOURS, IMPROVEMENTS, KINDS, POND, FreundeState, Triple

__all__ = ["board", "card", "players", "private", "tile"]


def _triple(names: tuple[str, ...], values: Triple) -> dict[str, int]:
    return dict(zip(names, values, strict=True))


def card(card_id: int) -> dict[str, Any]:
    """An objective card as a viewer allowed to see it sees it."""
    obj = OBJECTIVES[card_id]
    return {"card": card_id, "kind": obj.kind, "name": obj.name, "points": obj.points}


def tile(tile_id: int) -> dict[str, Any]:
    """A plot tile, with its printed improvement ("none" when blank)."""
    printed = TILES[tile_id]
    return {"tile": tile_id, "colour": printed.colour, "improvement": printed.improvement}


def _garden(state: FreundeState) -> list[dict[str, Any]]:
    garden = state.garden
    return [
        {
            "q": h[0],
            "r": h[1],
            **tile(tile_id),
            "improvement": improvement_at(state, h),
            "bamboo": state.bamboo.get(h, 0),
            "irrigated": is_irrigated(state, h),
        }
        for h, tile_id in sorted(garden.plots.items())
    ]


def board(state: FreundeState, viewer: int | None) -> dict[str, Any]:
    """Everything public about the table as a whole."""
    turn, garden, supply = state.turn, state.garden, state.supply
    return {
        "round": turn.round,
        "round_limit": state.round_limit,
        "first_player": state.first_player,
        "weather": state.weather,
        "actions_taken": list(state.actions),
        "actions_allowed": action_limit(state),
        "drawn_plots": hidden_cards(turn.drawn_plots, False, tile),
        "pond": {"q": POND[0], "r": POND[1]},
        "garden": _garden(state),
        "channels": [[list(a), list(b)] for a, b in sorted(garden.channels)],
        "gardener": list(state.gardener),
        "panda": list(state.panda),
        "supply": {
            "bamboo": _triple(COLOURS, supply.bamboo),
            "irrigation": supply.irrigation,
            "improvements": _triple(IMPROVEMENTS, supply.improvements),
        },
        "decks": {
            "plots": len(state.plot_stack),
            **{kind: len(deck) for kind, deck in zip(KINDS, state.decks, strict=True)},
        },
        "emperor": state.emperor if state.emperor >= 0 else None,
        "winners": list(state.winners),
        "end_reason": state.end_reason,
    }


def players(state: FreundeState, viewer: int | None) -> list[dict[str, Any]]:
    """Everything public about each seat: hand sizes and kinds, never the cards."""
    out = []
    for seat, player in enumerate(state.players):
        kinds = [OBJECTIVES[c].kind for c in player.hand]
        out.append(
            {
                "seat": seat,
                "hand": hidden_cards(player.hand, False, card),
                "hand_kinds": {kind: kinds.count(kind) for kind in KINDS},
                "claimed": [card(c) for c in player.claimed],
                "bamboo": _triple(COLOURS, player.bamboo),
                "irrigation": player.irrigation,
                "improvements": _triple(IMPROVEMENTS, player.improvements),
                "emperor": state.emperor == seat,
                "score": score(state, seat),
            }
        )
    return out


def private(state: FreundeState, seat: int) -> dict[str, Any]:
    """The viewer's own hand, and the plots it drew while it chooses one."""
    if not 0 <= seat < state.seats:
        return {"hand": [], "drawn_plots": []}
    drawing = seat == state.turn.seat
    return {
        "hand": [card(c) for c in state.players[seat].hand],
        "drawn_plots": [tile(t) for t in state.turn.drawn_plots] if drawing else [],
    }
