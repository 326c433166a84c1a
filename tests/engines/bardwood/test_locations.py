"""Activating Locations: Perform, Legends, Boast, Challenging Players, the High Note Bank,
Buying Cards and Motifs; adjacency, once a turn, and exhausted Locations."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tests.engines.bardwood.given import ENGINE, cmd, ev, gained, opening, position, singing


def kinds(events: Sequence[Any]) -> list[str]:
    return [e.WhichOneof("kind") for e in events]


def test_a_location_must_be_next_to_the_bard_and_is_used_once_a_turn() -> None:
    """ "You can activate each adjacent Location once while Singing"."""
    far = position(opening(), singing(0, space="s8", lyric=10))
    far.when(0, cmd("perform", spot=0, rune=0)).refused("location.not_adjacent")
    near = position(opening(), singing(0, space="s0", lyric=10))
    once = near.when(0, cmd("perform", spot=0, rune=0)).accepted()
    position(near.events, once.events).when(0, cmd("perform", spot=1, rune=0)).refused(
        "location.used"
    )
    position(near.events, once.events).when(0, cmd("perform", spot=0, rune=1)).refused(
        "location.used"
    )


def test_perform_needs_an_empty_spot_and_a_rune() -> None:
    """Perform: "Pay the Lyric cost for any empty Runestone spot"; a Rune must be left."""
    taken = ev("rune_placed", seat=1, area=0, to="perform:0")
    song = position(opening(), taken, singing(0, space="s0", lyric=10))
    song.when(0, cmd("perform", spot=0, rune=0)).refused("perform.spot_taken")
    song.when(0, cmd("perform", spot=10, rune=0)).refused("perform.spot_taken")
    no_runes = [ev("rune_placed", seat=0, area=0, to=f"perform:{spot}") for spot in (1, 2)]
    bare = position(opening(), no_runes, singing(0, space="s0", lyric=10))
    bare.when(0, cmd("perform", spot=3, rune=0)).refused("rune.none_there")


def test_the_fan_deck_run_out_gives_a_vp_instead() -> None:
    """Activating Locations: "When you gain a Fan card (from any effect), gain 1 VP instead"."""
    song = position(opening(fans=[]), singing(0, space="s0", lyric=3))
    performed = song.when(0, cmd("perform", spot=0, rune=0)).accepted()
    assert performed.events[-1] == ev("crystals_taken", seat=0, reason="no_fan", act1=1)
    assert performed.view(0)["players"][0]["crystals"] == 2


def test_telling_a_legend_pays_the_tier_gains_its_vp_flips_and_places_a_rune() -> None:
    """Legends 1-5: the Tier's cost and VP, the top face-down Legend flipped, then a Rune on
    any face-up Legend of that Tier."""
    song = position(opening(), singing(0, space="s1", lyric=5))
    told = song.when(0, cmd("tell_legend", tier=2, discount=False)).accepted()
    assert kinds(told.events) == [
        "resources_changed",
        "location_used",
        "legend_told",
        "crystals_taken",
        "legend_revealed",
        "choice_opened",
    ]
    assert told.events[0] == gained(0, "legend", lyric=-5)
    assert told.events[3] == ev("crystals_taken", seat=0, reason="legend", act1=2)
    flipped = told.events[4].legend_revealed.legend  # type: ignore[attr-defined]
    tier = told.view(1)["board"]["legends"][1]
    assert [leg["legend"] for leg in tier["face_up"]] == ["beast_friend", flipped]
    assert tier["face_down"] == 3
    after = position(song.events, told.events)
    after.when(0, cmd("mark_legend", legend="grand_chorus", rune=0)).refused("legend.not_available")
    marked = after.when(0, cmd("mark_legend", legend=flipped, rune=3))
    marked.then(
        ev("rune_placed", seat=0, area=3, to=f"legend:{flipped}"),
        ev("choice_closed", seat=0, kind="mark_legend"),
    )
    face_up = marked.view(1)["board"]["legends"][1]["face_up"]
    assert {"legend": flipped, "rune": 0} in face_up


def test_the_boat_discount_is_optional_and_resets_the_boat_only_when_used() -> None:
    """Legends: reduce the cost by up to the boat's value (at most 3), then the boat goes
    back to the start; the rest of the discount is wasted."""
    boat = [ev("boat_moved", seat=0, position=p) for p in (1, 2, 3, 4)]
    song = position(opening(), boat, singing(0, space="s1", lyric=4))
    discounted = song.when(0, cmd("tell_legend", tier=3, discount=True)).accepted()
    assert discounted.events[0] == gained(0, "legend", lyric=-4), "7 Lyric less 3"
    assert ev("legend_told", seat=0, tier=3, discount=3, boat_used=True) in discounted.events
    assert discounted.view(0)["players"][0]["boat"] == 0
    cheap = position(opening(), boat, singing(0, space="s1", lyric=9))
    wasted = cheap.when(0, cmd("tell_legend", tier=1, discount=True)).accepted()
    assert "resources_changed" not in kinds(wasted.events[:1]), "3 Lyric less 3: free"
    kept = cheap.when(0, cmd("tell_legend", tier=1, discount=False)).accepted()
    assert kept.view(0)["players"][0]["boat"] == 4
    no_boat = position(opening(), singing(0, space="s1", lyric=9))
    no_boat.when(0, cmd("tell_legend", tier=1, discount=True)).refused("legend.no_discount")
    no_boat.when(0, cmd("tell_legend", tier=4, discount=False)).refused("legend.no_such_tier")


def test_without_a_rune_or_an_open_legend_step_five_is_skipped() -> None:
    """Where the rulebook is silent: no Rune left, or every face-up Legend of the Tier marked,
    still tells the Legend but places nothing."""
    runes = [
        ev("rune_placed", seat=0, area=a, to=f"perform:{a * 2 + i}")
        for a in range(4)
        for i in (0, 1)
    ]
    bare = position(opening(), runes, singing(0, space="s1", lyric=3))
    told = bare.when(0, cmd("tell_legend", tier=1, discount=False)).accepted()
    assert "choice_opened" not in kinds(told.events)
    assert told.view(0)["stage"] == "sing"


def test_boast_discards_the_top_of_each_creature_pile() -> None:
    """Boast: "Discard the top one card from each of your Creature piles"."""
    soothed = [
        ev("creature_soothed", seat=0, location="creatures_1", creature="toad", spot=0),
        ev("creature_soothed", seat=0, location="creatures_1", creature="hedgehog", spot=0),
    ]
    song = position(opening(), soothed, singing(0, space="s0"))
    boasted = song.when(0, cmd("boast"))
    boasted.then(
        ev("location_used", seat=0, location="boast"), ev("boasted", seat=0, cards=["hedgehog"])
    )
    me = boasted.view(0)["players"][0]
    assert me["creatures"] == [["toad"], []], "never 2 from one pile"
    assert me["discard"][-1] == "hedgehog"
    position(opening(), singing(0, space="s0")).when(0, cmd("boast")).refused("boast.no_creatures")


def test_challenge_takes_the_left_most_badge_for_the_visible_melody() -> None:
    """Challenging Players: a Bard on your space, their visible Melody (more as their track
    empties), their left-most Badge onto your Character card; once a turn each."""
    here = [ev("bard_placed", seat=1, space="s1")]
    song = position(opening(), here, singing(0, space="s1", melody=5))
    challenged = song.when(0, cmd("challenge", seat=1))
    challenged.then(
        gained(0, "challenge", melody=-2),
        ev("challenged", seat=0, target=1, melody=2),
        ev("badges_taken", seat=0, source="track:1", owners=[1]),
    )
    view = challenged.view(1)
    assert view["players"][1]["badges"] == 6 and view["players"][0]["held_badges"] == 1
    assert view["players"][1]["challenge_melody"] == 3
    position(song.events, challenged.events).when(0, cmd("challenge", seat=1)).refused(
        "challenge.already"
    )
    song.when(0, cmd("challenge", seat=0)).refused("challenge.not_an_opponent")
    song.when(0, cmd("challenge", seat=5)).refused("challenge.not_an_opponent")


def test_challenge_out_of_reach_needs_rangestones() -> None:
    """Rangestones: one for a Bard one space away, two for anywhere."""
    apart = [ev("bard_placed", seat=1, space="s2")]
    song = position(opening(), apart, singing(0, space="s1", melody=5))
    song.when(0, cmd("challenge", seat=1)).refused("location.out_of_range")
    ranged = position(song.events, gained(0, rangestones=1)).when(0, cmd("challenge", seat=1))
    assert ranged.accepted().events[0] == gained(0, "range", rangestones=-1)
    far = position(
        opening(), [ev("bard_placed", seat=1, space="s8")], singing(0, space="s0", melody=5)
    )
    far.when(0, cmd("challenge", seat=1)).refused("location.out_of_range")
    two = position(far.events, gained(0, rangestones=2)).when(0, cmd("challenge", seat=1))
    assert two.accepted().events[0] == gained(0, "range", rangestones=-2)


def test_a_player_without_badges_cannot_be_challenged() -> None:
    """Challenging Players: "If a player has no Badges... you can't Challenge them"."""
    stripped = ev("badges_taken", seat=0, source="track:1", owners=[1] * 7)
    song = position(
        opening(),
        [ev("bard_placed", seat=1, space="s1")],
        stripped,
        singing(0, space="s1", melody=9),
    )
    song.when(0, cmd("challenge", seat=1)).refused("challenge.no_badges")


def test_the_high_note_bank_pays_the_market_cost_or_hands_over_its_badges() -> None:
    """High Note Bank: a Badge for coins equal to the Market cost (one each at most), or
    every Badge there: your own leave the game, others' go to your Character card."""
    song = position(opening(), [ev("market_boat_moved", position=1)], singing(0, space="s3"))
    placed = song.when(0, cmd("use_bank", collect=False))
    placed.then(
        ev("location_used", seat=0, location="bank"),
        ev("badge_placed", seat=0, to="bank"),
        gained(0, "bank", coins=3),
    )
    song.when(0, cmd("use_bank", collect=True)).refused("bank.empty")
    mine = [ev("badge_placed", seat=0, to="bank"), ev("badge_placed", seat=1, to="bank")]
    full = position(opening(), mine, singing(0, space="s3"))
    full.when(0, cmd("use_bank", collect=False)).refused("bank.already_yours")
    collected = full.when(0, cmd("use_bank", collect=True)).accepted()
    view = collected.view(0)
    assert view["board"]["bank"] == []
    assert view["players"][0]["held_badges"] == 1, "only the opponent's Badge is kept"
    assert view["players"][0]["badges"] == 6, "the own Badge left the game"


