"""Rotating Tempo, Covered Bonuses, Preparing to Sing, and the counter-clockwise icon.

The wheel's areas are numbered clockwise from noon, where the Song tracker waits; the
icon passes the tracker when it turns clockwise out of the last area into the first.
"""

from __future__ import annotations

from engines.bardwood.batch import Batch
from engines.bardwood.content import content
from engines.bardwood.crystals import take_crystals
from engines.bardwood.supply import on_turn, receive

__all__ = ["singing_now", "turn_tempo", "turn_tempo_back"]


def singing_now(batch: Batch, seat: int) -> bool:
    """Whether ``seat`` is Singing its Song right now."""
    state = batch.state
    return state.phase == "sing" and state.turn.seat == seat


def turn_tempo(batch: Batch, seat: int, steps: int) -> None:
    """Rotating Tempo: turn clockwise ``steps`` spaces (always in full); gain the area's
    movement points and, once both its Runes are gone, its bonus. Passing noon moves
    the Song tracker to the Song, unless it is there already or the Song is being sung
    ("you can never Sing a Song more than once a turn")."""
    if steps <= 0:
        return
    areas = len(content().tempo_areas)
    player = batch.state.player(seat)
    total = player.area + steps
    end = total % areas
    batch.add("tempo_turned", seat=seat, steps=steps, area=end)
    if total >= areas and not player.song_triggered and not singing_now(batch, seat):
        batch.add("song_triggered", seat=seat)
    _area_benefits(batch, seat, end)


def _area_benefits(batch: Batch, seat: int, area: int) -> None:
    spec = content().tempo_areas[area]
    if on_turn(batch.state, seat):
        receive(batch, seat, "tempo", {"move": spec.move})
    if batch.state.player(seat).runes[area] == 0:
        bonus = dict(spec.bonus)
        take_crystals(batch, seat, bonus.pop("vp", 0), "tempo")
        receive(batch, seat, "bonus", bonus)


def turn_tempo_back(batch: Batch, seat: int, steps: int = 1) -> None:
    """Icons › counter-clockwise: turn back ``steps`` spaces. It gains nothing and never
    cancels a Song already triggered (the tracker stays where it is)."""
    if steps <= 0:
        return
    areas = len(content().tempo_areas)
    end = (batch.state.player(seat).area - steps) % areas
    batch.add("tempo_turned", seat=seat, steps=-steps, area=end)
