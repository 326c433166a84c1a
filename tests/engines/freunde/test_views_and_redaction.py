"""Hidden information: hands and deck orders are secret; drawn plots are the drawer's."""

from __future__ import annotations

import json
import random

from engines.core.contract import TableConfig
from engines.core.play import Table
from engines.core.rng import Rng
from engines.core.testing import given
from engines.freunde.engine import ENGINE
from proto import freunde_pb2 as pb
from tests.engines.freunde.positions import plots_drawn, started, turn

_SHARED = ("game", "stage", "to_act", "finished", "board", "players")


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others() -> None:
    """Views: the public table plus one's own hand; others' hands as hidden cards of
    known kinds."""
    position = given(ENGINE, started(3))
    mine = position.view(1)
    assert [c["card"] for c in mine["private"]["hand"]] == [2, 17, 32]
    assert mine["private"]["hand"][0] == {
        "card": 2,
        "kind": "plot",
        "name": "Green Straight",
        "points": 2,
    }
    for player in mine["players"]:
        assert player["hand"] == [None, None, None]
        assert player["hand_kinds"] == {"plot": 1, "gardener": 1, "panda": 1}
    spectator = position.view(None)
    assert spectator["private"] is None and spectator["viewer"] is None
    assert {k: mine[k] for k in _SHARED} == {k: spectator[k] for k in _SHARED}
    json.dumps(mine)


def test_no_view_shows_a_deck_order() -> None:
    """Decks appear as counts only."""
    view = given(ENGINE, started(2)).view(0)
    assert view["board"]["decks"] == {"plots": 27, "plot": 13, "gardener": 13, "panda": 13}


def test_set_up_events_hide_every_deck_order_from_everyone() -> None:
    """GameStarted keeps the deck sizes and clears the cards, for players and spectators."""
    events = ENGINE.setup(TableConfig("t", 2), Rng(b"secret", "t", 0))
    for seat in (None, 0, 1):
        shown = ENGINE.redact(events[0], seat).game_started
        assert list(shown.plot_stack) == [0] * 27
        assert list(shown.plot_objectives) == [0] * 15
        assert list(shown.gardener_objectives) == [0] * 15
        assert list(shown.panda_objectives) == [0] * 15
        assert shown.first_player == events[0].game_started.first_player


def test_dealt_objectives_are_seen_by_their_owner_only() -> None:
    """ObjectivesDealt: the owner sees its cards, everyone else three blanks of known kinds."""
    dealt = ENGINE.setup(TableConfig("t", 2), Rng(b"secret", "t", 0))[1]
    assert ENGINE.redact(dealt, 0) == dealt
    hidden = ENGINE.redact(dealt, 1).objectives_dealt
    assert list(hidden.cards) == [0, 0, 0] and len(hidden.kinds) == 3
    assert list(ENGINE.redact(dealt, None).objectives_dealt.cards) == [0, 0, 0]


def test_public_events_pass_unchanged_and_the_original_is_never_changed() -> None:
    """Public events are shown as they are; redacting never modifies the event given."""
    event = pb.Event(gardener_moved=pb.GardenerMoved(seat=1, to=pb.Hex(q=1)))
    assert ENGINE.redact(event, 0) == event
    secret = pb.Event(plots_drawn=pb.PlotsDrawn(seat=0, tiles=[4, 5, 6]))
    assert list(ENGINE.redact(secret, 1).plots_drawn.tiles) == [0, 0, 0]
    assert list(secret.plots_drawn.tiles) == [4, 5, 6]


def test_drawn_plots_are_in_the_drawer_s_view_only() -> None:
    """The 3 drawn plots are seen only by the drawing seat."""
    position = given(ENGINE, started(), turn(0), plots_drawn(0, [7, 8, 9]))
    assert [t["tile"] for t in position.view(0)["private"]["drawn_plots"]] == [7, 8, 9]
    assert position.view(1)["private"]["drawn_plots"] == []
    assert position.view(None)["board"]["drawn_plots"] == [None, None, None]


def test_only_the_private_part_differs_between_viewers() -> None:
    """Throughout a whole game, board and players are the same for every seat and for
    spectators; each private part holds that seat's hand."""
    chooser = random.Random(3)
    table = Table.create(ENGINE, TableConfig("views", 3, {"round_limit": 6}), b"views")
    checked = 0
    while not ENGINE.outcome(table.state).finished:
        if table.version % 7 == 0:
            public = ENGINE.view(table.state, None)
            for seat in range(3):
                view = ENGINE.view(table.state, seat)
                assert {k: view[k] for k in _SHARED} == {k: public[k] for k in _SHARED}
                assert [c["card"] for c in view["private"]["hand"]] == list(
                    table.state.players[seat].hand
                )
            checked += 1
        seat = ENGINE.outcome(table.state).to_act[0]
        table.execute(seat, chooser.choice(ENGINE.legal_commands(table.state, seat)))
    assert checked > 10