def test_buying_takes_the_top_card_onto_the_deck_in_view_of_all() -> None:
    """Buying Cards: the top card of an adjacent deck, face down on top of your deck (seen
    by everyone); one card per deck a turn; an Improv does not move the market boat."""
    song = position(opening(), singing(0, space="s0"), gained(0, coins=9))
    bought = song.when(0, cmd("buy", location="market_improv_1"))
    bought.then(
        gained(0, "buy", coins=-2),
        ev("location_used", seat=0, location="market_improv_1"),
        ev("card_bought", seat=0, location="market_improv_1", card="descant", coins=2),
    )
    view = bought.view(1)
    assert view["players"][0]["deck_top"] == ["descant"]
    assert view["board"]["market"][0]["cards"][0] == "couplet"
    assert view["board"]["market_cost"] == 2
    position(song.events, bought.events).when(0, cmd("buy", location="market_improv_1")).refused(
        "location.used"
    )
    song.when(0, cmd("buy", location="market_action_1")).refused("location.not_adjacent")
    song.when(0, cmd("buy", location="market_improv_1", card="saga")).refused("market.not_in_deck")
    poor = position(opening(), singing(0, space="s0"), gained(0, coins=1))
    poor.when(0, cmd("buy", location="market_improv_1")).refused("cost.cannot_pay")


