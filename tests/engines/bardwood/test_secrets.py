"""Hidden information: hands and the unseen part of each deck stay with their owner;
face-down Legends are a count; everything face up (the Fan deck, the market decks in
order, cards put on top of a deck in view of all) is public."""

from __future__ import annotations

import json

from engines.bardwood.engine import ENGINE
from tests.engines.bardwood.given import cmd, ev, opening, position, singing


def test_a_drawn_card_is_seen_by_its_owner_only() -> None:
    """``CardDrawn.card`` is blank for every other seat and spectators; the event keeps who
    drew."""
    drawn = ev("card_drawn", seat=1, card="quill_ode")
    assert ENGINE.redact(drawn, 1) == drawn
    for viewer in (0, None):
        shown = ENGINE.redact(drawn, viewer)
        assert shown.card_drawn.seat == 1 and shown.card_drawn.card == ""
    known = ev("known_card_drawn", seat=1, card="descant")
    assert ENGINE.redact(known, 0) == known, "a card put on top in view of all stays known"


def test_views_show_hands_and_decks_as_counts_to_others() -> None:
    """A seat sees its own hand; others see how many cards, never which, nor any order."""
    state = position(opening()).state
    mine = ENGINE.view(state, 0)
    theirs = ENGINE.view(state, 1)
    spectator = ENGINE.view(state, None)
    assert mine["private"]["hand"] == ["lark_humming", "lark_refrain"]
    assert theirs["players"][0]["hand_size"] == 2 and theirs["players"][0]["deck_size"] == 5
    assert spectator["private"] is None
    for other in (json.dumps(theirs), json.dumps(spectator)):
        assert "lark_humming" not in other and "lark_refrain" not in other
        assert "lark_coax" not in other, "the unseen deck is not listed"


def test_views_do_not_depend_on_which_cards_another_seat_holds() -> None:
    """Two positions that differ only in seat 0's hand look the same to seat 1."""
    a = position(
        opening(hands={0: ["lark_humming", "lark_refrain"], 1: ["quill_stanza", "quill_fable"]})
    )
    b = position(opening(hands={0: ["lark_coax", "lark_tap"], 1: ["quill_stanza", "quill_fable"]}))
    assert ENGINE.view(a.state, 1) == ENGINE.view(b.state, 1)
    assert ENGINE.view(a.state, None) == ENGINE.view(b.state, None)
    assert ENGINE.view(a.state, 0) != ENGINE.view(b.state, 0)


def test_face_down_legends_are_a_count_and_face_up_things_are_listed() -> None:
    """The Legend stacks show how many; the Fan deck and the market decks show every card
    in order ("You can look at the cards in a Shop deck anytime")."""
    board = ENGINE.view(position(opening()).state, None)["board"]
    assert board["legends"][0]["face_down"] == 4
    assert [leg["legend"] for leg in board["legends"][0]["face_up"]] == ["hedge_knight"]
    assert len(board["fans"]) == 12
    assert board["market"][0]["cards"] == [
        "descant",
        "couplet",
        "hat",
        "echo",
        "ballad",
        "wildcall",
    ]


def test_refusals_say_nothing_about_another_seats_hand() -> None:
    """Playing a card another seat holds is refused exactly like one nobody holds."""
    later = position(opening(), ev("bard_placed", seat=0, space="s3"))
    held = later.when(0, cmd("play_card", card="quill_stanza")).refused("card.not_in_hand")
    nowhere = later.when(0, cmd("play_card", card="quill_ode")).refused("card.not_in_hand")
    assert held.message.replace("quill_stanza", "?") == nowhere.message.replace("quill_ode", "?")


def test_legal_commands_list_only_the_seats_own_cards() -> None:
    """Legal commands are listed for the seat to act, naming only its own hand."""
    state = position(opening(), ev("bard_placed", seat=0, space="s3")).state
    assert ENGINE.legal_commands(state, 1) == []
    listed = json.dumps([str(c) for c in ENGINE.legal_commands(state, 0)])
    assert "quill" not in listed
    singing_state = position(opening(), singing(0, space="s1")).state
    assert all("quill" not in str(c) for c in ENGINE.legal_commands(singing_state, 0))
