"""Bardwood Grove's moves and events in words, for menus, logs and chat.

A move is said as a bard would at the table, with the names printed on the components
("Play Humming Call to the right of your Song", "Move your Bard to Willow Bend",
"Soothe the Ancient Wyrm at the Creature Den (south-east) for 7 Melody"); its menu is
the part of the turn or the Location it belongs to, so each menu stays small: a Perform
menu for each bonus spot a Rune can come from, one for the Creatures, one for the market
decks next to the Bard. An event is worded as the viewer may see it: it comes redacted,
so a card another seat drew (``CardDrawn.card`` blank) is never named.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from engines.bardwood.acts import check_offer
from engines.bardwood.badges import challenge_melody
from engines.bardwood.content import Card, Effect, Gains, content
from engines.bardwood.costs import in_words
from engines.bardwood.creatures import check_soothe, soothe_cost
from engines.bardwood.legends import check_tell
from engines.bardwood.market import check_buy, market_cost
from engines.bardwood.state import BardwoodState
from engines.bardwood.turns import stage_of
from engines.core.errors import RuleViolation
from engines.core.game import MoveWords
from proto import bardwood_pb2 as pb

__all__ = ["WORDS", "gains_in_words", "place_name"]

T = TypeVar("T")

# What an icon gives, singular and plural ("{n}" is the amount).
_ICONS: dict[str, tuple[str, str]] = {
    "melody": ("{n} Melody", "{n} Melody"),
    "lyric": ("{n} Lyric", "{n} Lyric"),
    "volume": ("{n} Volume", "{n} Volume"),
    "coin": ("1 coin", "{n} coins"),
    "songstone": ("a Songstone", "{n} Songstones"),
    "rangestone": ("a Rangestone", "{n} Rangestones"),
    "loudstone": ("a Loudstone", "{n} Loudstones"),
    "vp": ("1 VP", "{n} VP"),
    "move": ("1 movement point", "{n} movement points"),
    "tempo": ("the Tempo 1 space on", "the Tempo {n} spaces on"),
    "tempo_back": ("the Tempo 1 space back", "the Tempo {n} spaces back"),
    "fan": ("the top Fan", "the {n} top Fans"),
    "boast": ("a Boast", "{n} Boasts"),
    "motif": ("a Motif", "{n} Motifs"),
}
# ResourcesChanged fields, named as the icons are.
_RESOURCES = (
    ("melody", "melody"),
    ("lyric", "lyric"),
    ("volume", "volume"),
    ("coins", "coin"),
    ("songstones", "songstone"),
    ("rangestones", "rangestone"),
    ("loudstones", "loudstone"),
    ("movement", "move"),
)
_REWARDS = {
    "vp": "4 VP",
    "motif": "a Motif's benefit",
    "songstone": "a Songstone",
    "coin": "a coin",
}
# Why something was gained or paid (ResourcesChanged and CrystalsTaken reasons).
_REASONS = {
    "strip": "discard strip",
    "tempo": "Tempo area",
    "bonus": "uncovered bonus",
    "card": "Song card",
    "badges": "Badges spent",
    "bank": "High Note Bank",
    "event": "Event",
    "range": "Rangestones for reach",
    "first_turn": "first turn",
    "limit": "down to 12",
    "exhausted": "exhausted Location",
    "no_fan": "no Fan left",
    "act": "end of the Act",
    "end_bonus": "end of the game triggered",
}


def _reason(reason: str) -> str:
    return _REASONS.get(reason, reason.replace("_", " "))


_STONES = {"coin": "a coin", "songstone": "a Songstone", "rangestone": "a Rangestone",
           "loudstone": "a Loudstone"}  # fmt: skip
_CHOICES = {
    "mark_legend": "put a Rune on a Legend",
    "choose_motif": "choose a Motif",
    "place_badges": "place Badges on Creatures",
    "cheer_fan": "choose the Fan's effect",
    "place_creature": "place the Creature",
    "return_stones": "return coins or Bardstones down to 12",
}


def gains_in_words(gains: Gains) -> str:
    """What an icon group gives, as a player reads it: "2 Melody and 1 coin"."""
    parts = [_ICONS[name][amount != 1].format(n=amount) for name, amount in gains]
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def _strip(gains: Gains) -> str:
    """A discard strip: the Tempo turn reads "turn the Tempo 2 spaces on"."""
    parts = []
    for name, amount in gains:
        words = _ICONS[name][amount != 1].format(n=amount)
        parts.append(f"turn {words}" if name.startswith("tempo") else words)
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def _effect(effect: Effect, choice: int) -> str:
    side = gains_in_words(effect.options[choice])
    said = f"pay {in_words(effect.pay)} for {side}" if effect.pay else side
    return f"{said} (repeatable)" if effect.times == 0 else said


def _card(card: str) -> str:
    return content().card(card).name if card in content().cards else card


def place_name(space: str) -> str:
    """A map space by its name ("Willow Bend")."""
    c = content()
    return c.space(space).name if space in c.space_index else space


def _location(location: str) -> str:
    c = content()
    return c.location(location).name if location in c.location_index else location


# A bonus spot of one icon, by that icon ("the coin bonus", not "the 1 coin bonus").
_SINGLE_BONUS = {"coin": "coin", "vp": "VP crystal", "move": "extra movement"}


def _bonus(area: int) -> str:
    """The bonus spot of a Tempo area, by what it gives ("the coin bonus")."""
    areas = content().tempo_areas
    if not 0 <= area < len(areas):
        return "a bonus spot"
    bonus = areas[area].bonus
    if len(bonus) == 1 and bonus[0][1] == 1 and bonus[0][0] in _SINGLE_BONUS:
        return f"the {_SINGLE_BONUS[bonus[0][0]]} bonus"
    return f"the {gains_in_words(bonus)} bonus"


def _quietly(check: Callable[..., T], *args: Any) -> T | None:
    """A rule's check for its numbers (what a move costs); ``None`` if it refuses."""
    try:
        return check(*args)
    except RuleViolation:
        return None


