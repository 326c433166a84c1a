"""2. Singing: Song cards, Paying a Cost, Badges spent from the Character card, Icons,
and the end of the Song."""

from __future__ import annotations

from engines.bardwood.costs import payment
from proto import bardwood_pb2 as pb
from tests.engines.bardwood.given import ENGINE, cmd, ev, gained, opening, position, singing


def bought(seat: int, card: str, location: str) -> list[object]:
    """``card`` bought earlier and drawn: now in ``seat``'s hand."""
    return [
        ev("card_bought", seat=seat, location=location, card=card, coins=2),
        ev("known_card_drawn", seat=seat, card=card),
    ]


def in_song(seat: int, card: str, location: str) -> list[object]:
    events = bought(seat, card, location)
    kind = "improv_placed" if location.startswith("market_improv") else "card_played"
    return [*events, ev(kind, seat=seat, card=card)]


def use(slot: int, part: str = "top", effect: int = 0, choice: int = 0) -> pb.Command:
    return cmd("use_card", slot=slot, part=part, effect=effect, choice=choice)


def test_the_top_is_free_and_the_paid_effect_needs_its_volume_cost() -> None:
    """ "You may always gain the top (for free). Optionally, you may pay the cost in the
    middle to gain the bottom" — in any order, coming back to a card later."""
    song = position(opening(), singing(0, space="s1"))
    song.when(0, use(0)).then(
        ev("card_used", seat=0, slot=0, part="top"), gained(0, "card", melody=1)
    )
    song.when(0, use(0, "paid")).refused("song.cost_unpaid")
    paid = song.when(0, cmd("pay_volume", slot=0))
    paid.then(ev("volume_paid", seat=0, slot=0, volume=2))
    after = position(song.events, paid.events)
    after.when(0, cmd("pay_volume", slot=0)).refused("song.already_paid")
    used = after.when(0, use(0, "paid")).accepted()
    assert (
        used.view(0)["board"]["turn"]["melody"] == 2 and used.view(0)["board"]["turn"]["lyric"] == 1
    )
    position(after.events, used.events).when(0, use(0, "paid")).refused("song.effect_used")
    again = position(after.events, used.events).when(0, use(0)).accepted()
    assert again.view(0)["board"]["turn"]["melody"] == 3, "the top later, after the paid part"


def test_a_volume_cost_needs_that_much_volume() -> None:
    """Costs are paid from the Volume wheel."""
    quiet = position(opening(), singing(0, space="s1"), gained(0, volume=-1))
    quiet.when(0, cmd("pay_volume", slot=0)).refused("song.volume_short")


def test_an_arrow_with_x2_converts_at_most_twice() -> None:
    """An arrow converts once; "x2" twice (Saga Chant: 2 Lyric for 1 VP, twice)."""
    events = [*opening(), *in_song(0, "saga", "market_action_1"), *singing(0, space="s1", lyric=7)]
    events.append(gained(0, volume=1))  # Volume 3 for Saga Chant
    song = position(events)
    paid = song.when(0, cmd("pay_volume", slot=1)).accepted()
    first = (
        position(events, paid.events)
        .when(0, use(1, "paid"))
        .then(
            gained(0, "card", lyric=-2),
            ev("card_used", seat=0, slot=1, part="paid"),
            ev("crystals_taken", seat=0, reason="card", act1=1),
        )
    )
    second = position(events, paid.events, first.events).when(0, use(1, "paid")).accepted()
    third = position(events, paid.events, first.events, second.events)
    third.when(0, use(1, "paid")).refused("song.effect_used")


def test_the_repeat_icon_converts_as_long_as_it_is_paid() -> None:
    """Ballad of Renown: 3 Lyric for 1 VP, any number of times."""
    events = [
        *opening(),
        *in_song(0, "ballad", "market_improv_1"),
        *singing(0, space="s1", lyric=9),
    ]
    events += [gained(0, volume=1), ev("volume_paid", seat=0, slot=1, volume=3)]
    history = list(events)
    for _ in range(3):
        done = position(history).when(0, use(1, "paid")).accepted()
        history += done.events
    assert ENGINE.view(position(history).state, 0)["players"][0]["crystals"] == 3
    position(history).when(0, use(1, "paid")).refused("cost.cannot_pay")


def test_a_slash_gives_one_side() -> None:
    """ "The slash means OR": Verse of the Wilds pays 2 Melody or 2 Lyric."""
    events = [*opening(hands={0: ["lark_wilds", "lark_tap"], 1: ["quill_stanza", "quill_fable"]})]
    events += [ev("card_played", seat=0, card="lark_wilds"), *singing(0, space="s1")]
    paid = [ev("volume_paid", seat=0, slot=1, volume=2)]
    lyric = position(events, paid).when(0, use(1, "paid", 0, 1))
    lyric.then(ev("card_used", seat=0, slot=1, part="paid", choice=1), gained(0, "card", lyric=2))
    position(events, paid).when(0, use(1, "paid", 0, 2)).refused("song.no_such_effect")


