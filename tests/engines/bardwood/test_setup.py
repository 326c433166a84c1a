"""Setup: the main board per player count, the first player, Characters in turn order, and
every player's starting board and opening hand."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from engines.bardwood.content import content
from engines.bardwood.engine import ENGINE
from engines.core.contract import TableConfig
from engines.core.play import Table
from tests.engines.bardwood.given import cmd, ev, opening, position


def table(seats: int, seed: int, **options: object) -> Table:
    config = TableConfig(f"setup-{seats}-{seed}", seats, {"short_game": False, **options})
    return Table.create(ENGINE, config, seed.to_bytes(8, "big"))


@pytest.mark.parametrize(("seats", "pools"), [(2, (10, 14)), (3, (15, 21)), (4, (20, 28))])
def test_the_main_board_follows_the_rulebooks_set_up(seats: int, pools: tuple[int, int]) -> None:
    """Market, Legends, Fans, boats, Motifs, VP crystals, Events, Creatures, first player."""
    c = content()
    set_up = table(seats, 7).events[0].game_set_up  # type: ignore[attr-defined]
    assert (set_up.act1_pool, set_up.act2_pool) == pools
    assert 0 <= set_up.first_player < seats
    decks = {deck.location: list(deck.cards) for deck in set_up.market}
    for kind in ("improv", "action"):
        twins = [sorted(decks[loc]) for loc in c.market_of(kind)]
        assert twins[0] == twins[1] == sorted(c.market_designs[kind]), "2 identical decks"
    assert set_up.market_boat == 0
    assert [(t.tier, t.face_down) for t in set_up.legends] == [(1, 4), (2, 4), (3, 4)]
    assert all(t.face_up in c.legends_of(t.tier) for t in set_up.legends)
    assert sorted(set_up.fans) == sorted(c.fans) and len(set_up.fans) == 12
    motifs = [m for m in set_up.motifs if m]
    assert len(set_up.motifs) == 6 and sorted(motifs) == ["crowd", "hoard", "stones", "trust"]
    assert set_up.act1_event != set_up.act2_event
    assert {set_up.act1_event, set_up.act2_event} == {"harvest_festival", "royal_visit"}
    for pile in set_up.creatures:
        boss, *normals = (c.card(card) for card in pile.cards)
        assert boss.boss and boss.soothe >= 7 and len(normals) == 2
        assert all(not n.boss and n.soothe <= 6 for n in normals)
    assert sorted(card for pile in set_up.creatures for card in pile.cards) == sorted(c.creatures)


def test_unlocked_content_adds_motifs_and_events() -> None:
    """Unlockable content (option): six Motifs, four Events to draw the two from."""
    set_up = table(3, 2, unlocked=True).events[0].game_set_up  # type: ignore[attr-defined]
    assert all(set_up.motifs) and len(set_up.motifs) == 6


def test_unlocked_market_uses_six_random_designs_a_type_in_twin_decks() -> None:
    """Market Deck Setup: "When you have more cards unlocked, randomly determine what 6
    cards to use for each type (then form two identical 6-card decks for each type)"; over
    a few tables the unlockable designs come in and first-game ones stay out."""
    c = content()
    used: dict[str, set[str]] = {"improv": set(), "action": set()}
    for seed in range(8):
        set_up = table(2, seed, unlocked=True).events[0].game_set_up  # type: ignore[attr-defined]
        decks = {deck.location: list(deck.cards) for deck in set_up.market}
        for kind in ("improv", "action"):
            twins = [sorted(decks[loc]) for loc in c.market_of(kind)]
            assert twins[0] == twins[1], "2 identical decks"
            assert len(set(twins[0])) == len(twins[0]) == 6
            assert set(twins[0]) <= set(c.market_designs[kind] + c.market_unlockable[kind])
            used[kind] |= set(twins[0])
    for kind in ("improv", "action"):
        assert set(c.market_unlockable[kind]) <= used[kind], "every unlockable design comes in"
        assert used[kind] == set(c.market_designs[kind] + c.market_unlockable[kind])


def test_all_market_cards_puts_every_unlocked_design_in_each_deck() -> None:
    """ "Alternatively, you can choose to add them all in (using decks larger than 6 cards
    each)": option ``all_market_cards``; without unlocking it changes nothing."""
    c = content()
    every = table(3, 4, unlocked=True, all_market_cards=True).events[0].game_set_up  # type: ignore[attr-defined]
    for deck in every.market:
        kind = c.location(deck.location).market
        assert sorted(deck.cards) == sorted(c.market_designs[kind] + c.market_unlockable[kind])
    plain = table(3, 4, all_market_cards=True).events[0].game_set_up  # type: ignore[attr-defined]
    for deck in plain.market:
        assert sorted(deck.cards) == sorted(c.market_designs[c.location(deck.location).market])


