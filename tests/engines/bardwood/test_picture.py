"""The board picture: a valid SVG of 960x640 drawn from a view, showing what a set-up
position holds, and never a hand (or the unseen deck) the viewer may not see."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

from engines.bardwood.content import content
from engines.bardwood.picture import HEIGHT, WIDTH, picture
from engines.core.contract import TableConfig
from engines.core.play import Table
from tests.engines.bardwood.given import ENGINE, ev, opening, position

SVG = "{http://www.w3.org/2000/svg}"


def _titles(svg: str) -> list[str]:
    """The titles of the picture's groups (what each drawn element is)."""
    root = ET.fromstring(svg)
    return [title.text or "" for title in root.iter(f"{SVG}title")]


def _started() -> list[object]:
    """Both Bards on the board, seat 0 to compose with Humming Call and Gentle Refrain."""
    return [
        *opening(),
        ev("bard_placed", seat=1, space="s5"),
        ev("bard_placed", seat=0, space="s3"),
    ]


def test_the_picture_is_a_960_by_640_svg() -> None:
    """It parses as SVG and declares the size it is drawn for."""
    svg = ENGINE.picture(ENGINE.view(position(_started()).state, None))
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert (root.get("width"), root.get("height")) == (str(WIDTH), str(HEIGHT))
    assert svg == picture(ENGINE.view(position(_started()).state, None)), "the engine's hook"


def test_a_set_up_position_shows_every_public_element() -> None:
    """The map's 14 Locations and 9 named spaces, both Bards where they stand, the 4 market
    decks card by card with the boat at the first cost, the 12 Fans, a face-up Legend per
    Tier, the 10 Perform spots, the 5 Creature piles' top Creatures, the 4 Motifs, both
    Events, and a board per seat with its Character and its Song."""
    c = content()
    svg = ENGINE.picture(ENGINE.view(position(_started()).state, None))
    titles = _titles(svg)

    def starting(prefix: str) -> list[str]:
        return [title for title in titles if title.startswith(prefix)]

    assert len(starting("Location ")) == 14
    assert len(starting("Space ")) == len(c.spaces) == 9
    assert sorted(starting("Bard of seat")) == [
        "Bard of seat 0 on Old Mill Path",
        "Bard of seat 1 on Willow Bend",
    ]
    decks = starting("Market deck ")
    assert len(decks) == 4
    assert sum(len(deck.split(": ", 1)[1].split(", ")) for deck in decks) == 24
    assert "Market deck Improv Stall (west): Soaring Descant, Rhyming Couplet" in decks[0]
    assert starting("Market boat at 2 coins")
    fans = starting("Fan deck of 12: ")
    assert len(fans) == 1 and all(c.card(fan).name in fans[0] for fan in c.fans)
    assert sorted(starting("Legend ")) == [
        "Legend The Beast-Friend",
        "Legend The Grand Chorus",
        "Legend The Hedge Knight",
    ]
    assert len(starting("Perform spot ")) == 10
    for creature in ("Moss Toad", "Whisper Owl", "Restless Stag", "Howling Wolf", "Stone Tortoise"):
        assert f">{creature}<" in svg
    assert len(starting("Motif ")) == 4
    assert "Harvest Festival" in svg and "The Royal Visit" in svg
    assert starting("Board of seat 0") and starting("Board of seat 1")
    assert "Lark the Songbird" in svg and "Quill the Storyteller" in svg
    assert "Song of seat 0: Lark's Harp" in titles
    assert "Song of seat 1: Quill's Lyre" in titles


def test_badges_on_creatures_and_the_bank_are_drawn_in_their_owners_colour() -> None:
    """A Badge on a Creature and one on the High Note Bank appear with their owner."""
    badges = [ev("badge_placed", seat=1, to="creatures_2"), ev("badge_placed", seat=0, to="bank")]
    titles = _titles(ENGINE.picture(ENGINE.view(position(_started(), badges).state, None)))
    assert "Badge of seat 1 on Creature Den (north-east)" in titles
    assert "High Note Bank with 1 Badges" in titles
    assert "Badge track of seat 1 with 6 Badges" in titles


def test_only_the_viewers_own_hand_is_drawn() -> None:
    """Seat 0 sees its hand; seat 1 and a spectator see no card of seat 0's hand or deck
    (searched for by name), and no card of seat 1's hand either for the others."""
    state = position(_started()).state
    own = ENGINE.picture(ENGINE.view(state, 0))
    assert "Hand of seat 0" in _titles(own)
    assert "Humming Call" in own and "Gentle Refrain" in own
    unseen = [content().card(card).name for card in state.player(0).unseen]
    assert unseen and not any(name in own for name in unseen), "the deck is not drawn"
    held_by_1 = [content().card(card).name for card in state.player(1).hand]
    assert held_by_1 and not any(name in own for name in held_by_1)
    for viewer in (1, None):
        theirs = ENGINE.picture(ENGINE.view(state, viewer))
        for name in ("Humming Call", "Gentle Refrain", *unseen):
            assert name not in theirs, f"{name} leaks to {viewer}"
        assert "Hand of seat 0" not in _titles(theirs)


def test_pictures_do_not_depend_on_which_cards_another_seat_holds() -> None:
    """Two positions that differ only in seat 0's hand draw the same for seat 1 and for
    a spectator."""
    a = position(opening(hands={0: ["lark_humming", "lark_refrain"]}))
    b = position(opening(hands={0: ["lark_coax", "lark_tap"]}))
    for viewer in (1, None):
        assert ENGINE.picture(ENGINE.view(a.state, viewer)) == ENGINE.picture(
            ENGINE.view(b.state, viewer)
        )
    assert ENGINE.picture(ENGINE.view(a.state, 0)) != ENGINE.picture(ENGINE.view(b.state, 0))


def test_a_random_game_draws_at_every_step_without_naming_hidden_hands() -> None:
    """Through a random 3-player game: each picture parses, and no card held in another
    seat's hand is named (as a whole name: "Taunt" is not "Taunting Jig") unless the view
    itself shows that card somewhere public (a copy in a market deck)."""
    table = Table.create(ENGINE, TableConfig("picture", 3), seed=b"bw-picture-0001-0123")
    choose = random.Random(7)
    steps = 0
    while not ENGINE.outcome(table.state).finished and steps < 400:
        state = table.state
        # Every fifth position keeps the test quick; the positions between are alike.
        for viewer in (None, 0, 1, 2) if steps % 5 == 0 else ():
            view = ENGINE.view(state, viewer)
            svg = ENGINE.picture(view)
            ET.fromstring(svg)
            public = str({**view, "private": None})
            for seat, player in enumerate(state.players):
                if seat == viewer:
                    continue
                for card in player.hand:
                    name = content().card(card).name
                    if card not in public and name not in public:
                        named = re.search(rf"(?<!\w){re.escape(name)}(?!\w)", svg)
                        assert not named, f"seat {seat}'s {name} drawn for {viewer}"
        seat = ENGINE.outcome(table.state).to_act[0]
        table.execute(seat, choose.choice(ENGINE.legal_commands(table.state, seat)))
        steps += 1
    assert steps > 50


def test_a_seat_still_choosing_its_character_has_no_board_yet() -> None:
    """During the Character choice a seat's panel says so, without a Badge track or
    Tempo wheel it does not have yet."""
    table = Table.create(ENGINE, TableConfig("choosing", 2), seed=b"bw-choosing-01-0123")
    titles = _titles(ENGINE.picture(ENGINE.view(table.state, None)))
    assert "Board of seat 0" in titles and "Board of seat 1" in titles
    assert not [title for title in titles if title.startswith("Badge track")]
