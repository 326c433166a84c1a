"""Moves and events in words: what a player reads in a menu or a log, in the game's own
names, in menus of at most 25, and never naming a card another seat holds."""

from __future__ import annotations

import random
from collections import Counter

from engines.bardwood.content import content
from engines.bardwood.state import BardwoodState
from engines.core.contract import TableConfig
from engines.core.game import MENU_SIZE
from engines.core.play import Table
from engines.core.recorders import oneof_kinds
from proto import bardwood_pb2 as pb
from tests.engines.bardwood.given import ENGINE, cmd, ev, gained, opening, position, singing


def said(state: BardwoodState, command: pb.Command, seat: int = 0) -> tuple[str, str]:
    words = ENGINE.describe_command(state, command, seat)
    return words.group, words.text


def test_composition_names_the_cards_and_the_strip() -> None:
    """The first turn: a starting space by its name; a card played or discarded by its
    printed name, the discard with what its strip gives (the rulebook's example: 3 Volume
    and the Tempo 2 spaces)."""
    first = position(opening())
    assert said(first.state, cmd("place_bard", space="s5")) == (
        "Starting space",
        "Put your Bard on Willow Bend",
    )
    composing = position(opening(), ev("bard_placed", seat=0, space="s3")).state
    assert said(composing, cmd("play_card", card="lark_refrain")) == (
        "Play a card",
        "Play Gentle Refrain to the right of your Song",
    )
    assert said(composing, cmd("discard_card", card="lark_humming")) == (
        "Discard a card",
        "Discard Humming Call for its strip: 3 Volume and turn the Tempo 2 spaces on",
    )


def test_movement_names_the_space_and_the_boats_discount() -> None:
    """Moving the Bard names the space; the boat says the discount it will give."""
    moving = position(
        opening(),
        ev("bard_placed", seat=0, space="s3"),
        ev("card_discarded", seat=0, card="lark_humming"),
        gained(0, movement=2),
    ).state
    assert said(moving, cmd("move_bard", space="s0")) == (
        "Movement",
        "Move your Bard to Mossy Ford",
    )
    assert said(moving, cmd("move_boat"))[1] == (
        "Move your boat up the Legend discount track (no discount yet)"
    )
    boat = position(opening(), ev("boat_moved", seat=0, position=1)).state
    assert said(boat, cmd("move_boat"))[1].endswith("(-1 Lyric)")


def test_locations_say_what_they_cost_and_give() -> None:
    """Soothe names the Creature and the Melody after the Badge discount (the Whisper
    Owl's 4, less 1 for the Badge on it), Assist its Assist cost, Perform the spot's Lyric
    and VP and which bonus spot gives up the Rune, the market the card and its price."""
    badge = ev("badge_placed", seat=1, to="creatures_2")
    song = position(opening(), badge, singing(0, space="s2", melody=4, lyric=5, coins=3))
    assert said(song.state, cmd("soothe", location="creatures_2", spot=0)) == (
        "Creatures",
        "Soothe the Whisper Owl at the Creature Den (north-east) for 3 Melody, "
        "onto an empty spot (spot 1)",
    )
    assert said(song.state, cmd("assist", location="creatures_2")) == (
        "Creatures",
        "Assist the Whisper Owl at the Creature Den (north-east) for 2 Melody with your "
        "left-most Badge",
    )
    assert said(song.state, cmd("buy", location="market_action_1")) == (
        "Market",
        "Buy Street Fiddle from the Action Stall (east) for 2 coins",
    )
    assert said(song.state, cmd("buy", location="market_action_1", card="lullaby"))[1] == (
        "Search the Action Stall (east) for Lullaby for 3 coins"
    )
    assert said(song.state, cmd("tell_legend", tier=1)) == (
        "Legends",
        "Tell a Tier 1 Legend for 3 Lyric, gaining 1 VP",
    )
    stage = position(opening(), singing(0, space="s1", lyric=5)).state
    assert said(stage, cmd("perform", spot=4, rune=0)) == (
        "Perform (Rune off the coin bonus)",
        "Perform on spot 5: pay 5 Lyric for 2 VP and a Fan (Rune off the coin bonus)",
    )


