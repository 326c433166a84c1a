"""Game End: building points, unharvested crops, bushes, coins; ties on leftovers."""

from __future__ import annotations

from engines.harvest.content import content
from engines.harvest.state import FinalScore, HarvestState, Player

__all__ = ["final_scores", "winners"]


def _final(seat: int, player: Player) -> FinalScore:
    """Game End 1-4: buildings 2 each (Bed & Breakfast 5), 1 per unharvested crop
    (Blueberries on bushes count, bushes do not), 2 per Bush, 1 per 2 Coins."""
    c = content()
    buildings = sum(c.building_value(b.building) for b in player.buildings)
    crops = sum(1 for x in player.crops if x.kind != "bush") + sum(
        1 for x in player.crops if x.berry
    )
    bushes = 2 * sum(1 for x in player.crops if x.kind == "bush")
    coins = player.coins // 2
    leftovers = player.coins + player.water + player.fertilizer + sum(player.seeds)
    return FinalScore(
        seat=seat,
        total=player.points + buildings + crops + bushes + coins,
        track=player.points,
        buildings=buildings,
        crops=crops,
        bushes=bushes,
        coins=coins,
        leftovers=leftovers,
    )


def final_scores(state: HarvestState) -> tuple[FinalScore, ...]:
    return tuple(_final(seat, p) for seat, p in enumerate(state.players))


def winners(scores: tuple[FinalScore, ...]) -> tuple[int, ...]:
    """Most points; ties go to the most leftover resources; still tied, shared."""
    best = max((s.total, s.leftovers) for s in scores)
    return tuple(s.seat for s in scores if (s.total, s.leftovers) == best)
