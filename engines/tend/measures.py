"""What season objectives and conditional cards count on a player's sheets.

The FAQ: the starting tilled soil counts for objectives and card bonuses (so do the
printed fences).
"""

from __future__ import annotations

from collections.abc import Callable

from engines.tend.content import Condition, content
from engines.tend.state import Player

__all__ = ["MEASURES", "holds", "measure", "shipped_of_type"]


def _kinds(player: Player, kind: str) -> int:
    dice = content().dice
    return sum(dice[d.die].kind == kind for d in player.dice)


def shipped_of_type(player: Player, kind: str) -> int:
    goods = content().goods
    return sum(goods[good].type == kind for good, _ in player.shipped)


def _rows(player: Player, group: str) -> int:
    features = content().features
    return sum(
        1
        for feature, _ in player.rows_done
        if feature in features and features[feature].group == group
    )


MEASURES: dict[str, Callable[[Player], int]] = {
    "animals": lambda p: _kinds(p, "animal"),
    "crops": lambda p: _kinds(p, "crop"),
    "tilled": lambda p: len(p.tilled),
    "fences": lambda p: len(p.fences),
    "trellises": lambda p: len(p.trellises),
    "energy_bars": lambda p: len(p.energy),
    "tools": lambda p: len(p.tools),
    "fishing_upgrades": lambda p: len(p.rods) + int(p.lure),
    "upgrades": lambda p: len(p.tools) + len(p.rods) + int(p.lure),
    "chop_level": lambda p: p.chop_level,
    "mine_level": lambda p: p.mine_level,
    "levels": lambda p: p.chop_level + p.mine_level - 2 * content().level_start,
    "areas": lambda p: len(p.areas),
    "scratched": lambda p: len(p.woods.scratched) + len(p.mine.scratched),
    "cargo_boxes": lambda p: sum(len(cells) for _, cells in p.shipped),
    "cargo_rows": lambda p: sum(1 for feature, _ in p.rows_done if feature == "manifest"),
    "fish_shipped": lambda p: shipped_of_type(p, "fish"),
    "farm_shipped": lambda p: shipped_of_type(p, "farm"),
    "mining_shipped": lambda p: shipped_of_type(p, "mining"),
    "project_rows": lambda p: _rows(p, "badge"),
    "badges": lambda p: len(p.badges),
    "neighbour_boxes": lambda p: p.track_left + p.track_right,
    "specials": lambda p: _rows(p, "special"),
}


def measure(player: Player, name: str) -> int:
    """The player's count of ``name`` (a key of ``MEASURES``)."""
    return MEASURES[name](player)


def holds(player: Player, condition: Condition) -> bool:
    """Whether a conditional card's condition holds for the player now."""
    if condition.area:
        return condition.area in player.areas
    return measure(player, condition.measure) >= condition.at_least