def test_songstones_make_up_missing_melody_or_lyric_and_pay_songstone_costs() -> None:
    """Paying a Cost: the virtual pool first, then a Songstone per missing point; a
    Songstone cost takes a Songstone, never Melody."""
    short = position(opening(), singing(0, space="s1", lyric=3), gained(0, songstones=2))
    performed = short.when(0, cmd("perform", spot=4, rune=0)).accepted()
    assert performed.events[0] == gained(0, "perform", lyric=-3, songstones=-2)
    poor = position(opening(), singing(0, space="s1", lyric=3), gained(0, songstones=1))
    poor.when(0, cmd("perform", spot=4, rune=0)).refused("cost.cannot_pay")
    state = position(opening(), singing(0, space="s1", melody=5)).state
    assert payment(state, 0, (("songstone", 1),)) is None
    stones = position(opening(), singing(0, space="s1", melody=5), gained(0, songstones=1)).state
    assert payment(stones, 0, (("songstone", 1),)) == {"songstones": -1}


def test_opponents_badges_are_spent_for_the_character_cards_rewards() -> None:
    """Badges: 3 for 4 VP crystals, 2 for a Motif, 1 for a Songstone or a coin — only
    opponents' Badges, only while Singing."""
    taken = ev("badges_taken", seat=0, source="track:1", owners=[1, 1, 1])
    song = position(opening(), singing(0, space="s1"), taken)
    song.when(0, cmd("spend_badges", reward="vp")).then(
        ev("badges_spent", seat=0, badges=3, reward="vp"),
        ev("crystals_taken", seat=0, reason="badges", act1=4),
    )
    motif = song.when(0, cmd("spend_badges", reward="motif")).accepted()
    assert motif.view(0)["stage"] == "choose_motif"
    free = position(song.events, motif.events).when(0, cmd("choose_motif", slot=1))
    free.then(
        ev("choice_closed", seat=0, kind="choose_motif"),
        ev("motif_chosen", seat=0, slot=1, motif="hoard"),
        ev("motifs_turned", slots=[1], vp_side=True),
        gained(0, "motif", coins=2),
    )
    song.when(0, cmd("spend_badges", reward="coin")).then(
        ev("badges_spent", seat=0, badges=1, reward="coin"), gained(0, "badges", coins=1)
    )
    one = position(
        opening(), singing(0, space="s1"), ev("badges_taken", seat=0, source="track:1", owners=[1])
    )
    one.when(0, cmd("spend_badges", reward="vp")).refused("badges.too_few")
    one.when(0, cmd("spend_badges", reward="fame")).refused("badges.no_such_reward")
    composing = position(opening(), ev("bard_placed", seat=0, space="s1"), taken)
    composing.when(0, cmd("spend_badges", reward="coin")).refused("command.not_now")


def test_finishing_the_song_discards_it_but_the_instrument() -> None:
    """After Singing: the Song but the Instrument to the discard pile, the tracker back on
    the wheel, Melody and Lyric gone, then Downtime."""
    events = [
        *opening(),
        ev("card_played", seat=0, card="lark_refrain"),
        *singing(0, space="s1", melody=4),
    ]
    done = position(events).when(0, cmd("finish")).accepted()
    assert done.events[0] == ev("song_ended", seat=0, cards=["lark_refrain"])
    me = done.view(1)["players"][0]
    assert [s["card"] for s in me["song"]] == ["lark_harp"]
    assert "lark_refrain" in me["discard"] and not me["song_triggered"]
    assert done.view(1)["board"]["turn"]["melody"] == 0


def test_the_counter_clockwise_icon_turns_back_and_never_cancels_the_song() -> None:
    """Icons: counter-clockwise one space; "This never 'cancels' a Song that was already
    triggered this turn"."""
    events = [*opening(), *in_song(0, "echo", "market_improv_1"), *singing(0, space="s1")]
    back = position(events).when(0, use(1))
    back.then(
        ev("card_used", seat=0, slot=1, part="top"), ev("tempo_turned", seat=0, steps=-1, area=3)
    )
    assert back.view(0)["players"][0]["song_triggered"] is True
    assert back.view(0)["stage"] == "sing"


def test_the_motif_icon_gives_a_motif_at_no_cost() -> None:
    """Icons: "choose a Motif to gain its benefit (with no additional cost)", even away from
    the Motif location."""
    events = [*opening(), *in_song(0, "wildcall", "market_improv_1"), *singing(0, space="s8")]
    events.append(ev("volume_paid", seat=0, slot=1, volume=2))
    icon = position(events).when(0, use(1, "paid")).accepted()
    assert icon.view(0)["stage"] == "choose_motif"
    chosen = position(events, icon.events).when(0, cmd("choose_motif", slot=3)).accepted()
    assert gained(0, "motif", songstones=1, rangestones=1) in chosen.events
    assert chosen.view(0)["board"]["turn"]["used"] == [], "the Motif location is not used up"


