"""The content files agree with the rulebook's counts and with each other."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from engines.bardwood.content import DATA, GAINS, Card, content


def _entries(raw: object) -> list[dict[str, object]]:
    """Every JSON object in a data file that describes one component (has an id)."""
    found: list[dict[str, object]] = []
    if isinstance(raw, dict):
        if "id" in raw:
            found.append(raw)
        for value in raw.values():
            found.extend(_entries(value))
    elif isinstance(raw, list):
        for value in raw:
            found.extend(_entries(value))
    return found


@pytest.mark.parametrize("path", sorted(DATA.glob("*.json")), ids=lambda p: p.name)
def test_every_component_says_where_it_comes_from(path: Path) -> None:
    """Each entry is marked ``source: rulebook`` or ``source: reconstructed``."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    entries = _entries(raw)
    assert entries or path.name == "player_board.json"
    for entry in entries:
        if entry["id"] in {r["id"] for r in raw.get("badge_rewards", {}).get("rewards", [])}:
            continue  # the rewards block is marked once for all four
        assert entry.get("source") in ("rulebook", "reconstructed"), entry["id"]


def test_the_rulebook_counts() -> None:
    """15 Legends (5 a Tier), 12 Fans, 15 Creatures (5 Bosses), 24 shop cards, 4 Motifs."""
    c = content()
    assert [len(c.legends_of(t)) for t in (1, 2, 3)] == [5, 5, 5]
    assert all(1 + t.face_down == 5 for t in c.tiers)
    assert len(c.fans) == c.fan_deck == 12
    assert len(c.creatures) == 15
    bosses = [x for x in c.creatures if c.card(x).boss]
    assert len(bosses) == c.creature_piles == 5
    assert len(c.creatures) - len(bosses) == c.creature_piles * c.normals_per_pile
    shop = 2 * len(c.market_designs["improv"]) + 2 * len(c.market_designs["action"])
    assert shop == 24
    assert [m.id for m in c.motifs if not m.unlock] == ["crowd", "hoard", "trust", "stones"]
    assert len(c.motifs) == c.motif_spots == 6
    assert len([e for e in c.events if not e.unlock]) >= 2


def test_bosses_and_normal_creatures_follow_the_soothe_threshold() -> None:
    """Creature Setup: Bosses Soothe 7 or more, normal Creatures 6 or less."""
    c = content()
    for creature_id in c.creatures:
        creature = c.card(creature_id)
        assert creature.kind == "creature"
        if creature.boss:
            assert creature.soothe >= c.boss_at_least
        else:
            assert creature.soothe <= c.normal_at_most
        assert 0 < creature.assist < creature.soothe
        assert creature.bonus, "every Creature gives a bonus when Soothed or drawn"


def test_each_character_has_a_unique_nine_card_deck_of_the_rulebooks_makeup() -> None:
    """Starting Deck Setup: 1 Improv, 1 Fan, 1 Instrument, 6 Actions, unique per Character."""
    c = content()
    assert len(c.characters) == 4
    seen: set[str] = set()
    for character in c.characters:
        kinds = Counter(c.card(card).kind for card in character.deck)
        assert kinds == Counter(c.deck_makeup)
        assert len(character.deck) == 9
        assert not seen & set(character.deck)
        seen |= set(character.deck)
        assert all(c.card(card).character == character.id for card in character.deck)
        assert character.instrument and character.improv and character.super_fan
    assert c.creature_spots == 2


def test_every_card_is_top_cost_paid_effect_and_strip() -> None:
    """Actions have a strip with a mandatory Tempo turn; other kinds none; Fans a choice."""
    c = content()
    for card in c.cards.values():
        if card.kind == "action":
            assert dict(card.strip).get("tempo", 0) >= 1, card.id
            assert card.top and card.paid
        elif card.kind in ("improv", "instrument"):
            assert not card.strip and card.top and card.paid, card.id
        elif card.kind == "fan":
            assert len(card.cheer) >= 2, card.id
            assert not (card.top or card.paid or card.strip)
        else:
            assert card.kind == "creature"
        assert card.cost in range(0, c.volume_max + 1)


def test_the_rulebooks_discard_example_is_a_card() -> None:
    """Composition › Discard: "you would gain 3 Volume and rotate your Tempo wheel 2 spaces"."""
    card = content().card("lark_humming")
    assert dict(card.strip) == {"volume": 3, "tempo": 2}


