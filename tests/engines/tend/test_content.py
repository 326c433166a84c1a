"""Tend's content: the counts the rulebook gives, every reference resolves, every entry
says where it comes from, and the rulebook's own numbers are in the data."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from engines.core.polyomino import neighbors
from engines.tend.content import DATA, TASKS, Effect, content

ICON_REFERENCE = {
    "farm": ["pineapple", "wild_fruit", "pumpkin", "berries", "egg", "wool", "milk"],
    "fish": [
        "mamble",
        "sunpop",
        "blobber",
        "geojell",
        "pebblepuff",
        "crankle",
        "nessel",
        "lillybloom",
        "orbble",
        "plumfish",
        "shimmerpuff",
        "gribble",
    ],
    "mining": [
        "stone",
        "copper",
        "iron",
        "artifact",
        "bone",
        "ruby",
        "crystal",
        "rainbow_rock",
        "tree_sap",
    ],
    "social": ["red_blueprint", "purple_blueprint", "heart"],
}


def _entries(node: object) -> list[dict[str, object]]:
    """Every JSON object of a data file that looks like a content entry (has an id)."""
    found: list[dict[str, object]] = []
    if isinstance(node, dict):
        if "id" in node or ("good" in node and "tilled" in node):
            found.append(node)
        for value in node.values():
            found += _entries(value)
    elif isinstance(node, list):
        for value in node:
            found += _entries(value)
    return found


def _effects() -> list[Effect]:
    c = content()
    effects = [e for f in c.features.values() for option in f.rewards for e in option]
    for card in c.cards.values():
        effects += [e for option in (*card.top, *card.bottom) for e in option]
    return effects


def _known_good(good: str) -> bool:
    return good in content().goods or good == "geode"


def test_the_component_counts_of_the_rulebook() -> None:
    """9 starter cards, 20 task cards and 9 objectives per season, 36 neighbour cards (two
    goods each), 28 small, 16 medium and 12 large farming dice."""
    c = content()
    assert {deck: len(ids) for deck, ids in c.decks.items()} == {
        "starter": 9,
        "season_1": 20,
        "season_2": 20,
        "season_3": 20,
    }
    assert Counter(o.season for o in c.objectives.values()) == {1: 9, 2: 9, 3: 9}
    assert len(c.neighbour_cards) == 36
    # "Gift either resource": every neighbour card shows two goods, worth 1 or 2 boxes.
    assert {len(card.goods) for card in c.neighbour_cards.values()} == {2}
    assert {card.bonus for card in c.neighbour_cards.values()} == {1, 2}
    sizes: Counter[str] = Counter()
    for die in c.dice.values():
        sizes[die.size] += die.count
    assert sizes == {"small": 28, "medium": 16, "large": 12} == c.dice_sizes
    assert sorted(c.areas) == ["grotto", "lake", "pond", "river"]
    assert set(c.tables) == set(c.areas)


def test_every_good_of_the_icon_reference_is_in_the_commissary_with_its_type() -> None:
    c = content()
    for kind, names in ICON_REFERENCE.items():
        for name in names:
            assert c.goods[name].type == kind and c.goods[name].listed, name
    badges = [g for g in c.goods.values() if g.type == "badge"]
    assert len(badges) == 4
    assert {g.type for g in c.goods.values() if g.listed} == set(c.types)
    assert not c.goods["wood"].listed and not c.goods["exo_wood"].listed


def test_goods_have_connected_cargo_shapes_as_large_as_their_value_allows() -> None:
    for good in content().goods.values():
        if not good.listed:
            assert good.shape == frozenset()
            continue
        assert 1 <= len(good.shape) <= 5
        assert good.coins is not None and good.coins >= 1
        seen = {min(good.shape)}
        frontier = list(seen)
        while frontier:
            for n in neighbors(frontier.pop()):
                if n in good.shape and n not in seen:
                    seen.add(n)
                    frontier.append(n)
        assert seen == good.shape, good.id


def test_the_rulebooks_own_numbers_are_in_the_data() -> None:
    """Milk sells for 4; the bridge takes 6 goods, one of them stone; Elizabeth's first
    energy bar costs 3 coins; her Cave Fisher fish is worth 2 coins or 2 boxes; the river
    at black 2, white 3 is empty with a 2-box fish above; starter cards are the four tasks
    and a 2-coin card; the cargo stalls score as in the example."""
    c = content()
    assert c.goods["milk"].coins == 4 and c.goods["milk"].type == "farm"
    bridge = c.features["bridge"].spaces
    assert len(bridge) == 6 and bridge.count("stone") == 1
    assert c.features["energy_bar_1"].spaces == ("coin",) * 3
    cave = c.cards["cave_fisher"]
    assert [o[0].name for o in cave.top] == ["fish", "mine"]
    assert cave.condition is not None and (cave.condition.measure, cave.condition.at_least) == (
        "mine_level",
        2,
    )
    fish = c.goods[cave.bottom[0][0].name]
    assert (fish.type, fish.coins, len(fish.shape)) == ("fish", 2, 2)
    river_fisher = c.cards["river_fisher"]
    assert river_fisher.condition is not None and river_fisher.condition.area == "river"
    assert c.tables["river"].at(white=3, black=2) == ""
    above = c.goods[c.tables["river"].at(white=2, black=2)]
    assert above.type == "fish" and len(above.shape) == 2
    starters = [c.cards[i] for i in c.decks["starter"]]
    assert Counter(s.top[0][0].name for s in starters if s.top[0][0].kind == "task") == {
        t: 2 for t in TASKS
    }
    assert [s.top[0][0] for s in starters if s.top[0][0].kind != "task"] == [Effect("coins", "", 2)]
    stalls = c.manifest.stalls
    assert [dict(s.scores) for s in stalls] == [{"fish": 0}, {"fish": 2}, {"mining": 0}]
    assert c.level_rewards["mine"][0] == "coin" and c.level_rewards["chop"][0] == "wood"
    assert c.till == 6
    energised = c.objectives["energised"]
    assert (energised.season, energised.measure, 3 * energised.points) == (1, "energy_bars", 12)


def test_every_reference_resolves() -> None:
    """Goods, tasks, areas, animals, rods, abilities and measures named anywhere exist."""
    c = content()
    for effect in _effects():
        if effect.kind == "good":
            assert _known_good(effect.name), effect
        elif effect.kind == "task":
            assert effect.name in (*TASKS, "any"), effect
        elif effect.kind == "area":
            assert effect.name in c.areas and effect.name != "pond", effect
        elif effect.kind == "tool":
            assert effect.name in TASKS and effect.name != "fish", effect
        elif effect.kind == "rod":
            assert effect.name in c.rods, effect
        elif effect.kind == "animal":
            assert effect.name in c.animals, effect
        elif effect.kind == "ability":
            assert effect.name in c.abilities, effect
        else:
            kinds = ("coins", "tilled", "fence", "trellis", "energy", "lure", "buyback", "explorer")
            assert effect.kind in kinds and effect.amount > 0, effect
    for feature in c.features.values():
        for icon in feature.spaces:
            takes_any = icon.endswith(":any") and any(c.matches(icon, g) for g in c.goods)
            assert icon == "coin" or _known_good(icon) or takes_any, icon
        assert len(feature.rewards) == (len(feature.rows) if feature.lined else 1)
        # A geode is rolled where it is found (a square, a card): no sheet takes or gives one.
        assert "geode" not in feature.spaces, feature.id
        assert all(e.name != "geode" for option in feature.rewards for e in option), feature.id
    for card in c.cards.values():
        assert card.top and all(card.top)
        if card.condition is None:
            assert card.bottom == ()
        else:
            assert card.bottom and all(card.bottom)
            assert card.condition.area in c.areas or card.condition.measure in c.measures
    for objective in c.objectives.values():
        assert objective.measure in c.measures and objective.points > 0 and objective.every > 0
    for crop in c.crops.values():
        assert c.dice[crop.die].kind == "crop" and crop.id in c.goods
    for animal in c.animals.values():
        assert c.dice[animal.die].kind == "animal" and animal.die in c.goods
    sizes = {"small": 2, "medium": 3, "large": 4}
    for die_id, size in [(x.die, x.size) for x in c.crops.values()] + [
        (x.die, x.size) for x in c.animals.values()
    ]:
        assert sizes[c.dice[die_id].size] == size
    for die in c.dice.values():
        assert [f.value for f in die.faces] == [1, 2, 3, 4, 5, 6]
        assert all(g in c.goods for f in die.faces for g in f.harvest)
        assert die.faces[-1].harvest and die.faces[-1].then in ("reset", "return")
        assert all(f.then == "" for f in die.faces[:-1])
    for asked in c.neighbour_cards.values():
        assert 1 <= len(asked.goods) <= 2 and asked.bonus in (1, 2)
        assert all(g in c.goods for g in asked.goods)
    for track in (*c.neighbour_tracks.values(), *c.level_rewards.values()):
        assert all(g == "coin" or g in c.goods for g in track)
    for table in (*c.tables.values(), c.geode):
        assert len(table.grid) == 5 and all(len(row) == 5 for row in table.grid)
        assert all(
            g == "" or c.goods[g].type in ("fish", "mining") for row in table.grid for g in row
        )
    assert all(
        g == "" or c.goods[g].type == "fish" for t in c.tables.values() for r in t.grid for g in r
    )
    assert all(g for row in c.geode.grid for g in row), "a geode always holds a good"
    for rate in c.groundskeeping.values():
        assert rate.good in c.goods and rate.tilled + rate.fence > 0
    assert set(c.groundskeeping) == {"gold", "stone", "wood", "exo_wood", "copper", "iron"}
    assert all(t in (*TASKS, "any") for t in c.manifest.row_tasks)
    assert len(c.manifest.row_tasks) == c.manifest.grid.rows


def test_sheets_fit_their_grids() -> None:
    c = content()
    assert c.start_tilled <= c.farm.cells and c.start_fences <= c.farm.cells
    assert not c.start_tilled & c.start_fences
    columns = [col for s in c.manifest.stalls for col in range(s.first_col, s.last_col + 1)]
    assert columns == list(range(c.manifest.grid.cols)), "stalls cover every column once"
    for area in c.scratch_areas.values():
        assert area.task in ("chop", "mine") and area.unlocks in c.areas
        open_squares = c.top_rows * c.scratch.cols - c.rocks_per_half
        bottom_open = (c.scratch.rows - c.top_rows) * c.scratch.cols - c.rocks_per_half
        assert len(area.top.fixed) + c.variable_per_half == open_squares
        assert len(area.bottom.fixed) + c.variable_per_half == bottom_open
        assert len(area.top.pool) >= c.variable_per_half
        for square in (*area.top.fixed, *area.top.pool, *area.bottom.fixed, *area.bottom.pool):
            assert square.good == "" or _known_good(square.good)
            assert square.good or square.actions, "every square gives something"
        levels = sum(s.level for s in area.top.fixed + area.bottom.fixed)
        most = levels + c.variable_per_half
        assert levels >= 1 and most <= len(c.level_rewards[area.level_track])
    woods = c.scratch_areas["woods"]
    exo = [sum(s.good == "exo_wood" for s in h.fixed) for h in (woods.top, woods.bottom)]
    assert exo[1] > exo[0], "exo wood is commoner at the bottom of the woods"


def test_first_game_decks_still_fill_both_upcoming_season_decks() -> None:
    """Without the advanced cards each season still deals 4 + 4 (seasons 1, 2) and 3 + 3."""
    c = content()
    for deck, need in (("season_1", 8), ("season_2", 8), ("season_3", 6)):
        cards = [c.cards[i] for i in c.decks[deck]]
        assert sum(not card.advanced for card in cards) >= need
        assert 3 <= sum(card.advanced for card in cards) <= 6


def test_every_good_can_be_gained_and_used() -> None:
    """No good is a dead end: each one is found somewhere, and each has a use besides
    being let go (sold, shipped, spent on a sheet, or turned into soil and fences)."""
    c = content()
    found: set[str] = {e.name for e in _effects() if e.kind == "good"}
    found |= {g for die in c.dice.values() for f in die.faces for g in f.harvest}
    found |= {g for t in (*c.tables.values(), c.geode) for row in t.grid for g in row}
    found |= {
        g for track in (*c.neighbour_tracks.values(), *c.level_rewards.values()) for g in track
    }
    for area in c.scratch_areas.values():
        for half in (area.top, area.bottom):
            found |= {s.good for s in (*half.fixed, *half.pool)}
    found |= {g for asked in c.neighbour_cards.values() for g in asked.goods}
    spent = {icon for f in c.features.values() for icon in f.spaces}
    for good in c.goods.values():
        assert good.id in found, f"{good.id} is never gained"
        used = good.listed or good.id in c.groundskeeping
        used = used or any(c.matches(icon, good.id) for icon in spent)
        assert used, f"{good.id} has no use"


@pytest.mark.parametrize("path", sorted(DATA.glob("*.json")), ids=lambda p: Path(p).name)
def test_every_entry_says_where_it_comes_from(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    entries = _entries(data)
    assert entries or "source" in json.dumps(data)
    for entry in entries:
        if "good" in entry and "tilled" not in entry:
            continue
        assert entry.get("source") in ("rulebook", "reconstructed"), (path.name, entry)