def test_the_events_offer_is_once_a_song_and_never_paid_with_bardstones() -> None:
    """Events: "You can not spend any Bardstones for any Events' effects"."""
    rich = position(opening(), singing(0, space="s1", melody=4))
    used = rich.when(0, cmd("use_event_offer"))
    used.then(
        gained(0, "event", melody=-4),
        ev("event_offer_used", seat=0, event="harvest_festival"),
        ev("crystals_taken", seat=0, reason="event", act1=1),
    )
    again = position(rich.events, used.events, gained(0, melody=4))
    again.when(0, cmd("use_event_offer")).refused("event.offer_used")
    stones = position(opening(), singing(0, space="s1", melody=3), gained(0, songstones=3))
    stones.when(0, cmd("use_event_offer")).refused("cost.cannot_pay")


def test_a_song_is_never_sung_twice_in_a_turn() -> None:
    """Preparing to Sing: a clockwise pass while Singing (a Creature's Tempo) leaves the
    Song tracker where it is."""
    events = [
        *opening(),
        ev("tempo_turned", seat=0, steps=3, area=3),
        *singing(0, space="s2", melody=4),
    ]
    soothed = position(events).when(0, cmd("soothe", location="creatures_2", spot=0)).accepted()
    assert ev("tempo_turned", seat=0, steps=1, area=0) in soothed.events
    assert ev("song_triggered", seat=0) not in soothed.events


def test_movement_gained_while_singing_is_spent_while_singing() -> None:
    """Movement points from a Song card move the Bard between Locations."""
    events = [*opening(), *in_song(0, "heroes", "market_action_1"), *singing(0, space="s1")]
    moved = position(events).when(0, use(1)).accepted()
    assert moved.view(0)["board"]["turn"]["movement"] == 1
    position(events, moved.events).when(0, cmd("move_bard", space="s2")).then(
        ev("bard_moved", seat=0, space="s2")
    )


def test_loudstones_are_made_from_six_volume_and_pay_a_volume_cost() -> None:
    """Loudstone (option): "Anytime, spend 6 Volume to gain 1 Loudstone"; here a Loudstone
    pays one Song card's Volume cost."""
    loud = position(opening(loudstones=True), singing(0, space="s1"), gained(0, volume=4))
    made = loud.when(0, cmd("make_loudstone"))
    made.then(gained(0, "loudstone", volume=-6, loudstones=1))
    paid = position(loud.events, made.events).when(0, cmd("pay_volume", slot=0, loudstone=True))
    paid.then(ev("volume_paid", seat=0, slot=0, loudstone=True))
    assert paid.view(0)["players"][0]["loudstones"] == 0
    plain_game = position(opening(), singing(0, space="s1"), gained(0, volume=4))
    plain_game.when(0, cmd("make_loudstone")).refused("loudstone.not_possible")
    plain_game.when(0, cmd("pay_volume", slot=0, loudstone=True)).refused("song.no_loudstone")


def test_an_unlockable_design_is_bought_and_sung_by_the_same_rules() -> None:
    """Unlockable content (option ``unlocked``): War Drums, an Action design, is bought
    (moving the market boat) and its paid effect converts 2 coins into 3 Melody, twice."""
    market = {
        "market_improv_1": ["lantern_hymn", "descant", "couplet", "hat", "echo", "drumroll"],
        "market_improv_2": ["descant", "couplet", "hat", "echo", "lantern_hymn", "drumroll"],
        "market_action_1": ["war_drums", "encore", "nocturne", "fiddle", "heroes", "lament"],
        "market_action_2": ["encore", "nocturne", "fiddle", "heroes", "lament", "war_drums"],
    }
    shop = position(opening(market=market), singing(0, space="s2"), gained(0, coins=2))
    shop.when(0, cmd("buy", location="market_action_1")).then(
        gained(0, "buy", coins=-2),
        ev("location_used", seat=0, location="market_action_1"),
        ev("card_bought", seat=0, location="market_action_1", card="war_drums", coins=2),
        ev("market_boat_moved", position=1),
    )
    events = [
        *opening(market=market),
        *in_song(0, "war_drums", "market_action_1"),
        *singing(0, space="s1"),
        gained(0, coins=5),
    ]
    paid = position(events).when(0, cmd("pay_volume", slot=1))
    paid.then(ev("volume_paid", seat=0, slot=1, volume=2))
    history = [*events, *paid.events]
    for _ in range(2):
        drummed = position(history).when(0, use(1, "paid"))
        drummed.then(
            gained(0, "card", coins=-2),
            ev("card_used", seat=0, slot=1, part="paid"),
            gained(0, "card", melody=3),
        )
        history += drummed.events
    assert position(history).view(0)["board"]["turn"]["melody"] == 6
    position(history).when(0, use(1, "paid")).refused("song.effect_used")
