"""Assist and Soothe (Concerning the Aggressive Creatures Swarming Around the Grove)."""

from __future__ import annotations

from tests.engines.bardwood.given import cmd, ev, gained, opening, position, singing

# creatures_2 holds Storm Griffin (Boss) under Grumbling Badger under Whisper Owl (top):
# Owl Soothes for 4, Assists for 2, shows the badge discount and gives 1 Tempo.


def test_assist_pays_the_top_right_melody_and_places_the_left_most_badge() -> None:
    """Assist: adjacent, pay the Assist cost, your left-most Badge on the Creature; nothing
    gained now."""
    song = position(opening(), singing(0, space="s2", melody=2))
    assisted = song.when(0, cmd("assist", location="creatures_2"))
    assisted.then(
        gained(0, "assist", melody=-2),
        ev("location_used", seat=0, location="creatures_2"),
        ev("badge_placed", seat=0, to="creatures_2"),
    )
    view = assisted.view(1)
    assert view["board"]["creatures"][1]["badges"] == [0]
    assert view["players"][0]["badges"] == 6


def test_no_badges_left_means_no_assist() -> None:
    """Assist: "when you run out of your own Badges, you cannot Assist anymore"."""
    gone = ev("badges_taken", seat=1, source="track:0", owners=[0] * 7)
    song = position(opening(), gone, singing(0, space="s2", melody=2))
    song.when(0, cmd("assist", location="creatures_2")).refused("badges.none_left")


def test_soothing_pays_less_for_each_badge_and_rewards_the_assistants() -> None:
    """Soothe: the discount counts every Badge (the soother's too); 1. the soother's own
    Badge goes to the box, 2. every other owner gains the bonus, 3. the soother takes the
    others' Badges, gains the bonus and places the Creature."""
    badges = [
        ev("bard_placed", seat=1, space="s5"),
        ev("badge_placed", seat=0, to="creatures_2"),
        ev("badge_placed", seat=1, to="creatures_2"),
    ]
    song = position(opening(), badges, singing(0, space="s2", melody=2))
    soothed = song.when(0, cmd("soothe", location="creatures_2", spot=1))
    soothed.then(
        gained(0, "soothe", melody=-2),
        ev("location_used", seat=0, location="creatures_2"),
        ev("badge_returned", seat=0, source="creatures_2"),
        ev("tempo_turned", seat=1, steps=1, area=1),
        ev("badges_taken", seat=0, source="creatures_2", owners=[1]),
        ev("tempo_turned", seat=0, steps=1, area=1),
        gained(0, "tempo", movement=2),
        ev(
            "creature_soothed",
            seat=0,
            location="creatures_2",
            creature="owl",
            spot=1,
        ),
    )
    view = soothed.view(1)
    assert view["players"][0]["creatures"] == [[], ["owl"]]
    assert view["players"][0]["held_badges"] == 1 and view["players"][0]["badges"] == 6
    assert view["board"]["creatures"][1] == {
        "location": "creatures_2",
        "cards": ["griffin", "badger"],
        "badges": [],
    }


def test_creatures_stack_on_a_spot_and_the_assist_cost_is_never_reduced() -> None:
    """Soothe 3c: "on an empty spot, or on top of any number of Creatures already on a
    spot"; the discount lowers only the Soothe cost."""
    first = ev("creature_soothed", seat=0, location="creatures_2", creature="owl", spot=0)
    song = position(
        opening(),
        first,
        ev("badge_placed", seat=1, to="creatures_2"),
        singing(0, space="s2", melody=4),
    )
    stacked = song.when(0, cmd("soothe", location="creatures_2", spot=0)).accepted()
    assert stacked.events[0] == gained(0, "soothe", melody=-4), "Badger: 4, no discount icon"
    assert stacked.view(0)["players"][0]["creatures"][0] == ["owl", "badger"]
    assist = position(
        opening(), ev("badge_placed", seat=1, to="creatures_2"), singing(0, space="s2", melody=2)
    )
    assert assist.when(0, cmd("assist", location="creatures_2")).accepted().events[0] == gained(
        0, "assist", melody=-2
    )


def test_a_creature_pile_is_one_location_soothe_or_assist_once_a_turn() -> None:
    """Where the rulebook is silent: Soothe and Assist of one pile in the same turn."""
    song = position(opening(), singing(0, space="s2", melody=9))
    assisted = song.when(0, cmd("assist", location="creatures_2")).accepted()
    position(song.events, assisted.events).when(
        0, cmd("soothe", location="creatures_2", spot=0)
    ).refused("location.used")


def test_an_exhausted_pile_pays_five_melody_for_one_vp() -> None:
    """Activating Locations: "Pay 5 Melody to gain 1 VP" at a Creature pile with none left."""
    piles: dict[str, list[str]] = {
        "creatures_1": [],
        "creatures_2": [],
        "creatures_3": [],
        "creatures_4": [],
        "creatures_5": [],
    }
    song = position(opening(piles=piles), singing(0, space="s2", melody=5))
    song.when(0, cmd("soothe", location="creatures_2", spot=0)).then(
        gained(0, "soothe", melody=-5),
        ev("location_used", seat=0, location="creatures_2"),
        ev("crystals_taken", seat=0, reason="exhausted", act1=1),
    )
    song.when(0, cmd("assist", location="creatures_2")).refused("creature.none_left")
    song.when(0, cmd("soothe", location="creatures_2", spot=1)).refused("creature.no_such_spot")


def test_rangestones_reach_one_space_away_or_anywhere() -> None:
    """Rangestone: one for something one space away, two for anywhere."""
    one_away = position(opening(), singing(0, space="s1", melody=4), gained(0, rangestones=2))
    near = one_away.when(0, cmd("soothe", location="creatures_2", spot=0)).accepted()
    assert near.events[0] == gained(0, "range", rangestones=-1)
    anywhere = one_away.when(0, cmd("assist", location="creatures_5")).accepted()
    assert anywhere.events[0] == gained(0, "range", rangestones=-2)
    none = position(opening(), singing(0, space="s1", melody=4))
    none.when(0, cmd("soothe", location="creatures_2", spot=0)).refused("location.out_of_range")


def test_rangestones_do_not_reach_other_locations() -> None:
    """Choice (RULES.md): Rangestones serve Challenge, Soothe and Assist only."""
    song = position(opening(), singing(0, space="s8", lyric=9), gained(0, rangestones=2))
    song.when(0, cmd("perform", spot=0, rune=0)).refused("location.not_adjacent")


def test_a_badge_already_on_the_creature_blocks_a_second_assist() -> None:
    """Choice (RULES.md): one Badge of each player on a Creature, as the Motif says."""
    mine = ev("badge_placed", seat=0, to="creatures_2")
    song = position(opening(), mine, singing(0, space="s2", melody=9))
    song.when(0, cmd("assist", location="creatures_2")).refused("creature.badge_already_there")
