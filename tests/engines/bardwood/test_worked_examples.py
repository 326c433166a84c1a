"""The rulebook's own examples, with its numbers."""

from __future__ import annotations

from engines.bardwood.supply import volume_after
from tests.engines.bardwood.given import ENGINE, cmd, ev, gained, opening, position, singing


def test_discarding_gains_three_volume_and_turns_the_tempo_two_spaces() -> None:
    """Discard 1 Card: "you would gain 3 Volume and rotate your Tempo wheel 2 spaces"; from
    the 1-movement area two turns end in the 3-movement area: 3 points (2 on the first turn)."""
    later = [*opening(), ev("bard_placed", seat=0, space="s3"), ev("turn_began", seat=0)]
    discarded = position(later).when(0, cmd("discard_card", card="lark_humming"))
    discarded.then(
        ev("card_discarded", seat=0, card="lark_humming"),
        ev("resources_changed", seat=0, reason="strip", volume=3),
        ev("tempo_turned", seat=0, steps=2, area=2),
        ev("resources_changed", seat=0, reason="tempo", movement=3),
    )
    player = discarded.view(0)["players"][0]
    assert (player["volume"], player["tempo_area"]) == (5, 2)
    assert discarded.view(0)["board"]["turn"]["movement"] == 3

    first = position(opening(), ev("bard_placed", seat=0, space="s3"))
    on_first_turn = first.when(0, cmd("discard_card", card="lark_humming")).accepted()
    assert on_first_turn.events[-1] == gained(0, "first_turn", movement=-1)
    assert on_first_turn.view(0)["board"]["turn"]["movement"] == 2


def test_perform_for_five_lyric_gains_two_vp_a_fan_and_places_a_rune() -> None:
    """Perform: "pay 5 Lyric to gain 2 VP crystals and a Fan card, and place a Rune"."""
    fans = ["elder", "child"]
    song = position(opening(fans=fans), singing(0, space="s1", lyric=5))
    performed = song.when(0, cmd("perform", spot=4, rune=1))
    performed.then(
        gained(0, "perform", lyric=-5),
        ev("location_used", seat=0, location="perform"),
        ev("rune_placed", seat=0, area=1, to="perform:4"),
        ev("crystals_taken", seat=0, reason="perform", act1=2),
        ev("fan_taken", seat=0, fan="elder"),
    )
    view = performed.view(1)
    me = view["players"][0]
    assert me["crystals"] == 2 and me["runes"] == [2, 1, 2, 2]
    assert me["deck_top"] == ["elder"], "the Fan is on top of the deck, seen by all"
    assert view["board"]["perform"][4] == {"spot": 4, "lyric": 5, "vp": 2, "rune": 0}
    assert view["board"]["fans"] == ["child"]


def test_five_volume_and_a_gain_of_four_make_a_loudstone_and_three_volume() -> None:
    """Loudstone: "you have 5 Volume to start, then you gain 4 Volume from one source: you
    gain 1 Volume, spend 6 Volume to gain a Loudstone, then gain the remaining 3"."""
    assert volume_after(5, 4, loudstones=True) == (3, 1)
    assert volume_after(5, 4, loudstones=False) == (6, 0), "without Loudstones 3 are lost"
    drawn = position(
        opening(fans=["merchant"], loudstones=True),
        ev("bard_placed", seat=0, space="s3"),
        gained(0, volume=3),  # Volume 5
        ev("fan_taken", seat=0, fan="merchant"),
        ev("downtime_began", seat=0),
        ev("known_card_drawn", seat=0, card="merchant"),
        ev("choice_opened", seat=0, kind="cheer_fan", card="merchant"),
    )
    # Travelling Merchant's 3 Volume from 5: a Loudstone on the way, and 2 Volume
    cheered = drawn.when(0, cmd("cheer_fan", choice=1)).accepted()
    assert gained(0, "fan", volume=-3, loudstones=1) in cheered.events
    me = cheered.view(0)["players"][0]
    assert (me["volume"], me["loudstones"]) == (2, 1)


def test_the_market_boat_at_three_means_a_price_of_three_coins() -> None:
    """Market Cost: "the price is 3 coins" with the boat by the 3; each Action bought moves
    it right, never past 5; searching costs 1 more."""
    moved = [ev("market_boat_moved", position=1)]
    song = position(opening(), moved, singing(0, space="s2"), gained(0, coins=10))
    assert song.view(0)["board"]["market_cost"] == 3
    bought = song.when(0, cmd("buy", location="market_action_1"))
    bought.then(
        gained(0, "buy", coins=-3),
        ev("location_used", seat=0, location="market_action_1"),
        ev(
            "card_bought",
            seat=0,
            location="market_action_1",
            card="fiddle",
            coins=3,
            searched=False,
        ),
        ev("market_boat_moved", position=2),
    )
    assert bought.view(0)["board"]["market_cost"] == 4
    at_five = position(
        opening(),
        [ev("market_boat_moved", position=3)],
        singing(0, space="s2"),
        gained(0, coins=10),
    )
    searched = at_five.when(0, cmd("buy", location="market_action_1", card="saga")).accepted()
    assert gained(0, "buy", coins=-6) in searched.events, "5, and 1 more to search"
    kinds = [e.WhichOneof("kind") for e in searched.events]
    assert "market_boat_moved" not in kinds, "at 5 the boat ignores further movement"
    assert kinds[-1] == "market_deck_shuffled"
    assert ENGINE.view(searched.state, 1)["board"]["market_cost"] == 5
