"""Icons: gaining what a card, a Fan, a Creature, a Motif or a reward shows.

Supply icons add to the supply; a VP crystal is taken from the pools; Tempo turns the
wheel (clockwise in full, or back one space); a Fan icon takes the top Fan; Boast
discards the top of each Creature pile; the Motif icon lets the player choose a Motif
whose benefit it gains at no cost. Icons are gained in the content's order, so a Motif
of the Crowd gives its Fan before its Boast.
"""

from __future__ import annotations

from engines.bardwood.batch import Batch
from engines.bardwood.boast import boast_piles
from engines.bardwood.content import Gains
from engines.bardwood.crystals import take_crystals
from engines.bardwood.perform import take_fan
from engines.bardwood.supply import receive
from engines.bardwood.tempo import turn_tempo, turn_tempo_back

__all__ = ["gain"]

_SUPPLY = frozenset(
    {"melody", "lyric", "volume", "coin", "songstone", "rangestone", "loudstone", "move"}
)


def gain(batch: Batch, seat: int, gains: Gains, reason: str) -> None:
    """``seat`` gains every icon of ``gains``."""
    receive(batch, seat, reason, {name: n for name, n in gains if name in _SUPPLY})
    for name, amount in gains:
        if name == "vp":
            take_crystals(batch, seat, amount, reason)
        elif name == "tempo":
            turn_tempo(batch, seat, amount)
        elif name == "tempo_back":
            turn_tempo_back(batch, seat, amount)
        elif name == "fan":
            for _ in range(amount):
                take_fan(batch, seat)
        elif name == "boast":
            boast_piles(batch, seat)
        elif name == "motif" and any(motif for motif, _ in batch.state.motifs):
            for _ in range(amount):
                batch.add("choice_opened", seat=seat, kind="choose_motif")
