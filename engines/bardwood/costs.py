"""Paying a Cost: virtual Melody and Lyric, Songstones, coins.

"Melody and Lyric is gained virtually ... subtract from your virtual total"; "You can
supplement a Lyric or Melody cost by discarding Songstones"; "If a cost is a Songstone,
you must pay a Songstone". The virtual pool is spent first and Songstones make up only
what is missing (the pool vanishes at the end of the turn, Songstones do not, so
spending a Songstone while the pool could pay never helps). Events never take
Bardstones.
"""

from __future__ import annotations

from engines.bardwood import codes
from engines.bardwood.batch import Batch
from engines.bardwood.content import Gains
from engines.bardwood.state import BardwoodState

__all__ = ["affordable", "in_words", "pay", "payment"]

_NAMES = {"melody": "Melody", "lyric": "Lyric", "coin": "coin", "songstone": "Songstone"}


def in_words(cost: Gains) -> str:
    """A cost as a player reads it: "5 Lyric", "3 Melody and 1 coin"."""
    parts = []
    for name, amount in cost:
        plural = "s" if amount > 1 and name in ("coin", "songstone") else ""
        parts.append(f"{amount} {_NAMES[name]}{plural}")
    return " and ".join(parts) or "nothing"


def payment(
    state: BardwoodState, seat: int, cost: Gains, stones: bool = True
) -> dict[str, int] | None:
    """The changes that pay ``cost`` (negative amounts), or ``None`` when it cannot be
    paid. ``stones`` false: no Songstone may make up Melody or Lyric (Events)."""
    need = dict(cost)
    turn, player = state.turn, state.player(seat)
    melody = min(need.get("melody", 0), turn.melody)
    lyric = min(need.get("lyric", 0), turn.lyric)
    short = need.get("melody", 0) - melody + need.get("lyric", 0) - lyric
    if short and not stones:
        return None
    songstones = need.get("songstone", 0) + short
    coins = need.get("coin", 0)
    if songstones > player.songstones or coins > player.coins:
        return None
    changes = {"melody": -melody, "lyric": -lyric, "songstones": -songstones, "coins": -coins}
    return {k: v for k, v in changes.items() if v}


def affordable(state: BardwoodState, seat: int, cost: Gains, stones: bool = True) -> None:
    """Refuse with ``cost.cannot_pay`` unless ``seat`` can pay ``cost`` now."""
    if payment(state, seat, cost, stones) is None:
        raise codes.CANNOT_PAY(cost=in_words(cost))


def pay(batch: Batch, seat: int, cost: Gains, reason: str, stones: bool = True) -> None:
    """Pay ``cost`` or refuse with ``cost.cannot_pay``."""
    changes = payment(batch.state, seat, cost, stones)
    if changes is None:
        raise codes.CANNOT_PAY(cost=in_words(cost))
    if changes:
        batch.add("resources_changed", seat=seat, reason=reason, **changes)