def test_characters_are_taken_in_turn_order_and_are_unique() -> None:
    """Starting Deck Setup: a unique deck per player, in turn order from the first player."""
    start = position(ev("game_set_up", seats=3, first_player=2, act1_pool=15, act2_pool=21))
    assert ENGINE.outcome(start.state).to_act == (2,)
    start.when(0, cmd("choose_character", character="lark")).refused("turn.not_yours")
    start.when(2, cmd("choose_character", character="bard")).refused("character.unknown")
    taken = start.when(2, cmd("choose_character", character="lark"))
    taken.then(ev("character_chosen", seat=2, character="lark"))
    after = position(start.events, taken.events)
    assert ENGINE.outcome(after.state).to_act == (0,)
    after.when(0, cmd("choose_character", character="lark")).refused("character.taken")


def test_every_player_starts_as_the_rulebook_says() -> None:
    """Player Board Setup A-E and Starting Deck Setup 1-5: Runes 2 on each bonus spot,
    the Song tracker at noon, the icon in the 1-movement area, Volume 2, 7 Badges; the
    Super Fan in the discard pile, the Instrument in the Song, 2 cards drawn (an Improv
    drawn goes into the Song and is replaced); the first player's first turn begins."""
    c = content()
    improv_seen = False
    for seed in range(12):
        t = table(2, seed)
        for pick in (seed % 4, seed % 3):
            chooser = ENGINE.outcome(t.state).to_act[0]
            options = ENGINE.legal_commands(t.state, chooser)
            t.execute(chooser, options[pick % len(options)])
        view = ENGINE.view(t.state, None)
        first = t.events[0].game_set_up.first_player  # type: ignore[attr-defined]
        assert view["stage"] == "place_bard" and view["to_act"] == [first]
        assert t.events[-1] == ev("turn_began", seat=first, first=True)
        for seat, player in enumerate(view["players"]):
            character = c.character(player["character"])
            assert player["runes"] == [2, 2, 2, 2] and player["badges"] == 7
            assert (player["volume"], player["tempo_area"], player["boat"]) == (2, 0, 0)
            assert not player["song_triggered"] and player["space"] is None
            assert player["discard"] == [character.super_fan]
            song = [s["card"] for s in player["song"]]
            assert song[0] == character.instrument
            hand = ENGINE.view(t.state, seat)["private"]["hand"]
            assert len(hand) == 2 and all(c.card(card).skill for card in hand)
            if character.improv in song:
                improv_seen = True
                assert player["deck_size"] == 4
            else:
                assert player["deck_size"] == 5
    assert improv_seen, "some opening hand drew the Improv"


def test_every_seat_count_plays_with_every_character_at_most_once() -> None:
    """Four Characters for up to four players."""
    t = table(4, 3)
    while ENGINE.view(t.state, None)["stage"] == "choose_character":
        seat = ENGINE.outcome(t.state).to_act[0]
        t.execute(seat, ENGINE.legal_commands(t.state, seat)[0])
    chosen = Counter(p["character"] for p in ENGINE.view(t.state, None)["players"])
    assert sorted(chosen) == ["briar", "lark", "marlo", "quill"]


def test_the_scenario_opening_matches_a_real_set_up() -> None:
    """The scenarios' fixed opening is a position the rules can reach."""
    state = position(opening()).state
    assert [p.character for p in state.players] == ["lark", "quill"]
    assert len(state.players[0].unseen) == 5


def test_every_point_of_a_game_log_can_be_viewed() -> None:
    """Replay may stop between any two events, even inside one command's batch: every
    prefix of a whole game folds to a state every viewer can view."""
    choices = random.Random(5)
    t = table(3, 5)
    t.play(lambda tb, seat: choices.choice(ENGINE.legal_commands(tb.state, seat)))
    state = ENGINE.initial_state()
    stages = set()
    events: list[Any] = [None, *t.events]
    for event in events:
        if event is not None:
            state = ENGINE.evolve(state, event)
        for viewer in (None, 0, 1, 2):
            view = ENGINE.view(state, viewer)
            stages.add(view["stage"])
        ENGINE.outcome(state)
    assert {"setup", "between", "downtime", "finished"} <= stages