def test_an_empty_market_deck_sells_a_vp_for_the_market_cost() -> None:
    """Activating Locations: "Pay the current cost to buy a card, but instead gain 1 VP"."""
    empty: dict[str, list[str]] = {
        "market_improv_1": [],
        "market_improv_2": [],
        "market_action_1": [],
        "market_action_2": [],
    }
    song = position(opening(market=empty), singing(0, space="s0"), gained(0, coins=2))
    song.when(0, cmd("buy", location="market_improv_1")).then(
        gained(0, "buy", coins=-2),
        ev("location_used", seat=0, location="market_improv_1"),
        ev("crystals_taken", seat=0, reason="exhausted", act1=1),
    )
    song.when(0, cmd("buy", location="market_improv_1", card="descant")).refused("market.exhausted")


def test_the_motif_location_costs_its_price_and_flips_the_motif() -> None:
    """Motifs: pay the location's cost, gain the Motif's benefit, flip it to its VP side."""
    song = position(opening(), singing(0, space="s1", melody=3))
    chosen = song.when(0, cmd("choose_motif", slot=1))
    chosen.then(
        gained(0, "motif", melody=-3),
        ev("location_used", seat=0, location="motifs"),
        ev("motif_chosen", seat=0, slot=1, motif="hoard"),
        ev("motifs_turned", slots=[1], vp_side=True),
        gained(0, "motif", coins=2),
    )
    assert chosen.view(1)["board"]["motifs"][1] == {"slot": 1, "motif": "hoard", "vp_side": True}
    song.when(0, cmd("choose_motif", slot=4)).refused("motif.empty_spot")


