"""The game kit refuses parts that do not fit, and its conformance check catches broken
engines: a leaky view, a list that offers a refused move, a rule that accepts an unlisted
one, a redaction that keeps a secret."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from engines.core.bots import RandomBot
from engines.core.contract import TableConfig
from engines.core.game import Game, Move, MoveWords, menus, plain_words
from engines.core.play import Table, fold
from engines.core.recorders import Recorders, changed
from engines.core.redaction import BY_INDEX, Redaction, Secret
from engines.core.testing import conformance, given
from engines.freunde.engine import ENGINE as FREUNDE
from proto import freunde_pb2, goofspiel_pb2, harvest_pb2
from tests.kit_example.goofspiel import engine as goofspiel
from tests.kit_example.goofspiel.rules import RECORDERS, Goofspiel, bid
from tests.kit_example.test_goofspiel import reshuffle

PARTS: dict[str, Any] = {
    name: getattr(goofspiel.ENGINE, attr)
    for name, attr in {
        "info": "info",
        "command_type": "command_type",
        "event_type": "event_type",
        "initial_state": "_initial_state",
        "setup": "_setup",
        "recorders": "recorders",
        "flow": "flow",
        "moves": "moves",
        "redaction": "redaction",
        "board": "_board",
        "players": "_players",
        "private": "_private",
        "standing": "_standing",
        "advance": "_advance",
    }.items()
}


def variant(**changes: Any) -> Game[Goofspiel, goofspiel_pb2.Command, goofspiel_pb2.Event]:
    return Game(**{**PARTS, **changes})


def test_an_event_without_a_recorder_stops_the_import() -> None:
    """Building a game whose recorders miss an event kind raises, naming it."""
    partial: Recorders[Goofspiel] = Recorders(goofspiel_pb2.Event)
    partial.on("game_started")(RECORDERS._recorders["game_started"])
    with pytest.raises(TypeError, match="no recorder for prize_revealed, bid_placed"):
        variant(recorders=partial)


def test_a_recorder_for_an_unknown_event_is_refused() -> None:
    with pytest.raises(TypeError, match="no event 'bid_made'"):
        Recorders(goofspiel_pb2.Event).on("bid_made")


def test_every_command_needs_a_move_and_a_stage() -> None:
    with pytest.raises(TypeError, match="commands without a move: bid"):
        variant(moves={})
    with pytest.raises(TypeError, match="moves for commands that do not exist: pass"):
        variant(moves={**PARTS["moves"], "pass": PARTS["moves"]["bid"]})


def test_a_redaction_naming_a_missing_field_stops_the_import() -> None:
    with pytest.raises(TypeError, match="has no field 'cardz'"):
        Redaction(freunde_pb2.Event, {"objectives_dealt": (Secret("cardz", owner="seat"),)})
    with pytest.raises(TypeError, match="BY_INDEX needs a repeated message"):
        Redaction(freunde_pb2.Event, {"objectives_dealt": (Secret("cards", owner=BY_INDEX),)})


def test_redaction_keeps_lengths_and_shows_owners_their_own() -> None:
    """Hidden values become zeros in place; the owner sees its own; deck orders nobody."""
    policy: Redaction[freunde_pb2.Event] = Redaction(
        freunde_pb2.Event,
        {
            "game_started": (Secret("plot_stack"),),
            "objectives_dealt": (Secret("cards", owner="seat"),),
        },
    )
    dealt = freunde_pb2.Event(objectives_dealt=freunde_pb2.ObjectivesDealt(seat=1, cards=[7, 9]))
    assert list(policy.redact(dealt, 0).objectives_dealt.cards) == [0, 0]
    assert list(policy.redact(dealt, None).objectives_dealt.cards) == [0, 0]
    assert policy.redact(dealt, 1) is dealt
    started = freunde_pb2.Event(game_started=freunde_pb2.GameStarted(seats=2, plot_stack=[4, 5]))
    shown = policy.redact(started, 1).game_started
    assert list(shown.plot_stack) == [0, 0] and shown.seats == 2


def test_redaction_by_index_hides_every_other_seats_element() -> None:
    """``deals[k]`` belongs to seat k: each seat keeps its own deal, the rest keep length."""
    policy: Redaction[harvest_pb2.Event] = Redaction(
        harvest_pb2.Event, {"game_set_up": (Secret("deals.characters", owner=BY_INDEX),)}
    )
    event = harvest_pb2.Event(
        game_set_up=harvest_pb2.GameSetUp(
            deals=[
                harvest_pb2.SeatDeal(characters=["rose", "kit"]),
                harvest_pb2.SeatDeal(characters=["wren", "szeth"]),
            ]
        )
    )
    seen = policy.redact(event, 1).game_set_up.deals
    assert list(seen[0].characters) == ["", ""] and list(seen[1].characters) == ["wren", "szeth"]


def test_a_wrong_stage_is_refused_with_the_stages_own_sentence() -> None:
    """command.not_now carries what the stage waits for."""
    from engines.core.flow import Flow, Stage

    idle = Flow(
        stages=(Stage("idle", (), waiting_for="Wait for the prize."), *PARTS["flow"].stages),
        stage_of=lambda state: "idle" if state.prize == 1 else "bidding",
        to_act=PARTS["flow"].to_act,
        finished=PARTS["flow"].finished,
    )
    game = variant(flow=idle)
    started = goofspiel_pb2.Event(game_started=goofspiel_pb2.GameStarted(seats=2, cards=3))
    revealed = goofspiel_pb2.Event(prize_revealed=goofspiel_pb2.PrizeRevealed(prize=1))
    violation = (
        given(game, started, revealed)
        .when(0, goofspiel_pb2.Command(bid=goofspiel_pb2.Bid(card=1)))
        .refused("command.not_now")
    )
    assert violation.message == "Wait for the prize."


def _leaky_players(state: Goofspiel, viewer: int | None) -> list[dict[str, Any]]:
    shown = PARTS["players"](state, viewer)
    for seat, entry in enumerate(shown):
        entry["bid"] = state.bids[seat]
    return shown


def test_conformance_catches_a_view_that_shows_another_seats_secret() -> None:
    with pytest.raises(AssertionError, match="view depends on what it may not see"):
        conformance(variant(players=_leaky_players), 2, range(3), deep_every=1, reshuffle=reshuffle)


def test_conformance_catches_a_list_that_offers_a_refused_move() -> None:
    """Listing every card, spent or not, as exact: the check finds a listed command refused."""

    def every_card(state: Goofspiel, seat: int) -> list[goofspiel_pb2.Bid]:
        return [goofspiel_pb2.Bid(card=c) for c in range(1, state.cards + 1)]

    broken = variant(moves={"bid": Move(bid, candidates=every_card, exact=True)})
    with pytest.raises(AssertionError, match="refused"):
        conformance(broken, 2, range(3), deep_every=1)


def test_conformance_catches_a_rule_that_accepts_an_unlisted_move() -> None:
    """A rule accepting any card value while only hand cards are listed."""

    def any_card(state: Goofspiel, cmd: goofspiel_pb2.Bid, seat: int) -> list[goofspiel_pb2.Event]:
        card = cmd.card if cmd.card in state.hands[seat] else state.hands[seat][0]
        return bid(state, goofspiel_pb2.Bid(card=card), seat)

    broken = variant(moves={"bid": dataclasses.replace(PARTS["moves"]["bid"], rule=any_card)})
    with pytest.raises(AssertionError, match="unlisted command and it was accepted"):
        conformance(broken, 2, range(5), deep_every=1)


def _offering(kinds: frozenset[str]) -> Game[Goofspiel, goofspiel_pb2.Command, goofspiel_pb2.Event]:
    """Goofspiel with every stage offering only ``kinds`` for listing."""
    flow = PARTS["flow"]
    stages = tuple(dataclasses.replace(s, offered=lambda state: kinds) for s in flow.stages)
    return variant(flow=dataclasses.replace(flow, stages=stages))


def test_a_stage_lists_only_the_kinds_it_offers() -> None:
    """Offering the bid lists the bids; offering nothing lists nothing, which the
    conformance check catches (a seat to act with no command)."""
    started = goofspiel_pb2.Event(game_started=goofspiel_pb2.GameStarted(seats=2, cards=3))
    revealed = goofspiel_pb2.Event(prize_revealed=goofspiel_pb2.PrizeRevealed(prize=2))
    state = given(goofspiel.ENGINE, started, revealed).state
    bids = [c.bid.card for c in _offering(frozenset({"bid"})).legal_commands(state, 0)]
    assert bids == [1, 2, 3]
    assert _offering(frozenset()).legal_commands(state, 0) == []
    with pytest.raises(AssertionError, match="with no command"):
        conformance(_offering(frozenset()), 2, range(2), deep_every=1)


def test_conformance_catches_a_redaction_that_keeps_a_secret() -> None:
    """A policy whose secret applies but whose redact shows it anyway is caught."""

    class Leaky(Redaction):
        def redact(self, event: Any, seat: int | None) -> Any:
            return event

    leaky = Leaky(goofspiel_pb2.Event, {"bid_placed": (Secret("card", owner="seat"),)})
    with pytest.raises(AssertionError, match="still shows a value"):
        conformance(variant(redaction=leaky), 2, range(2), deep_every=1)


def test_menus_keep_listing_order_and_split_large_groups() -> None:
    """Groups of at most 25 options, in the order the commands were listed."""
    words = [MoveWords("Place a plot", f"spot {i}") for i in range(30)]
    words.insert(3, MoveWords("End your turn", "end"))
    grouped = menus(words)
    assert [title for title, _ in grouped] == [
        "Place a plot (1/2)",
        "Place a plot (2/2)",
        "End your turn",
    ]
    assert grouped[0][1][:4] == [0, 1, 2, 4] and len(grouped[0][1]) == 25
    assert grouped[2][1] == [3]


def test_plain_words_name_the_kind_and_fields() -> None:
    """The fallback wording, for a game that gives none."""
    command = freunde_pb2.Command(
        place_plot=freunde_pb2.PlacePlot(tile=19, at=freunde_pb2.Hex(q=-5, r=1))
    )
    assert plain_words(command) == "place plot: tile 19, at q -5, r 1"


def test_pictures_escape_what_they_write() -> None:
    """Names from players cannot break the SVG document."""
    import xml.dom.minidom

    from engines.core.picture import Svg, plain_picture

    svg = Svg(100, 50)
    svg.text(1, 2, "<script>&'\"")
    svg.hexagon(20, 20, 10, fill="#abc", stroke_width=2)
    parsed = xml.dom.minidom.parseString(svg.document())
    assert parsed.getElementsByTagName("text")[0].firstChild.data == "<script>&'\""  # type: ignore[union-attr]
    assert parsed.getElementsByTagName("polygon")[0].getAttribute("stroke-width") == "2"
    view = {"players": [{"seat": 0, "score": 3}], "to_act": [0], "stage": "bidding"}
    assert "Seat 0" in plain_picture(view, "Toy")


@pytest.mark.parametrize(
    ("engine", "options"),
    [(goofspiel.ENGINE, {"cards": 13}), (FREUNDE, {})],
    ids=["goofspiel", "freunde"],
)
def test_the_random_bot_picks_what_a_seeded_choice_of_the_legal_commands_picks(
    engine: Game[Any, Any, Any], options: dict[str, int]
) -> None:
    """The bot builds only the command it picks, from legal_groups: the pick is the one
    ``random.Random(seed).choice(legal_commands)`` makes, so seeded games stay the same."""
    table = Table.create(engine, TableConfig("random-bot", 2, options), b"seed")
    for step in range(300):
        _, to_act = engine.flow.now(table.state)
        if not to_act:
            break
        seat = to_act[0]
        expected = random.Random(step).choice(engine.legal_commands(table.state, seat))
        picked = RandomBot(step).choose(engine, table.state, seat)
        assert picked == expected
        table.execute(seat, picked)
    assert step > 10


def test_a_command_built_again_from_a_listed_body_is_the_same_and_a_fresh_message() -> None:
    """``Game.command`` remembers the bytes of what it built for a listed body: building
    again gives an equal command (the body's presence included, even when empty) that is
    a message of its own."""
    for kind, body in FREUNDE.legal_moves(
        Table.create(FREUNDE, TableConfig("built", 2), b"seed").state, 0
    ):
        first, again = FREUNDE.command(kind, body), FREUNDE.command(kind, body)
        assert first == again and first is not again
        assert again.WhichOneof("kind") == kind
        again.Clear()
        assert FREUNDE.command(kind, body) == first
    empty = freunde_pb2.SkipWeather()
    skip = FREUNDE.command("skip_weather", empty)
    assert skip == FREUNDE.command("skip_weather", empty)
    assert skip.WhichOneof("kind") == "skip_weather"


def test_decided_gives_the_state_its_events_fold_to() -> None:
    """A command's events are recorded once, by ``decided``: the state it returns with
    them is the one folding the log from the start gives (replay)."""
    engine = goofspiel.ENGINE
    table = Table.create(engine, TableConfig("decided", 2, {"cards": 5}), b"seed")
    pick = random.Random(3)
    for _ in range(4):
        seat = engine.flow.now(table.state)[1][0]
        command = pick.choice(engine.legal_commands(table.state, seat))
        events, state = engine.decided(table.state, command, seat, table.rng())
        assert events == engine.decide(table.state, command, seat, table.rng())
        table.execute(seat, command)
        assert state == table.state == fold(engine, table.events)


def test_remembering_recorders_give_the_same_state_back_for_the_same_event() -> None:
    """``remembers=True`` (rules that record their events as they build them): folding
    the same event on the same state again gives the very state object of last time."""
    events = Table.create(goofspiel.ENGINE, TableConfig("record", 2, {"cards": 5}), b"seed").events
    remembering: Recorders[Goofspiel] = Recorders(goofspiel_pb2.Event, remembers=True)
    for kind, recorder in RECORDERS._recorders.items():
        remembering.on(kind)(recorder)
    state = goofspiel.ENGINE.initial_state()
    assert remembering.evolve(state, events[0]) is remembering.evolve(state, events[0])
    assert RECORDERS.evolve(state, events[0]) == remembering.evolve(state, events[0])


def test_changed_copies_a_record_with_new_fields_and_refuses_a_name_that_is_no_field() -> None:
    @dataclasses.dataclass(frozen=True)
    class Pond:
        fish: int = 0
        frogs: tuple[int, ...] = ()

    pond = Pond(3, (1,))
    fuller = changed(pond, fish=4)
    assert fuller == Pond(4, (1,)) and pond == Pond(3, (1,))
    assert changed(fuller, frogs=()).frogs == () and fuller.frogs == (1,)
    with pytest.raises(TypeError, match="no field among"):
        changed(pond, fishes=5)
