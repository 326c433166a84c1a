"""Events and VP Crystals (the Acts), End Game Trigger, Swan Song, End Game Scoring."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.bardwood.scoring import Score, final_scores, winners
from engines.bardwood.setup import set_up
from engines.core.contract import TableConfig
from engines.core.rng import Rng
from tests.engines.bardwood.given import ENGINE, cmd, ev, opening, position, singing

EVENTS = ("royal_visit", "harvest_festival")


def kinds(events: Sequence[Any]) -> list[str]:
    return [e.WhichOneof("kind") for e in events]


def play(history: list[Any], seat: int, *commands: Any) -> list[Any]:
    for command in commands:
        history = [*history, *position(history).when(seat, command).accepted().events]
    return history


def test_the_act_ends_after_the_turn_its_pool_ran_out_and_act_two_begins() -> None:
    """Events and VP Crystals: the Act I pool empties, the rest comes from Act II, the Act I
    Event ends after the current turn (its end effect for everyone), then Act II's begins."""
    held = ev("badges_taken", seat=1, source="track:0", owners=[0, 0])
    start = [*opening(act1_pool=1, events=EVENTS), held, *singing(0, space="s1", lyric=5)]
    performed = position(start).when(0, cmd("perform", spot=4, rune=0)).accepted()
    assert ev("crystals_taken", seat=0, reason="perform", act1=1, act2=1) in performed.events
    assert ev("act_end_triggered", act=1) in performed.events
    assert performed.view(0)["board"]["active_event"] == "royal_visit", "until the turn ends"
    done = position(start, performed.events).when(0, cmd("finish")).accepted()
    end = kinds(done.events)
    assert end.index("turn_ended") < end.index("act_ended") < end.index("turn_began")
    assert ev("act_ended", act=1) in done.events
    assert ev("crystals_taken", seat=1, reason="act", act2=2) in done.events, "2 held Badges"
    assert done.view(0)["board"]["active_event"] == "harvest_festival"


def test_the_end_trigger_gives_a_bonus_and_one_final_turn_to_each_other_player() -> None:
    """End Game Trigger: the current player takes 1 VP from the reserve and finishes its
    turn; every other player takes a final turn and Sings its swan song; then scoring."""
    start = [*opening(act1_pool=1, act2_pool=1, events=EVENTS), *singing(0, space="s1", lyric=5)]
    performed = position(start).when(0, cmd("perform", spot=4, rune=0)).accepted()
    assert ev("game_end_triggered", seat=0, final_seats=[1]) in performed.events
    assert performed.events[-2:][0] == ev("crystals_taken", seat=0, reason="end_bonus", reserve=1)
    history = play([*start, *performed.events], 0, cmd("finish"))
    assert ev("turn_began", seat=1, final=True, first=True) in history[-3:]
    history = play(
        history,
        1,
        cmd("place_bard", space="s3"),
        cmd("play_card", card="quill_stanza"),
        cmd("discard_card", card="quill_fable"),
    )
    assert ev("singing_began", seat=1, swan_song=True) in history[-2:], "sung regardless"
    assert ENGINE.view(position(history).state, 1)["stage"] == "sing"
    history = play(history, 1, cmd("finish"))
    over = position(history)
    assert ENGINE.outcome(over.state).finished
    tail = kinds(history[-4:])
    assert "act_ended" in tail and tail[-1] == "game_finished"
    assert kinds(history).count("turn_began") == 2, "the trigger player takes no extra turn"
    scores = history[-1].game_finished.scores
    assert scores[0].crystals == 3 and scores[1].crystals == 0


def test_an_end_triggered_while_composing_still_sings_the_swan_song() -> None:
    """The current player "finishes their turn and Sings their Song (regardless if it was
    triggered or not)"."""
    uncovered = [ev("rune_placed", seat=0, area=2, to=f"perform:{spot}") for spot in (0, 1)]
    drained = [ev("crystals_taken", seat=1, reason="test", act1=1), ev("act_end_triggered", act=1)]
    start = [
        *opening(act1_pool=1, act2_pool=1, events=EVENTS),
        ev("bard_placed", seat=0, space="s3"),
        ev("turn_began", seat=0),
        *uncovered,
        *drained,
    ]
    discarded = position(start).when(0, cmd("discard_card", card="lark_humming")).accepted()
    assert ev("game_end_triggered", seat=0, final_seats=[1], swan_song=True) in discarded.events
    played = position(start, discarded.events).when(0, cmd("play_card", card="lark_refrain"))
    assert played.accepted().events[-1] == ev("singing_began", seat=0, swan_song=True)


