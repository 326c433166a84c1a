"""The supply: gaining Volume, coins, Bardstones, Melody, Lyric and movement points.

Composition › Gaining Volume ("any Volume gained that would increase your total beyond 6
is lost") and Bardstones › Loudstone (with Loudstones in the game, Volume passing 6 is
spent for a Loudstone on the way: 5 + 4 gives a Loudstone and 3). Activating Locations:
"Resources are not limited".
"""

from __future__ import annotations

from engines.bardwood.batch import Batch
from engines.bardwood.content import content
from engines.bardwood.state import BardwoodState

__all__ = ["TURN_ONLY", "on_turn", "receive", "volume_after"]

# Resources that live only in the current turn (lost when it ends).
TURN_ONLY = ("melody", "lyric", "movement")

_FIELDS = {
    "volume": "volume",
    "coin": "coins",
    "songstone": "songstones",
    "rangestone": "rangestones",
    "loudstone": "loudstones",
    "melody": "melody",
    "lyric": "lyric",
    "move": "movement",
}


def volume_after(volume: int, gained: int, loudstones: bool) -> tuple[int, int]:
    """Gaining Volume: ``(new volume, Loudstones made)``.

    Without Loudstones whatever passes 6 is lost; with them each time the track would
    pass 6, 6 Volume become a Loudstone and the rest of the gain goes on.
    """
    c = content()
    total = volume + gained
    if not loudstones:
        return min(total, c.volume_max), 0
    made = 0
    while total > c.volume_max:
        total -= c.loudstone_volume
        made += 1
    return total, made


def on_turn(state: BardwoodState, seat: int) -> bool:
    """Whether ``seat`` is composing or Singing now (turn resources count only then)."""
    return state.turn.seat == seat and state.phase in ("compose", "sing")


def receive(batch: Batch, seat: int, reason: str, gains: dict[str, int]) -> None:
    """Add supply gains (keys as in the content: "volume", "coin", "move", ...).

    Melody, Lyric and movement points belong to the turn: gained by anyone else, or
    in Downtime, they are lost at once.
    """
    state = batch.state
    deltas: dict[str, int] = {}
    for name, amount in gains.items():
        field = _FIELDS[name]
        if field in TURN_ONLY and not on_turn(state, seat):
            continue
        deltas[field] = deltas.get(field, 0) + amount
    if "volume" in deltas:
        player = state.player(seat)
        volume, made = volume_after(player.volume, deltas["volume"], state.loudstones)
        deltas["volume"] = volume - player.volume
        if made:
            deltas["loudstones"] = deltas.get("loudstones", 0) + made
    deltas = {k: v for k, v in deltas.items() if v}
    if deltas:
        batch.add("resources_changed", seat=seat, reason=reason, **deltas)
