"""A first round played through the in-memory table, from real set-up events."""

from __future__ import annotations

from engines.core.contract import TableConfig
from engines.core.play import Table, fold
from engines.core.rng import Rng
from engines.freunde.engine import ENGINE
from proto import freunde_pb2 as pb


def test_a_first_round_draws_places_irrigates_and_passes_the_turn() -> None:
    """Given set-up, when the first player takes plots and irrigation and ends the turn,
    then the garden, the supplies, the secrets and the next turn are as the rules say."""
    table = Table.create(ENGINE, TableConfig("first-round", 2), b"first-round")
    first = ENGINE.view(table.state, None)["to_act"][0]
    other = 1 - first
    started = ENGINE.setup(table.config, Rng(table.seed, table.config.table_id, 0))[0]
    top_three = list(started.game_started.plot_stack[:3])

    drawn = table.execute(first, pb.Command(draw_plots=pb.DrawPlots()))
    assert drawn == [pb.Event(plots_drawn=pb.PlotsDrawn(seat=first, tiles=top_three))]
    assert ENGINE.view(table.state, other)["private"]["drawn_plots"] == []
    assert ENGINE.view(table.state, first)["private"]["drawn_plots"][1]["tile"] == top_three[1]

    placed = table.execute(
        first, pb.Command(place_plot=pb.PlacePlot(tile=top_three[1], at=pb.Hex(q=0, r=1)))
    )
    assert [e.WhichOneof("kind") for e in placed] == [
        "plot_placed",
        "plot_irrigated",
        "bamboo_grown",
    ]
    table.execute(first, pb.Command(take_irrigation=pb.TakeIrrigation()))
    assert ENGINE.legal_commands(table.state, first)[0] == pb.Command(end_turn=pb.EndTurn())

    passed = table.execute(first, pb.Command(end_turn=pb.EndTurn()))
    assert [e.WhichOneof("kind") for e in passed] == ["turn_ended", "turn_started"]

    view = ENGINE.view(table.state, None)
    board = view["board"]
    assert view["to_act"] == [other] and view["stage"] == "actions" and board["weather"] == ""
    assert [(p["q"], p["r"], p["tile"], p["bamboo"]) for p in board["garden"]] == [
        (0, 1, top_three[1], 1)
    ]
    assert board["decks"]["plots"] == 26
    assert view["players"][first]["irrigation"] == 1
    assert board["supply"]["irrigation"] == 19
    assert ENGINE.legal_commands(table.state, first) == []
    assert fold(ENGINE, table.events) == table.state
