"""1. Composition, Rotating Tempo, Covered Bonuses, Your First Turn, Preparing to Sing and
Movement."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tests.engines.bardwood.given import ENGINE, cmd, ev, gained, opening, position

PLACED = [*opening(), ev("bard_placed", seat=0, space="s3")]
LATER = [*PLACED, ev("turn_began", seat=0)]


def kinds(events: Sequence[Any]) -> list[str]:
    return [e.WhichOneof("kind") for e in events]


def test_the_first_turn_starts_by_placing_the_bard_on_a_starting_space() -> None:
    """Your First Turn: one of the two starting spaces, nothing else first."""
    start = position(opening())
    assert ENGINE.view(start.state, 0)["stage"] == "place_bard"
    start.when(0, cmd("place_bard", space="s0")).refused("bard.not_a_starting_space")
    start.when(0, cmd("play_card", card="lark_humming")).refused("command.not_now")
    placed = start.when(0, cmd("place_bard", space="s5"))
    placed.then(ev("bard_placed", seat=0, space="s5"))
    assert placed.view(1)["players"][0]["space"] == "s5"


def test_play_and_discard_in_either_order_then_downtime() -> None:
    """Play 1 card (no immediate effect) and discard 1 (its strip), in any order."""
    played = position(PLACED).when(0, cmd("play_card", card="lark_refrain"))
    played.then(ev("card_played", seat=0, card="lark_refrain"))
    song = [s["card"] for s in played.view(1)["players"][0]["song"]]
    assert song == ["lark_harp", "lark_refrain"], "to the right of the Song"
    position(played.scenario.events, played.events).when(
        0, cmd("play_card", card="lark_humming")
    ).refused("composition.already_played")
    first_discard = position(PLACED).when(0, cmd("discard_card", card="lark_refrain")).accepted()
    assert first_discard.view(0)["players"][0]["discard"] == ["lark_devotee", "lark_refrain"]


def test_composition_is_finished_only_when_both_cards_are_handled() -> None:
    """Finish is refused until a card is played and one discarded; leftover movement may be
    given up with Finish, then Downtime draws back to two cards."""
    position(PLACED).when(0, cmd("finish")).refused("composition.unfinished")
    position(PLACED).when(0, cmd("play_card", card="ghost")).refused("card.not_in_hand")
    discarded = position(PLACED).when(0, cmd("discard_card", card="lark_refrain")).accepted()
    after = position(discarded.scenario.events, discarded.events)
    played = after.when(0, cmd("play_card", card="lark_humming")).accepted()
    assert played.view(0)["stage"] == "compose", "movement left to spend"
    done = position(played.scenario.events, played.events).when(0, cmd("finish")).accepted()
    assert "downtime_began" in kinds(done.events) and "turn_ended" in kinds(done.events)
    assert done.view(0)["board"]["turn"]["seat"] == 1
    assert len(done.view(0)["private"]["hand"]) == 2


def test_volume_above_six_is_lost() -> None:
    """Gaining Volume: "any Volume gained that would increase your total beyond 6 is lost"."""
    loud = position(LATER, gained(0, volume=3))  # Volume 5
    discarded = loud.when(0, cmd("discard_card", card="lark_humming")).accepted()
    assert gained(0, "strip", volume=1) in discarded.events
    assert discarded.view(0)["players"][0]["volume"] == 6


def test_passing_noon_triggers_the_song_and_the_turn_sings_after_composing() -> None:
    """Preparing to Sing: the icon passing the Song tracker clockwise moves it to the Song;
    after Composition the Song is sung."""
    before_noon = position(LATER, ev("tempo_turned", seat=0, steps=3, area=3))
    discarded = before_noon.when(0, cmd("discard_card", card="lark_refrain"))
    discarded.then(
        ev("card_discarded", seat=0, card="lark_refrain"),
        gained(0, "strip", volume=2),
        ev("tempo_turned", seat=0, steps=1, area=0),
        ev("song_triggered", seat=0),
        gained(0, "tempo", movement=1),
    )
    played = position(discarded.scenario.events, discarded.events).when(
        0, cmd("play_card", card="lark_humming")
    )
    played.then(
        ev("card_played", seat=0, card="lark_humming"),
        ev("singing_began", seat=0, swan_song=False),
    )
    assert played.view(0)["stage"] == "sing"
    assert played.view(0)["board"]["turn"]["movement"] == 1, "movement carries into the Song"


def test_an_uncovered_bonus_is_gained_with_the_movement() -> None:
    """Covered Bonuses: with both Runes gone from a spot, landing there gains its bonus too
    (the 3-movement area's crystal)."""
    runes_gone = [
        ev("rune_placed", seat=0, area=2, to="perform:0"),
        ev("rune_placed", seat=0, area=2, to="perform:1"),
    ]
    uncovered = position(LATER, runes_gone).when(0, cmd("discard_card", card="lark_humming"))
    uncovered.then(
        ev("card_discarded", seat=0, card="lark_humming"),
        gained(0, "strip", volume=3),
        ev("tempo_turned", seat=0, steps=2, area=2),
        gained(0, "tempo", movement=3),
        ev("crystals_taken", seat=0, reason="tempo", act1=1),
    )
    covered = position(LATER, runes_gone[:1]).when(0, cmd("discard_card", card="lark_humming"))
    assert "crystals_taken" not in kinds(covered.accepted().events), "one Rune still covers it"


def test_movement_points_move_the_bard_orthogonally_or_the_boat_up_to_minus_three() -> None:
    """Movement: a point per space, never diagonal; the boat stops at -3; points split."""
    moving = position(LATER, gained(0, movement=6))
    moving.when(0, cmd("move_bard", space="s1")).refused("movement.not_adjacent")
    moved = moving.when(0, cmd("move_bard", space="s0"))
    moved.then(ev("bard_moved", seat=0, space="s0"))
    assert moved.view(0)["board"]["turn"]["movement"] == 5
    boat = position(
        LATER, gained(0, movement=6), *[ev("boat_moved", seat=0, position=p) for p in (1, 2, 3)]
    )
    at_end = boat.when(0, cmd("move_boat"))
    at_end.then(ev("boat_moved", seat=0, position=4))
    assert at_end.view(0)["players"][0]["discount"] == 3
    position(boat.events, at_end.events).when(0, cmd("move_boat")).refused("movement.boat_at_end")
    position(LATER).when(0, cmd("move_bard", space="s0")).refused("movement.none_left")
    spent = position(LATER, gained(0, movement=1), ev("bard_moved", seat=0, space="s0"))
    spent.when(0, cmd("move_boat")).refused("movement.none_left")


def test_bards_and_boats_share_spaces() -> None:
    """Movement: "Bards can share spaces with other Bards"."""
    two = [*opening(), ev("bard_placed", seat=1, space="s3"), ev("bard_placed", seat=0, space="s0")]
    shared = position(two, ev("turn_began", seat=0), gained(0, movement=1))
    shared.when(0, cmd("move_bard", space="s3")).then(ev("bard_moved", seat=0, space="s3"))


def test_unused_movement_is_lost_when_the_turn_ends() -> None:
    """Rotating Tempo: "Any Movement Points not used this turn are lost"."""
    spare = position(LATER, gained(0, movement=4))
    discarded = spare.when(0, cmd("discard_card", card="lark_refrain")).accepted()
    rest = position(spare.events, discarded.events)
    played = rest.when(0, cmd("play_card", card="lark_humming")).accepted()
    done = position(rest.events, played.events).when(0, cmd("finish")).accepted()
    assert done.view(1)["board"]["turn"] == {**done.view(1)["board"]["turn"], "movement": 0}
    assert done.view(1)["board"]["turn"]["seat"] == 1


def test_a_hand_of_one_card_plays_or_discards_it() -> None:
    """With one card (no Skill card was left to draw), handling it ends Composition."""
    short = [*opening(hands={0: ["lark_humming"], 1: ["quill_stanza", "quill_fable"]})]
    one = position(short, ev("bard_placed", seat=0, space="s3"), ev("turn_began", seat=0))
    played = one.when(0, cmd("play_card", card="lark_humming")).accepted()
    assert "downtime_began" in kinds(played.events)
