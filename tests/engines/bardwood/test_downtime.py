"""3. Downtime and Drawing Cards: drawing to two Skill cards, Improv / Fan / Creature
played when drawn, the Empty Deck, the 12 coins and Bardstones limit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.bardwood.content import content
from tests.engines.bardwood.given import ENGINE, cmd, ev, gained, opening, position

PLACED = [*opening(), ev("bard_placed", seat=0, space="s3"), ev("turn_began", seat=0)]


def kinds(events: Sequence[Any]) -> list[str]:
    return [e.WhichOneof("kind") for e in events]


def compose_and_finish(history: list[Any]) -> list[Any]:
    """Seat 0 discards Gentle Refrain, plays Humming Call and finishes Composition."""
    for command in (
        cmd("discard_card", card="lark_refrain"),
        cmd("play_card", card="lark_humming"),
        cmd("finish"),
    ):
        done = position(history).when(0, command).accepted()
        history = [*history, *done.events]
        if ENGINE.view(done.state, 0)["board"]["turn"]["seat"] != 0 or done.view(0)[
            "stage"
        ] not in ("compose",):
            break
    return history


def answer_choices(history: list[Any], cheer: int = 0) -> list[Any]:
    """Take effect ``cheer`` of every Fan drawn, put every Creature drawn on spot 1."""
    while True:
        stage = position(history).view(0)["stage"]
        if stage == "cheer_fan":
            command = cmd("cheer_fan", choice=cheer)
        elif stage == "place_creature":
            command = cmd("place_creature", spot=1)
        else:
            return history
        history = [*history, *position(history).when(0, command).accepted().events]


def test_downtime_draws_back_to_two_skill_cards() -> None:
    """ "Draw cards until you have 2 in hand" (Skill cards), then the next player's turn."""
    history = answer_choices(compose_and_finish(list(PLACED)))
    view = ENGINE.view(position(history).state, 0)
    hand = view["private"]["hand"]
    assert len(hand) == 2 and all(content().card(card).skill for card in hand)
    assert view["board"]["turn"]["seat"] == 1
    song = [s["card"] for s in view["players"][0]["song"]]
    drawn_improvs = [
        e.improv_placed.card for e in history if e.WhichOneof("kind") == "improv_placed"
    ]
    assert all(card in song for card in drawn_improvs)


def test_cards_on_top_in_view_of_all_come_first_and_fans_and_improvs_are_played_at_once() -> None:
    """A Fan taken and an Improv bought lie on top of the deck: drawn first, seen by all; the
    Fan gives one effect of the player's choice then goes to the discard pile; the Improv
    joins the Song."""
    on_top = [
        ev("card_bought", seat=0, location="market_improv_1", card="descant", coins=2),
        ev("fan_taken", seat=0, fan="elder"),
    ]
    history = compose_and_finish([*PLACED, *on_top])
    assert history[-2:] == [
        ev("known_card_drawn", seat=0, card="elder"),
        ev("choice_opened", seat=0, kind="cheer_fan", card="elder"),
    ]
    waiting = position(history)
    assert (
        waiting.view(0)["stage"] == "cheer_fan"
        and waiting.view(1)["board"]["choice"]["card"] == "elder"
    )
    waiting.when(0, cmd("cheer_fan", choice=2)).refused("fan.no_such_effect")
    cheered = waiting.when(0, cmd("cheer_fan", choice=0)).accepted()
    assert cheered.events[:4] == [
        ev("choice_closed", seat=0, kind="cheer_fan"),
        ev("fan_cheered", seat=0, card="elder"),
        ev("crystals_taken", seat=0, reason="fan", act1=1),
        ev("known_card_drawn", seat=0, card="descant"),
    ]
    assert cheered.events[4] == ev("improv_placed", seat=0, card="descant")
    me = cheered.view(1)["players"][0]
    assert "elder" in me["discard"] and "descant" in [s["card"] for s in me["song"]]


def test_an_empty_deck_is_reshuffled_and_drawing_stops_without_skill_cards() -> None:
    """Empty Deck: the discard pile becomes the deck at once; a drawn Creature gives its
    bonus and goes on a spot of the player's choice; once no Skill card is left in the
    deck or the discard pile, drawing stops (Fans would cycle for ever)."""
    deck = ["lark_coax", "lark_tap", "lark_trill", "lark_whistle", "lark_wilds"]
    emptied = [ev("card_drawn", seat=0, card=card) for card in deck]
    emptied += [ev("improv_placed", seat=0, card=card) for card in deck]  # out of the way
    only_toad = [
        ev("creature_soothed", seat=0, location="creatures_1", creature="toad", spot=0),
        ev("boasted", seat=0, cards=["toad"]),
        ev("deck_reshuffled", seat=0, cards=2),  # the deck: the Super Fan and the Toad
    ]
    before = [*PLACED, *emptied, *only_toad]
    history = answer_choices(compose_and_finish(before), cheer=1)
    downtime = history[len(before) :]
    assert "deck_reshuffled" in kinds(downtime), "the discard pile became the deck"
    placed = [e for e in downtime if e.WhichOneof("kind") == "creature_placed"]
    assert placed == [ev("creature_placed", seat=0, card="toad", spot=1)]
    toad = downtime.index(ev("card_drawn", seat=0, card="toad"))
    bonus = downtime.index(gained(0, "creature", volume=2))
    assert toad < bonus < downtime.index(placed[0]), "its bonus first, then the spot"
    view = ENGINE.view(position(history).state, 0)
    assert view["private"]["hand"] == ["lark_refrain"], "the one Skill card left"
    assert view["players"][0]["deck_size"] > 0, "the Super Fan is not drawn again"
    assert view["board"]["turn"]["seat"] == 1


def test_coins_and_bardstones_above_twelve_are_returned_after_drawing() -> None:
    """Downtime: "discard coins and/or Bardstones until you have no more than 12" — only
    after drawing; more is fine the rest of the time."""
    rich = [*PLACED, gained(0, coins=10, songstones=3, rangestones=1)]
    history = answer_choices(compose_and_finish(rich))
    waiting = position(history)
    assert waiting.view(0)["stage"] == "return_stones"
    waiting.when(0, cmd("return_to_supply", resource="loudstone")).refused("supply.none_of_that")
    first = waiting.when(0, cmd("return_to_supply", resource="rangestone"))
    first.then(gained(0, "limit", rangestones=-1))
    second = position(history, first.events).when(0, cmd("return_to_supply", resource="coin"))
    assert second.accepted().events[:2] == [
        gained(0, "limit", coins=-1),
        ev("choice_closed", seat=0, kind="return_stones"),
    ]
    assert second.view(0)["players"][0]["coins"] + 3 == 12
    assert second.view(0)["board"]["turn"]["seat"] == 1
