"""Sunrise Phase: reveal the display, take a new tile, gain the Sunrise benefits."""

from __future__ import annotations

from engines.core.deck import draw, shuffled
from engines.core.rng import Rng
from engines.harvest import codes
from engines.harvest.characters import sunrise_coin_delta, sunrise_tasks
from engines.harvest.content import TaskSpec, content
from engines.harvest.events import granted, sunrise_taken, wrap
from engines.harvest.state import HarvestState
from proto import harvest_pb2 as pb

__all__ = ["choose_sunrise", "reveal_sunrise", "sunrise_benefits"]


def sunrise_benefits(state: HarvestState, seat: int, tile: int) -> list[TaskSpec]:
    """Sunrise Phase 2: the tile's Coins and benefit, the Farmhouse, the Character.

    Jaime gains 1 Coin fewer from the tile; Remi and Rose add their own choice.
    """
    c = content()
    player = state.players[seat]
    coins, benefit = c.sunrise_tile(tile)
    coins = max(0, coins + sunrise_coin_delta(player))
    tasks: list[TaskSpec] = [("coin", coins)] if coins else []
    tasks.append(benefit)
    if player.farmhouse:
        tasks.extend(c.farmhouse_tasks(player.farmhouse))
    tasks.extend(sunrise_tasks(player))
    return tasks


def choose_sunrise(state: HarvestState, cmd: pb.ChooseSunrise, seat: int) -> list[pb.Event]:
    """Sunrise Phase 2: take a tile from the display, leaving your old one in its place."""
    if cmd.tile not in state.display:
        raise codes.SUNRISE_NOT_IN_DISPLAY()
    return [
        sunrise_taken(seat, cmd.tile),
        granted(seat, "sunrise", sunrise_benefits(state, seat, cmd.tile), new_step=True),
    ]


def reveal_sunrise(state: HarvestState, rng: Rng, round_number: int) -> pb.Event:
    """Sunrise Phase 1 (and Gairy's Sunrise): reveal 3 tiles, one more for Gairy."""
    c = content()
    held = {p.sunrise for p in state.players}
    pool = sorted(number for number, _, _ in c.sunrise if number not in held)
    revealed, rest = draw(shuffled(pool, rng), 3)
    tiles = sorted(revealed)
    gairy = rest[0] if state.gairy_tiles_per_turn and rest else 0
    return wrap(
        sunrise_revealed=pb.SunriseRevealed(round=round_number, tiles=tiles, gairy_tile=gairy)
    )