def test_a_vp_side_motif_counts_every_vp_side_then_flips_them_all_back() -> None:
    """Motifs: "count the total number Motifs showing their VP-crystal side (including this
    one), then gain that many VP crystals, then flip all" back."""
    flipped = ev("motifs_turned", slots=[0, 1, 3], vp_side=True)
    song = position(opening(), flipped, singing(0, space="s1", melody=3))
    counted = song.when(0, cmd("choose_motif", slot=1)).accepted()
    assert ev("crystals_taken", seat=0, reason="motif", act1=3) in counted.events
    assert counted.events[-1] == ev("motifs_turned", slots=[0, 1, 3], vp_side=False)


def test_the_fan_motif_takes_the_top_fan_then_boasts() -> None:
    """Motifs: "Gain the top Fan card (to the top of your deck) then Boast"."""
    soothed = ev("creature_soothed", seat=0, location="creatures_1", creature="toad", spot=1)
    song = position(opening(fans=["elder"]), soothed, singing(0, space="s1", melody=3))
    crowd = song.when(0, cmd("choose_motif", slot=0)).accepted()
    assert crowd.events[-2:] == [
        ev("fan_taken", seat=0, fan="elder"),
        ev("boasted", seat=0, cards=["toad"]),
    ]


def test_the_trust_motif_places_up_to_two_badges_on_creatures_without_yours() -> None:
    """Motifs: "Place one of your own Badges on a Creature (that doesn't already have one of
    your Badges on it already). You may repeat this once"."""
    mine = ev("badge_placed", seat=0, to="creatures_1")
    song = position(opening(), mine, singing(0, space="s1", melody=3))
    trust = song.when(0, cmd("choose_motif", slot=2)).accepted()
    assert trust.events[-1] == ev("choice_opened", seat=0, kind="place_badges", count=2)
    placing = position(song.events, trust.events)
    placing.when(0, cmd("place_badge", location="creatures_1")).refused("motif.badge_target")
    first = placing.when(0, cmd("place_badge", location="creatures_2")).accepted()
    assert first.view(0)["board"]["choice"]["count"] == 1
    second = position(placing.events, first.events).when(
        0, cmd("place_badge", location="creatures_3")
    )
    second.then(
        ev("badge_placed", seat=0, to="creatures_3"),
        ev("choice_closed", seat=0, kind="place_badges"),
    )
    assert second.view(0)["players"][0]["badges"] == 4
    stop = placing.when(0, cmd("finish"))
    stop.then(ev("choice_closed", seat=0, kind="place_badges"))
    assert stop.view(0)["stage"] == "sing"
    assert ENGINE.view(stop.state, 0)["players"][0]["badges"] == 6


def test_a_price_rise_counts_for_the_second_purchase_of_the_turn() -> None:
    """Buying Cards: "If you buy multiple cards during the same turn, a possible price
    increase will impact your second purchase"."""
    song = position(opening(), singing(0, space="s5"), gained(0, coins=9))
    action = song.when(0, cmd("buy", location="market_action_1")).accepted()
    assert action.events[0] == gained(0, "buy", coins=-2)
    improv = position(song.events, action.events).when(0, cmd("buy", location="market_improv_2"))
    assert improv.accepted().events[0] == gained(0, "buy", coins=-3)
    assert improv.view(0)["players"][0]["deck_top"] == ["couplet", "fiddle"]