def _song_card(state: BardwoodState, seat: int, slot: int) -> tuple[str, Card | None]:
    """The menu of one Song card (each card its own, so a long Song never makes one menu
    too long, and two copies of a card are told apart by their place) and the card."""
    song = state.player(seat).song
    if not 0 <= slot < len(song):
        return f"Song card {slot + 1}", None
    card = content().card(song[slot].card)
    return f"Song card {slot + 1}: {card.name}", card


def _discount(lyric: int) -> str:
    return f"-{lyric} Lyric" if lyric else "no discount yet"


def _badges(count: int, whose: str = "") -> str:
    """ "an opponent's Badge", "3 opponents' Badges"."""
    if count == 1:
        return f"an {whose}'s Badge" if whose else "a Badge"
    return f"{count} {whose}s' Badges" if whose else f"{count} Badges"


def _seat(seat: int) -> str:
    return f"Seat {seat}"


class BardwoodWords:
    """The wording the kit asks for (engines.core.game.Wording)."""

    def command(self, state: BardwoodState, command: pb.Command, seat: int) -> MoveWords:
        kind = command.WhichOneof("kind") or ""
        said = getattr(self, f"_{kind}", None)
        if said is None:
            return MoveWords("Other", kind.replace("_", " "))
        words: MoveWords = said(state, getattr(command, kind), seat)
        return words

    # -- set-up and Composition -------------------------------------------------------

    @staticmethod
    def _choose_character(state: BardwoodState, body: pb.ChooseCharacter, seat: int) -> MoveWords:
        character = content().character(body.character)
        return MoveWords("Character", f"Take {character.name} and the {character.icon} deck")

    @staticmethod
    def _place_bard(state: BardwoodState, body: pb.PlaceBard, seat: int) -> MoveWords:
        return MoveWords("Starting space", f"Put your Bard on {place_name(body.space)}")

    @staticmethod
    def _play_card(state: BardwoodState, body: pb.PlayCard, seat: int) -> MoveWords:
        return MoveWords("Play a card", f"Play {_card(body.card)} to the right of your Song")

    @staticmethod
    def _discard_card(state: BardwoodState, body: pb.DiscardCard, seat: int) -> MoveWords:
        strip = content().card(body.card).strip
        return MoveWords(
            "Discard a card", f"Discard {_card(body.card)} for its strip: {_strip(strip)}"
        )

    @staticmethod
    def _move_bard(state: BardwoodState, body: pb.MoveBard, seat: int) -> MoveWords:
        return MoveWords("Movement", f"Move your Bard to {place_name(body.space)}")

    @staticmethod
    def _move_boat(state: BardwoodState, body: pb.MoveBoat, seat: int) -> MoveWords:
        discounts = content().legend_discounts
        after = discounts[min(state.player(seat).boat + 1, len(discounts) - 1)]
        return MoveWords(
            "Movement", f"Move your boat up the Legend discount track ({_discount(after)})"
        )

    @staticmethod
    def _make_loudstone(state: BardwoodState, body: pb.MakeLoudstone, seat: int) -> MoveWords:
        volume = content().loudstone_volume
        return MoveWords("Loudstones", f"Turn {volume} Volume into a Loudstone")

    # -- Singing ----------------------------------------------------------------------

    @staticmethod
    def _pay_volume(state: BardwoodState, body: pb.PayVolume, seat: int) -> MoveWords:
        group, card = _song_card(state, seat, body.slot)
        with_what = "a Loudstone" if body.loudstone else f"{card.cost if card else 0} Volume"
        name = card.name if card else "it"
        return MoveWords(group, f"Pay {with_what} for the paid effect of {name}")

    @staticmethod
    def _use_card(state: BardwoodState, body: pb.UseCard, seat: int) -> MoveWords:
        group, card = _song_card(state, seat, body.slot)
        if card is None:
            return MoveWords(group, "Sing it")
        effects = card.top if body.part == "top" else card.paid
        part = "top" if body.part == "top" else "paid effect"
        if not 0 <= body.effect < len(effects) or not (
            0 <= body.choice < len(effects[body.effect].options)
        ):
            return MoveWords(group, f"Sing {card.name} ({part})")
        said = _effect(effects[body.effect], body.choice)
        return MoveWords(group, f"Sing {card.name} ({part}): {said}")

    @staticmethod
    def _perform(state: BardwoodState, body: pb.Perform, seat: int) -> MoveWords:
        spots = content().perform_spots
        spot = spots[body.spot] if 0 <= body.spot < len(spots) else None
        what = f": pay {spot.lyric} Lyric for {spot.vp} VP and a Fan" if spot else ""
        return MoveWords(
            f"Perform (Rune off {_bonus(body.rune)})",
            f"Perform on spot {body.spot + 1}{what} (Rune off {_bonus(body.rune)})",
        )

    @staticmethod
    def _tell_legend(state: BardwoodState, body: pb.TellLegend, seat: int) -> MoveWords:
        checked = _quietly(check_tell, state, body, seat)
        cost = in_words(checked[0]) if checked else "its cost"
        vp = content().tier(body.tier).vp if body.tier in (1, 2, 3) else 0
        boat = " using your boat's discount" if body.discount else ""
        return MoveWords(
            "Legends", f"Tell a Tier {body.tier} Legend for {cost}{boat}, gaining {vp} VP"
        )

    @staticmethod
    def _mark_legend(state: BardwoodState, body: pb.MarkLegend, seat: int) -> MoveWords:
        legend = content().legend(body.legend).name
        return MoveWords("Mark a Legend", f"Put the Rune off {_bonus(body.rune)} on {legend}")

    @staticmethod
    def _soothe(state: BardwoodState, body: pb.Soothe, seat: int) -> MoveWords:
        where = _location(body.location)
        checked = _quietly(check_soothe, state, body, seat)
        pile = state.pile(body.location)
        if pile is None or not pile.cards:
            cost = in_words(content().exhausted_creature_pay)
            return MoveWords("Creatures", f"At the empty {where}, pay {cost} for 1 VP")
        melody = soothe_cost(state, pile)
        reach = f", spending {checked[1]} Rangestone{'s' if checked[1] > 1 else ''}" if (
            checked and checked[1]
        ) else ""  # fmt: skip
        spot = state.player(seat).creatures
        on = "an empty spot" if body.spot >= len(spot) or not spot[body.spot] else (
            f"your {_card(spot[body.spot][-1])}"
        )  # fmt: skip
        return MoveWords(
            "Creatures",
            f"Soothe the {_card(pile.top)} at the {where} for {melody} Melody{reach}, "
            f"onto {on} (spot {body.spot + 1})",
        )

    @staticmethod
    def _assist(state: BardwoodState, body: pb.Assist, seat: int) -> MoveWords:
        pile = state.pile(body.location)
        top = pile.top if pile else ""
        melody = content().card(top).assist if top else 0
        return MoveWords(
            "Creatures",
            f"Assist the {_card(top)} at the {_location(body.location)} for {melody} Melody "
            "with your left-most Badge",
        )

    @staticmethod
    def _boast(state: BardwoodState, body: pb.Boast, seat: int) -> MoveWords:
        return MoveWords("Creatures", "Boast: discard the top Creature of each of your spots")

    @staticmethod
    def _challenge(state: BardwoodState, body: pb.Challenge, seat: int) -> MoveWords:
        melody = challenge_melody(state, body.seat) if 0 <= body.seat < state.seats else 0
        return MoveWords(
            "Challenge",
            f"Challenge {_seat(body.seat)}'s Bard for {melody} Melody and take its left-most Badge",
        )

    @staticmethod
    def _use_bank(state: BardwoodState, body: pb.UseBank, seat: int) -> MoveWords:
        if body.collect:
            count = len(state.bank)
            return MoveWords("High Note Bank", f"Take {_badges(count)} from the High Note Bank")
        coins = market_cost(state)
        return MoveWords(
            "High Note Bank", f"Place your left-most Badge on the High Note Bank for {coins} coins"
        )

    @staticmethod
    def _buy(state: BardwoodState, body: pb.Buy, seat: int) -> MoveWords:
        where = _location(body.location)
        cost = _quietly(check_buy, state, body, seat)
        price = in_words(cost) if cost else "the Market cost"
        deck = state.market_deck(body.location) or ()
        if not deck:
            return MoveWords("Market", f"At the empty {where}, pay {price} for 1 VP")
        if body.card:
            return MoveWords("Market", f"Search the {where} for {_card(body.card)} for {price}")
        return MoveWords("Market", f"Buy {_card(deck[0])} from the {where} for {price}")

    @staticmethod
    def _choose_motif(state: BardwoodState, body: pb.ChooseMotif, seat: int) -> MoveWords:
        motifs = state.motifs
        motif, vp_side = motifs[body.slot] if 0 <= body.slot < len(motifs) else ("", False)
        name = content().motif(motif).name if motif else f"spot {body.slot + 1}"
        if vp_side:
            shown = sum(1 for m, side in motifs if m and side)
            what = f"{shown} VP, then turn every Motif back"
        else:
            what = _motif_benefit(motif)
        free = state.choices and state.choices[-1].kind == "choose_motif"
        cost = "" if free else f" for {in_words(content().motif_cost)}"
        return MoveWords("Motifs", f"Choose the {name}{cost}: {what}")

    @staticmethod
    def _place_badge(state: BardwoodState, body: pb.PlaceBadge, seat: int) -> MoveWords:
        pile = state.pile(body.location)
        return MoveWords(
            "Motif of Trust",
            f"Put a Badge on the {_card(pile.top if pile else '')} at the "
            f"{_location(body.location)}",
        )

    @staticmethod
    def _spend_badges(state: BardwoodState, body: pb.SpendBadges, seat: int) -> MoveWords:
        rewards = {r.id: r for r in content().badge_rewards}
        reward = rewards.get(body.reward)
        count = reward.badges if reward else 0
        return MoveWords(
            "Character card",
            f"Return {_badges(count, 'opponent')} to the box for "
            f"{_REWARDS.get(body.reward, body.reward)}",
        )

    @staticmethod
    def _use_event_offer(state: BardwoodState, body: pb.UseEventOffer, seat: int) -> MoveWords:
        event = _quietly(check_offer, state, body, seat)
        if event is None:
            return MoveWords("Event", "Take the Event's offer")
        return MoveWords(
            "Event",
            f"{event.name}: pay {in_words(event.offer_pay)} for {gains_in_words(event.offer_gain)}",
        )

    # -- Downtime and choices ---------------------------------------------------------

    @staticmethod
    def _cheer_fan(state: BardwoodState, body: pb.CheerFan, seat: int) -> MoveWords:
        card = state.choices[-1].card if state.choices else ""
        cheer = content().card(card).cheer if card else ()
        said = gains_in_words(cheer[body.choice]) if 0 <= body.choice < len(cheer) else "?"
        return MoveWords("Fan", f"Let {_card(card)} cheer for {said}")

    @staticmethod
    def _place_creature(state: BardwoodState, body: pb.PlaceCreature, seat: int) -> MoveWords:
        card = state.choices[-1].card if state.choices else ""
        spots = state.player(seat).creatures
        on = "an empty spot" if body.spot >= len(spots) or not spots[body.spot] else (
            f"your {_card(spots[body.spot][-1])}"
        )  # fmt: skip
        return MoveWords("Creature", f"Put the {_card(card)} onto {on} (spot {body.spot + 1})")

    @staticmethod
    def _return_to_supply(state: BardwoodState, body: pb.ReturnToSupply, seat: int) -> MoveWords:
        return MoveWords(
            "Down to 12", f"Return {_STONES.get(body.resource, body.resource)} to the supply"
        )

    @staticmethod
    def _finish(state: BardwoodState, body: pb.Finish, seat: int) -> MoveWords:
        stage = stage_of(state)
        if stage == "compose":
            unspent = state.turn.movement
            lost = f" (losing {unspent} movement point{'s' if unspent != 1 else ''})" * bool(
                unspent
            )
            return MoveWords("Finish", f"Finish composing{lost}")
        if stage == "sing":
            return MoveWords("Finish", "Finish your Song and go to Downtime")
        return MoveWords("Finish", "Place no more Badges")

    # -- events -----------------------------------------------------------------------

    def event(self, event: pb.Event, viewer: int | None) -> str:
        kind = event.WhichOneof("kind") or ""
        said = getattr(self, f"_{kind}_ev", None)
        if said is None:
            return kind.replace("_", " ").capitalize() or "Nothing happens"
        line: str = said(getattr(event, kind))
        return line

    @staticmethod
    def _game_set_up_ev(e: pb.GameSetUp) -> str:
        c = content()
        options = [
            name
            for name, on in (
                ("short game", e.short_game),
                ("Loudstones", e.loudstones),
                ("unlocked content", e.unlocked),
            )
            if on
        ]
        extra = f" ({', '.join(options)})" if options else ""
        first = c.event(e.act1_event).name if e.act1_event else "no Event"
        return (
            f"{e.seats} bards gather in Bardwood Grove{extra}; {_seat(e.first_player)} begins; "
            f"Act I's Event is {first}"
        )

    @staticmethod
    def _character_chosen_ev(e: pb.CharacterChosen) -> str:
        return f"{_seat(e.seat)} takes {content().character(e.character).name}"

    @staticmethod
    def _card_drawn_ev(e: pb.CardDrawn) -> str:
        return (
            f"{_seat(e.seat)} draws {_card(e.card)}" if e.card else f"{_seat(e.seat)} draws a card"
        )

    @staticmethod
    def _known_card_drawn_ev(e: pb.KnownCardDrawn) -> str:
        return f"{_seat(e.seat)} draws {_card(e.card)} from the top of the deck"

    @staticmethod
    def _deck_reshuffled_ev(e: pb.DeckReshuffled) -> str:
        return f"{_seat(e.seat)} shuffles the discard pile into a new deck of {e.cards} cards"

    @staticmethod
    def _improv_placed_ev(e: pb.ImprovPlaced) -> str:
        return f"{_seat(e.seat)} puts the Improv {_card(e.card)} into the Song"

    @staticmethod
    def _turn_began_ev(e: pb.TurnBegan) -> str:
        which = "the first" if e.first else ("a final" if e.final else "a")
        return f"{_seat(e.seat)} begins {which} turn"

    @staticmethod
    def _bard_placed_ev(e: pb.BardPlaced) -> str:
        return f"{_seat(e.seat)} puts the Bard on {place_name(e.space)}"

    @staticmethod
    def _card_played_ev(e: pb.CardPlayed) -> str:
        return f"{_seat(e.seat)} plays {_card(e.card)} into the Song"

    @staticmethod
    def _card_discarded_ev(e: pb.CardDiscarded) -> str:
        return f"{_seat(e.seat)} discards {_card(e.card)}"

    @staticmethod
    def _resources_changed_ev(e: pb.ResourcesChanged) -> str:
        gained = tuple((icon, getattr(e, field)) for field, icon in _RESOURCES
                       if getattr(e, field) > 0)  # fmt: skip
        lost = tuple((icon, -getattr(e, field)) for field, icon in _RESOURCES
                     if getattr(e, field) < 0)  # fmt: skip
        parts = []
        if gained:
            parts.append(f"gains {gains_in_words(gained)}")
        if lost:
            parts.append(f"{'pays' if e.reason != 'limit' else 'returns'} {gains_in_words(lost)}")
        said = " and ".join(parts) or "changes nothing"
        return f"{_seat(e.seat)} {said} ({_reason(e.reason)})"

    @staticmethod
    def _crystals_taken_ev(e: pb.CrystalsTaken) -> str:
        total = e.act1 + e.act2 + e.reserve
        pools = [
            f"{n} from {name}"
            for n, name in ((e.act1, "Act I"), (e.act2, "Act II"), (e.reserve, "the reserve"))
            if n
        ]
        return f"{_seat(e.seat)} takes {total} VP ({', '.join(pools)}; {_reason(e.reason)})"

    @staticmethod
    def _tempo_turned_ev(e: pb.TempoTurned) -> str:
        way = "on" if e.steps >= 0 else "back"
        steps = abs(e.steps)
        area = content().tempo_areas[e.area] if 0 <= e.area < len(content().tempo_areas) else None
        where = f" into the {area.move}-movement area" if area else ""
        return (
            f"{_seat(e.seat)} turns the Tempo {steps} space{'s' if steps != 1 else ''} {way}{where}"
        )

    @staticmethod
    def _song_triggered_ev(e: pb.SongTriggered) -> str:
        return f"{_seat(e.seat)}'s Tempo passes the Song tracker: a Song is coming"

    @staticmethod
    def _singing_began_ev(e: pb.SingingBegan) -> str:
        return f"{_seat(e.seat)} sings {'the swan song' if e.swan_song else 'the Song'}"

    @staticmethod
    def _bard_moved_ev(e: pb.BardMoved) -> str:
        return f"{_seat(e.seat)} moves the Bard to {place_name(e.space)}"

    @staticmethod
    def _boat_moved_ev(e: pb.BoatMoved) -> str:
        discounts = content().legend_discounts
        value = discounts[e.position] if 0 <= e.position < len(discounts) else 0
        return f"{_seat(e.seat)} moves the boat up the discount track ({_discount(value)})"

    @staticmethod
    def _volume_paid_ev(e: pb.VolumePaid) -> str:
        paid = "a Loudstone" if e.loudstone else f"{e.volume} Volume"
        return f"{_seat(e.seat)} pays {paid} for the paid effect of Song card {e.slot + 1}"

    @staticmethod
    def _card_used_ev(e: pb.CardUsed) -> str:
        part = "top" if e.part == "top" else "paid effect"
        return f"{_seat(e.seat)} sings the {part} of Song card {e.slot + 1}"

    @staticmethod
    def _location_used_ev(e: pb.LocationUsed) -> str:
        return f"{_seat(e.seat)} visits {_location(e.location)}"

    @staticmethod
    def _rune_placed_ev(e: pb.RunePlaced) -> str:
        kind, _, what = e.to.partition(":")
        if kind == "perform" and what.isdigit():
            to = f"Perform spot {int(what) + 1}"
        elif kind == "legend" and what:
            to = content().legend(what).name
        else:
            to = e.to
        return f"{_seat(e.seat)} moves a Rune off {_bonus(e.area)} onto {to}"

    @staticmethod
    def _fan_taken_ev(e: pb.FanTaken) -> str:
        return f"{_seat(e.seat)} wins the Fan {_card(e.fan)}, face down on top of the deck"

    @staticmethod
    def _legend_told_ev(e: pb.LegendTold) -> str:
        boat = f", {e.discount} Lyric off with the boat" if e.boat_used else ""
        return f"{_seat(e.seat)} tells a Tier {e.tier} Legend{boat}"

    @staticmethod
    def _legend_revealed_ev(e: pb.LegendRevealed) -> str:
        return f"{content().legend(e.legend).name} is turned face up in Tier {e.tier}"

    @staticmethod
    def _creature_soothed_ev(e: pb.CreatureSoothed) -> str:
        return (
            f"{_seat(e.seat)} soothes the {_card(e.creature)} at the {_location(e.location)} "
            f"and puts it on Creature spot {e.spot + 1}"
        )

    @staticmethod
    def _badge_placed_ev(e: pb.BadgePlaced) -> str:
        to = "the High Note Bank" if e.to == "bank" else f"the {_location(e.to)}"
        return f"{_seat(e.seat)} places a Badge on {to}"

    @staticmethod
    def _badges_taken_ev(e: pb.BadgesTaken) -> str:
        source = e.source
        if source == "bank":
            where = "the High Note Bank"
        elif source.startswith("track:"):
            where = f"{_seat(int(source.partition(':')[2] or 0))}'s Badge track"
        else:
            where = f"the {_location(source)}"
        owners = ", ".join(_seat(owner) for owner in e.owners) or "nobody"
        return f"{_seat(e.seat)} takes {_badges(len(e.owners))} from {where} (of {owners})"

    @staticmethod
    def _badge_returned_ev(e: pb.BadgeReturned) -> str:
        return f"{_seat(e.seat)}'s own Badge at the {_location(e.source)} goes back to the box"

    @staticmethod
    def _badges_spent_ev(e: pb.BadgesSpent) -> str:
        reward = _REWARDS.get(e.reward, e.reward)
        return f"{_seat(e.seat)} returns {_badges(e.badges, 'opponent')} to the box for {reward}"

    @staticmethod
    def _challenged_ev(e: pb.Challenged) -> str:
        return f"{_seat(e.seat)} challenges {_seat(e.target)} for {e.melody} Melody"

    @staticmethod
    def _card_bought_ev(e: pb.CardBought) -> str:
        where = _location(e.location)
        if e.searched:
            return (
                f"{_seat(e.seat)} searches the {where} for {_card(e.card)} "
                f"({e.coins} coins); it goes on top of the deck"
            )
        return (
            f"{_seat(e.seat)} buys {_card(e.card)} at the {where} ({e.coins} coins); "
            "it goes on top of the deck"
        )

    @staticmethod
    def _market_boat_moved_ev(e: pb.MarketBoatMoved) -> str:
        costs = content().market_costs
        cost = costs[e.position] if 0 <= e.position < len(costs) else 0
        return f"The market boat moves on: cards now cost {cost} coins"

    @staticmethod
    def _market_deck_shuffled_ev(e: pb.MarketDeckShuffled) -> str:
        top = _card(e.cards[0]) if e.cards else "nothing"
        return f"The {_location(e.location)} is shuffled; {top} is on top"

    @staticmethod
    def _boasted_ev(e: pb.Boasted) -> str:
        cards = ", ".join(_card(card) for card in e.cards) or "nothing"
        return f"{_seat(e.seat)} boasts and discards {cards}"

    @staticmethod
    def _motifs_turned_ev(e: pb.MotifsTurned) -> str:
        count = len(e.slots)
        side = "VP side" if e.vp_side else "benefit side"
        motifs = "1 Motif turns" if count == 1 else f"{count} Motifs turn"
        return f"{motifs} to the {side}"

    @staticmethod
    def _motif_chosen_ev(e: pb.MotifChosen) -> str:
        name = content().motif(e.motif).name if e.motif else "a Motif"
        side = " (its VP side)" if e.vp_side else ""
        return f"{_seat(e.seat)} chooses the {name}{side}"

    @staticmethod
    def _event_offer_used_ev(e: pb.EventOfferUsed) -> str:
        return f"{_seat(e.seat)} takes the offer of {content().event(e.event).name}"

    @staticmethod
    def _choice_opened_ev(e: pb.ChoiceOpened) -> str:
        what = _CHOICES.get(e.kind, e.kind.replace("_", " "))
        if e.kind == "mark_legend":
            what += f" of Tier {e.tier}"
        elif e.kind == "place_badges":
            what = f"place up to {e.count} Badges on Creatures"
        elif e.card:
            what += f" ({_card(e.card)})"
        return f"{_seat(e.seat)} is to {what}"

    @staticmethod
    def _choice_closed_ev(e: pb.ChoiceClosed) -> str:
        what = _CHOICES.get(e.kind, e.kind.replace("_", " "))
        return f"{_seat(e.seat)} is done: {what}"

    @staticmethod
    def _fan_cheered_ev(e: pb.FanCheered) -> str:
        cheer = content().card(e.card).cheer if e.card in content().cards else ()
        said = gains_in_words(cheer[e.choice]) if 0 <= e.choice < len(cheer) else "a cheer"
        return f"{_card(e.card)} cheers for {_seat(e.seat)}: {said}"

    @staticmethod
    def _creature_placed_ev(e: pb.CreaturePlaced) -> str:
        return f"{_seat(e.seat)} puts the {_card(e.card)} on Creature spot {e.spot + 1}"

    @staticmethod
    def _song_ended_ev(e: pb.SongEnded) -> str:
        cards = ", ".join(_card(card) for card in e.cards) or "nothing but the Instrument"
        return f"{_seat(e.seat)}'s Song ends; discarded: {cards}"

    @staticmethod
    def _downtime_began_ev(e: pb.DowntimeBegan) -> str:
        return f"{_seat(e.seat)}'s Downtime"

    @staticmethod
    def _turn_ended_ev(e: pb.TurnEnded) -> str:
        return f"{_seat(e.seat)} ends the turn"

    @staticmethod
    def _act_end_triggered_ev(e: pb.ActEndTriggered) -> str:
        return f"Act {'I' * e.act}'s VP pool is empty: the Act ends after this turn"

    @staticmethod
    def _act_ended_ev(e: pb.ActEnded) -> str:
        return f"Act {'I' * e.act} ends; its Event's end effect resolves"

    @staticmethod
    def _game_end_triggered_ev(e: pb.GameEndTriggered) -> str:
        others = ", ".join(_seat(seat) for seat in e.final_seats) or "nobody"
        return f"{_seat(e.seat)} triggers the end (+1 VP); final turns: {others}"

    @staticmethod
    def _game_finished_ev(e: pb.GameFinished) -> str:
        scores = "; ".join(
            f"{_seat(s.seat)} {s.total_halves // 2}{'.5' if s.total_halves % 2 else ''}"
            for s in e.scores
        )
        winners = " and ".join(_seat(seat) for seat in e.winners) or "nobody"
        return f"Game over: {winners} won ({scores})"


def _motif_benefit(motif: str) -> str:
    if not motif:
        return "nothing"
    m = content().motif(motif)
    if m.kind == "badges":
        return f"put up to {m.badges} of your Badges on Creatures"
    return gains_in_words(m.gain)


WORDS = BardwoodWords()
