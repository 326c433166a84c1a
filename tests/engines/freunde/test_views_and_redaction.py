"""Hidden information: hands and deck orders are secret; drawn plots are the drawer's."""

from __future__ import annotations

import json

from engines.core.contract import TableConfig
from engines.core.rng import Rng
from engines.freunde.engine import ENGINE
from proto import freunde_pb2 as pb
from tests.engines.freunde.given import after, game, turn


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others() -> None:
    """Views: the public table plus one's own hand; others' hands as sizes and kinds."""
    state = game(3)
    mine = ENGINE.view(state, 1)
    assert [c["card"] for c in mine["you"]["hand"]] == list(state.hands[1])
    assert mine["you"]["hand"][0] == {
        "card": state.hands[1][0],
        "kind": "plot",
        "name": "Green Straight",
        "points": 2,
    }
    for player in mine["players"]:
        assert "hand" not in player
        assert player["hand_size"] == 3
        assert player["hand_kinds"] == {"plot": 1, "gardener": 1, "panda": 1}
    spectator = ENGINE.view(state, None)
    assert spectator["you"] is None
    mine.pop("you")
    spectator.pop("you")
    assert mine == spectator
    json.dumps(mine)


def test_no_view_shows_a_deck_order() -> None:
    """Decks appear as counts only."""
    view = ENGINE.view(game(2), 0)
    assert view["decks"] == {"plots": 27, "plot": 13, "gardener": 13, "panda": 13}


def test_set_up_events_hide_every_deck_order_from_everyone() -> None:
    """GameStarted keeps the deck sizes and clears the cards, for players and spectators."""
    events = ENGINE.setup(TableConfig("t", 2), Rng(b"secret", "t", 0))
    for seat in (None, 0, 1):
        started = ENGINE.redact(events[0], seat).game_started
        assert list(started.plot_stack) == [0] * 27
        assert list(started.panda_objectives) == [0] * 15
        assert started.first_player == events[0].game_started.first_player


def test_dealt_objectives_are_seen_by_their_owner_only() -> None:
    """ObjectivesDealt: the owner sees its cards, everyone else three blanks of known kinds."""
    dealt = ENGINE.setup(TableConfig("t", 2), Rng(b"secret", "t", 0))[1]
    assert ENGINE.redact(dealt, 0) == dealt
    hidden = ENGINE.redact(dealt, 1).objectives_dealt
    assert list(hidden.cards) == [0, 0, 0] and len(hidden.kinds) == 3
    assert list(ENGINE.redact(dealt, None).objectives_dealt.cards) == [0, 0, 0]


def test_public_events_pass_unchanged_and_redact_returns_a_copy() -> None:
    """Public events are shown as they are; the original is never modified."""
    event = pb.Event(gardener_moved=pb.GardenerMoved(seat=1, to=pb.Hex(q=1)))
    seen = ENGINE.redact(event, 0)
    assert seen == event and seen is not event
    secret = pb.Event(plots_drawn=pb.PlotsDrawn(seat=0, tiles=[4, 5, 6]))
    ENGINE.redact(secret, 1)
    assert list(secret.plots_drawn.tiles) == [4, 5, 6]


def test_drawn_plots_are_in_the_drawer_s_view_only() -> None:
    """The 3 drawn plots are seen only by the drawing seat."""
    state = after(turn(game(), 0), [pb.Event(plots_drawn=pb.PlotsDrawn(seat=0, tiles=[7, 8, 9]))])
    assert [t["tile"] for t in ENGINE.view(state, 0)["you"]["drawn_plots"]] == [7, 8, 9]
    assert ENGINE.view(state, 1)["you"]["drawn_plots"] == []
    assert ENGINE.view(state, None)["drawn_plot_count"] == 3