def test_every_reference_resolves() -> None:
    """Decks, market designs, Legends, map spaces and Locations all name existing things."""
    c = content()
    for character in c.characters:
        assert all(card in c.cards for card in character.deck)
    for kind, designs in c.market_designs.items():
        assert len(set(designs)) == 6
        assert all(c.card(d).kind == kind and not c.card(d).character for d in designs)
        assert not any(c.card(d).unlock for d in designs), "first-game designs"
        assert len(c.market_of(kind)) == 2
        unlockable = c.market_unlockable[kind]
        assert unlockable and not set(unlockable) & set(designs)
        assert all(c.card(d).kind == kind and c.card(d).unlock for d in unlockable)
    assert c.market_cards == {d for ds in (c.market_designs, c.market_unlockable)
                              for designs in ds.values() for d in designs}  # fmt: skip
    assert all(c.card(f).kind == "fan" and not c.card(f).character for f in c.fans)
    location_ids = {loc.id for loc in c.locations}
    touched = {loc for space in c.spaces for loc in space.touches}
    assert touched == location_ids, "every Location is next to some space"
    assert all(s in {x.id for x in c.spaces} for s in c.starting_spaces)
    assert len(c.starting_spaces) == 2
    kinds = Counter(loc.kind for loc in c.locations)
    assert kinds["creatures"] == c.creature_piles
    assert kinds["market"] == 4
    for card in c.cards.values():
        for effect in (*card.top, *card.paid):
            assert effect.options and all(option for option in effect.options)
            assert effect.times >= 0
        for gains in (card.strip, card.bonus, *card.cheer):
            assert all(name in GAINS and amount > 0 for name, amount in gains)


def test_the_map_is_connected_and_every_space_touches_several_locations() -> None:
    """Movement: bards reach every space; each space touches more than one Location."""
    c = content()
    reached = {c.starting_spaces[0]}
    frontier = list(reached)
    while frontier:
        for nxt in c.neighbours(frontier.pop()):
            if nxt not in reached:
                reached.add(nxt)
                frontier.append(nxt)
    assert reached == {s.id for s in c.spaces}
    assert all(len(space.touches) >= 2 for space in c.spaces)


def test_player_board_and_tracks() -> None:
    """Volume 2 of 6, 4 Tempo areas (1 then 3 movement two spaces on), 7 Badges, 8 Runes."""
    c = content()
    assert (c.volume_start, c.volume_max, c.loudstone_volume) == (2, 6, 6)
    moves = [area.move for area in c.tempo_areas]
    assert moves[c.tempo_start] == 1 and moves[(c.tempo_start + 2) % 4] == 3
    assert moves[-1] == 2, "noon sits between the 2-movement and 1-movement areas"
    bonuses = sorted(area.bonus for area in c.tempo_areas)
    assert bonuses == sorted([(("coin", 1),), (("vp", 1),), (("volume", 2),), (("move", 1),)])
    assert c.runes_per_bonus * len(c.tempo_areas) == 8
    assert c.badges == len(c.badge_spots) == 7
    assert c.legend_discounts == (0, 0, 1, 2, 3)
    assert c.market_costs[-1] == 5 and 3 in c.market_costs
    assert c.hand_size == 2 and c.stone_limit == 12
    assert {r.id: (r.badges, dict(r.gain)) for r in c.badge_rewards} == {
        "vp": (3, {"vp": 4}),
        "motif": (2, {"motif": 1}),
        "songstone": (1, {"songstone": 1}),
        "coin": (1, {"coin": 1}),
    }


def test_vp_pools_per_player_count() -> None:
    """VP Crystal Setup: 10/14, 15/21, 20/28 (short game 8/12, 12/18, 16/24)."""
    c = content()
    long = [(n * c.act1_per_player, n * c.act2_per_player) for n in (2, 3, 4)]
    short = [(n * c.short_act1_per_player, n * c.short_act2_per_player) for n in (2, 3, 4)]
    assert long == [(10, 14), (15, 21), (20, 28)]
    assert short == [(8, 12), (12, 18), (16, 24)]


def test_perform_has_the_rulebooks_five_lyric_spot() -> None:
    """Perform: "pay 5 Lyric to gain 2 VP crystals and a Fan card, and place a Rune"."""
    spots = content().perform_spots
    assert any((s.lyric, s.vp) == (5, 2) for s in spots)
    assert all(s.lyric > 0 and s.vp > 0 for s in spots)
    assert [s.lyric for s in spots] == sorted(s.lyric for s in spots)


def test_legend_and_event_scoring_count_known_things() -> None:
    """End scoring only counts what the rules can count."""
    counts = {
        "creatures",
        "bosses",
        "fans",
        "improvs",
        "market_cards",
        "market_actions",
        "badges_held",
        "badges_gone",
        "bardstones",
        "coins",
        "coins_and_stones",
        "runes_placed",
        "uncovered_bonuses",
    }
    c = content()
    for legend in c.legends:
        assert legend.scoring.count in counts
    for event in c.events:
        assert event.end.count in counts
        assert bool(event.offer_pay) == bool(event.offer_gain)


def test_cards_are_all_different_designs() -> None:
    """Varied content: no two Improv, Instrument or Action cards share a face, and no two
    Fans or Creatures the same effects."""
    c = content()

    def face(card: Card) -> tuple[object, ...]:
        return (card.kind, card.top, card.cost, card.paid, card.strip, card.cheer, card.bonus)

    songs = [
        face(card) for card in c.cards.values() if card.kind in ("improv", "instrument", "action")
    ]
    assert len(set(songs)) == len(songs) == 4 * 8 + 12 + 6, "with the 6 unlockable designs"
    fans = [c.card(fan).cheer for fan in c.fans]
    assert len(set(fans)) == len(fans)
    creatures = [(c.card(x).soothe, c.card(x).bonus) for x in c.creatures]
    assert len(set(creatures)) == len(creatures)