def test_song_cards_are_sung_by_name_with_what_they_give() -> None:
    """A Song card's top and paid effect are named with the card and their icons, in the
    menu of that card (its place in the Song tells two copies apart)."""
    song = position(opening(), singing(0, space="s1"), gained(0, volume=2)).state
    harp = content().card("lark_harp")
    assert said(song, cmd("use_card", slot=0, part="top", effect=0, choice=0)) == (
        "Song card 1: Lark's Harp",
        "Sing Lark's Harp (top): 1 Melody",
    )
    assert said(song, cmd("pay_volume", slot=0)) == (
        "Song card 1: Lark's Harp",
        f"Pay {harp.cost} Volume for the paid effect of Lark's Harp",
    )


def _random_game(number: int, options: dict[str, bool]) -> tuple[Table, Counter[str], set[str]]:
    """A random game, with the largest menu of each group and the kinds listed."""
    seats = 2 + number % 3
    table = Table.create(
        ENGINE, TableConfig(f"words-{number}", seats, options), seed=b"bw-words-%04d-01234" % number
    )
    choose = random.Random(number)
    largest: Counter[str] = Counter()
    kinds: set[str] = set()
    while not ENGINE.outcome(table.state).finished:
        seat = ENGINE.outcome(table.state).to_act[0]
        legal = ENGINE.legal_commands(table.state, seat)
        words = [ENGINE.describe_command(table.state, command, seat) for command in legal]
        for word in words:
            assert word.group != "Other" and word.text.strip()
            assert "_" not in word.text, f"an id instead of a name: {word.text}"
        for group, size in Counter(word.group for word in words).items():
            largest[group] = max(largest[group], size)
        kinds |= {command.WhichOneof("kind") or "" for command in legal}
        table.execute(seat, choose.choice(legal))
    return table, largest, kinds


def test_every_command_kind_has_words_and_no_menu_holds_more_than_25() -> None:
    """Random games with every option: every command kind is listed at some point, each
    in the game's words (no ids), and no group ever needs splitting to fit a menu."""
    largest: Counter[str] = Counter()
    kinds: set[str] = set()
    for number in range(3):
        _, sizes, seen = _random_game(number, {"loudstones": True, "unlocked": True})
        kinds |= seen
        for group, size in sizes.items():
            largest[group] = max(largest[group], size)
    assert kinds == set(oneof_kinds(pb.Command))
    assert max(largest.values()) <= MENU_SIZE, largest


def test_events_are_lines_each_viewer_may_read_and_never_name_anothers_draw() -> None:
    """Every event of a game reads as one line for each seat and a spectator; a card
    drawn from the unseen deck is named to its drawer only, and no line another viewer
    reads names it."""
    table, _, _ = _random_game(4, {})
    seats = table.state.seats
    drawn = 0
    for event in table.events:
        assert isinstance(event, pb.Event)
        lines = {}
        for viewer in (None, *range(seats)):
            seen = ENGINE.redact(event, viewer)
            assert seen is not None
            line = ENGINE.describe_event(seen, viewer)
            assert line.strip() and "\n" not in line
            assert "_" not in line, f"an id instead of a name: {line}"
            lines[viewer] = line
        if event.WhichOneof("kind") == "card_drawn":
            drawn += 1
            owner, name = event.card_drawn.seat, content().card(event.card_drawn.card).name
            assert name in lines[owner]
            for viewer, line in lines.items():
                if viewer != owner:
                    assert name not in line
                    assert line == f"Seat {owner} draws a card"
    assert drawn > 0


def test_cards_bought_or_won_are_named_to_everyone() -> None:
    """A card put on top of a deck in view of all stays known: its draw names it."""
    known = ev("known_card_drawn", seat=1, card="descant")
    for viewer in (None, 0, 1):
        line = ENGINE.describe_event(ENGINE.redact(known, viewer), viewer)
        assert line == "Seat 1 draws Soaring Descant from the top of the deck"
