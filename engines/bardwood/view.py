"""What each seat may see: the board, every player's public side, the viewer's hand.

Secrets: a player's hand, and which cards of its deck are where (no deck order exists;
see ``state``). Everything on the main board is face up, including the Fan deck and the
market decks in order ("you can look at the cards in a Shop deck anytime"), and the
cards put on top of a deck in view of all. Face-down Legends are only a count. In the
event log only ``CardDrawn.card`` is secret, seen by the seat that drew it.
"""

from __future__ import annotations

from typing import Any

from engines.bardwood.acts import active_event
from engines.bardwood.badges import challenge_melody
from engines.bardwood.content import content
from engines.bardwood.market import market_cost
from engines.bardwood.scoring import final_scores
from engines.bardwood.state import BardwoodState
from engines.core.game import Standing
from engines.core.redaction import Redaction, Secret
from proto import bardwood_pb2 as pb

__all__ = ["REDACTION", "board", "players", "private", "standing"]

REDACTION: Redaction[pb.Event] = Redaction(
    pb.Event, {"card_drawn": (Secret("card", owner="seat"),)}
)


def _halves(value: int) -> str:
    """Half points as a player reads them: "23" or "23.5"."""
    return f"{value // 2}.5" if value % 2 else str(value // 2)


def board(state: BardwoodState, viewer: int | None) -> dict[str, Any]:
    """Everything public about the table as a whole."""
    c = content()
    runes = dict(state.legend_runes)
    event = active_event(state)
    turn = state.turn
    return {
        "first_player": state.first_player,
        "options": {
            "short_game": state.short_game,
            "loudstones": state.loudstones,
            "unlocked": state.unlocked,
        },
        "act": state.act,
        "events": list(state.act_events),
        "active_event": event.id if event else None,
        "pools": {"act1": state.act1_pool, "act2": state.act2_pool},
        "act_ending": state.act_ending,
        "end_triggered": state.end_triggered,
        "final_seats": list(state.final_seats),
        "turn": {
            "seat": turn.seat,
            "first": turn.first,
            "final": turn.final,
            "swan_song": turn.swan_song,
            "played": turn.played,
            "discarded": turn.discarded,
            "melody": turn.melody,
            "lyric": turn.lyric,
            "movement": turn.movement,
            "used": list(turn.used),
            "challenged": list(turn.challenged),
            "offer_used": turn.offer_used,
        },
        "choice": (
            {
                "kind": state.choice.kind,
                "seat": state.choice.seat,
                "tier": state.choice.tier,
                "count": state.choice.count,
                "card": state.choice.card,
            }
            if state.choice
            else None
        ),
        "market": [{"location": loc, "cards": list(cards)} for loc, cards in state.market],
        "market_boat": state.market_boat,
        "market_cost": market_cost(state) if state.market else None,
        "fans": list(state.fans),
        "legends": [
            {
                "tier": tier.tier,
                "cost": dict(tier.cost),
                "vp": tier.vp,
                "face_up": [
                    {"legend": legend, "rune": runes.get(legend)}
                    for legend in state.legends_up[tier.tier - 1]
                ],
                "face_down": state.legends_down[tier.tier - 1],
            }
            for tier in c.tiers
            if state.legends_up
        ],
        "perform": [
            {"spot": i, "lyric": spot.lyric, "vp": spot.vp, "rune": None if seat < 0 else seat}
            for i, (spot, seat) in enumerate(zip(c.perform_spots, state.perform, strict=False))
        ],
        "creatures": [
            {"location": pile.location, "cards": list(pile.cards), "badges": list(pile.badges)}
            for pile in state.piles
        ],
        "bank": list(state.bank),
        "motifs": [
            {"slot": slot, "motif": motif or None, "vp_side": side}
            for slot, (motif, side) in enumerate(state.motifs)
        ],
    }


def players(state: BardwoodState, viewer: int | None) -> list[dict[str, Any]]:
    """Everything public about each seat, in seat order."""
    c = content()
    out = []
    for seat, player in enumerate(state.players):
        out.append(
            {
                "seat": seat,
                "character": player.character or None,
                "space": player.space or None,
                "boat": player.boat,
                "discount": c.legend_discounts[player.boat],
                "tempo_area": player.area,
                "song_triggered": player.song_triggered,
                "volume": player.volume,
                "coins": player.coins,
                "songstones": player.songstones,
                "rangestones": player.rangestones,
                "loudstones": player.loudstones,
                "crystals": player.crystals,
                "score": player.crystals,
                "runes": list(player.runes),
                "badges": player.badges,
                "held_badges": player.held,
                "challenge_melody": challenge_melody(state, seat) if player.character else None,
                "hand_size": len(player.hand),
                "deck_size": player.deck_size,
                "deck_top": list(player.known),
                "discard": list(player.discard),
                "song": [
                    {
                        "card": held.card,
                        "paid": held.paid,
                        "top_uses": list(held.top_uses),
                        "paid_uses": list(held.paid_uses),
                    }
                    for held in player.song
                ],
                "creatures": [list(spot) for spot in player.creatures],
            }
        )
    return out


def private(state: BardwoodState, seat: int) -> dict[str, Any]:
    """The viewer's hand, and what is in its deck (sorted: the deck keeps no order)."""
    if seat >= len(state.players):
        return {"hand": [], "deck_unseen": []}
    player = state.player(seat)
    return {"hand": list(player.hand), "deck_unseen": list(player.unseen)}


def standing(state: BardwoodState) -> Standing:
    """Green crystals during the game; the final totals (rounded down, exact in the
    breakdown) once it is over."""
    if not state.finished:
        return Standing(scores=tuple(p.crystals for p in state.players))
    scores = final_scores(state)
    breakdown = {
        str(s.seat): {
            "total": _halves(s.total_halves),
            "total_halves": s.total_halves,
            "crystals": s.crystals,
            "legends": s.legends,
            "blue": _halves(s.blue_halves),
            "stones": s.stones,
        }
        for s in scores
    }
    return Standing(
        scores=tuple(s.total_halves // 2 for s in scores),
        winners=state.winners,
        breakdown=breakdown,
    )
