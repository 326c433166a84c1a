"""Characters: each ability as one small question the other rules ask.

The abilities themselves are data (``data/characters.json``); this module names them.
"""

from __future__ import annotations

from functools import cache

from engines.harvest.content import TaskSpec, content
from engines.harvest.state import Player

__all__ = [
    "builds_free",
    "extra_field_action",
    "moves_after_placement",
    "pays_with_goods",
    "plant_discount",
    "start_bucket",
    "sunrise_coin_delta",
    "sunrise_tasks",
]


@cache
def _having(ability: str) -> frozenset[str]:
    """The Characters with a yes-or-no ability (read once: the listing asks for every
    payment and build it lists)."""
    return frozenset(name for name, rules in content().character_rules if rules.get(ability))


def pays_with_goods(player: Player) -> bool:
    """River the Fox: Coin costs may be paid with Fertilizer, Water and Coins."""
    return player.character in _having("pays_with_resources")


def builds_free(player: Player) -> bool:
    """Floyd the Beaver: no Coin cost to build."""
    return player.character in _having("builds_free")


def plant_discount(player: Player) -> int:
    """Penny the Pig: crops need this much less Fertilizer to plant."""
    return int(content().character(player.character).get("plant_discount", 0))


def extra_field_action(player: Player) -> bool:
    """Mick the Badger: one extra Field Action per Action-Phase turn."""
    return player.character in _having("extra_field_action")


def moves_after_placement(player: Player) -> bool:
    """Jaime the Rabbit: may move a piece after all placements."""
    return player.character in _having("moves_after_placement")


def sunrise_coin_delta(player: Player) -> int:
    """Jaime the Rabbit: 1 Coin fewer from the Sunrise tile."""
    return int(content().character(player.character).get("sunrise_coin_delta", 0))


def sunrise_tasks(player: Player) -> list[TaskSpec]:
    """Remi's and Rose's own Sunrise choices."""
    raw = content().character(player.character).get("sunrise_tasks", [])
    return [(str(kind), int(amount)) for kind, amount in raw]


def start_bucket(character: str) -> int:
    """Leland the Frog: the Bucket's starting space (0: the usual one)."""
    return int(content().character(character).get("start_bucket", 0))