def test_an_end_triggered_in_downtime_gives_no_more_song() -> None:
    """Where the rulebook is silent: a VP from a Fan drawn in Downtime triggers the end after
    the Singing phase; the bonus, then the other players' final turns."""
    drained = [ev("crystals_taken", seat=1, reason="test", act1=1), ev("act_end_triggered", act=1)]
    start = [
        *opening(act1_pool=1, act2_pool=1, events=EVENTS, fans=["elder"]),
        ev("bard_placed", seat=0, space="s3"),
        ev("turn_began", seat=0),
        ev("fan_taken", seat=0, fan="elder"),
        *drained,
    ]
    history = play(
        start,
        0,
        cmd("discard_card", card="lark_refrain"),
        cmd("play_card", card="lark_humming"),
        cmd("finish"),
    )
    cheered = position(history).when(0, cmd("cheer_fan", choice=0)).accepted()
    assert ev("game_end_triggered", seat=0, final_seats=[1]) in cheered.events
    assert "singing_began" not in kinds(cheered.events)
    assert ev("turn_began", seat=1, final=True, first=True) in cheered.events


def test_final_scoring_counts_legends_for_everyone_blue_halves_and_crystals() -> None:
    """End Game Scoring: every Legend with a Rune scores for every player; blue VP on cards
    and uncovered on the Badge track, halves counted; green crystals."""
    history = [
        *opening(),
        ev("rune_placed", seat=1, area=0, to="legend:hedge_knight"),
        ev("creature_soothed", seat=0, location="creatures_1", creature="toad", spot=0),
        ev("creature_soothed", seat=0, location="creatures_2", creature="owl", spot=1),
        ev("badge_placed", seat=0, to="bank"),
        ev("badge_placed", seat=0, to="creatures_3"),
        ev("crystals_taken", seat=0, reason="test", act1=5),
    ]
    scores = final_scores(position(history).state)
    # Hedge Knight: 1 VP per Creature (2); Whisper Owl 0.5 blue; 2 Badges gone uncover 0.5
    assert scores[0] == Score(seat=0, crystals=5, legends=2, blue_halves=2, stones=0)
    assert scores[0].total_halves == 16, "8 VP"
    assert scores[1] == Score(seat=1, crystals=0, legends=0, blue_halves=0, stones=0)


def test_ties_go_to_coins_and_bardstones_then_legend_vp_then_are_shared() -> None:
    """End Game Scoring: "the tied player with the most combined Bardstones and coins wins;
    ... then the most VP from Legends; if still tied, all tied players share"."""
    a = Score(0, crystals=10, legends=2, blue_halves=1, stones=3)
    b = Score(1, crystals=11, legends=1, blue_halves=1, stones=2)
    assert winners([a, b]) == (0,), "same total, more coins and Bardstones"
    c = Score(1, crystals=11, legends=1, blue_halves=1, stones=3)
    assert winners([a, c]) == (0,), "then more Legend VP"
    d = Score(1, crystals=10, legends=2, blue_halves=1, stones=3)
    assert winners([a, d]) == (0, 1), "then shared"
    e = Score(1, crystals=10, legends=2, blue_halves=2, stones=0)
    assert winners([a, e]) == (1,), "half a blue VP more wins"


def test_the_short_game_uses_four_and_six_crystals_per_player() -> None:
    """VP Crystal Setup: "For a Short game, place 4 VP in Act I, and 6 in Act II per player"."""
    for seats, pools in ((2, (8, 12)), (3, (12, 18)), (4, (16, 24))):
        (event,) = set_up(TableConfig("t", seats, {"short_game": True}), Rng(b"s", "t", 0))
        assert (event.game_set_up.act1_pool, event.game_set_up.act2_pool) == pools
