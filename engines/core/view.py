"""One view envelope for every game: where each part of what a seat sees sits.

Every game's ``view(state, seat)`` returns the same outer shape, so a client written for
one game finds its way around any other::

    {
      "game": "freunde",           # which game
      "viewer": 1,                 # the seat looking; null for a spectator
      "stage": "actions",          # the flow's stage (engines.core.flow)
      "to_act": [1],               # seats that may send a command now
      "finished": false,
      "board": {...},              # everything public about the table as a whole
      "players": [{...}, ...],     # everything public about each seat, in seat order
      "private": {...} | null      # what only the viewer may see; null for a spectator
    }

Inside ``board``, ``players`` and ``private`` each game uses its own words (see its
RULES.md). Two conventions hold everywhere:

- a card (tile, objective...) the viewer may not see is shown as ``null`` in its list,
  so the list keeps its length: ``"hand": [null, null, {"card": 12, ...}]``; use
  :func:`hidden_cards` to write it;
- counts are plain integers (``"deck": 31``); no list ever reveals a deck's order.

Events follow the same rule through :mod:`engines.core.redaction`: a hidden value keeps
its place and becomes the zero of its type.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

__all__ = ["HIDDEN", "envelope", "hidden_cards"]

T = TypeVar("T")

HIDDEN = None


def hidden_cards(
    cards: Iterable[T], visible: bool | Callable[[T], bool], show: Callable[[T], Any]
) -> list[Any]:
    """``cards`` as a viewer sees them: ``show(card)`` where ``visible``, else ``null``."""
    if isinstance(visible, bool):
        return [show(card) if visible else HIDDEN for card in cards]
    return [show(card) if visible(card) else HIDDEN for card in cards]


def envelope(
    *,
    game: str,
    viewer: int | None,
    stage: str,
    to_act: Sequence[int],
    finished: bool,
    board: dict[str, Any],
    players: list[dict[str, Any]],
    private: dict[str, Any] | None,
) -> dict[str, Any]:
    """The view of one seat (``viewer``) or a spectator (``None``), in the common shape."""
    return {
        "game": game,
        "viewer": viewer,
        "stage": stage,
        "to_act": list(to_act),
        "finished": finished,
        "board": board,
        "players": players,
        "private": private if viewer is not None else None,
    }
