"""Bardwood Grove's content, loaded once from ``data/*.json`` into frozen dataclasses.

Rules code reads cards, Creatures, Legends, Motifs, Events, the player board and the map
only through :func:`content`, so the real components can be dropped in as data. Every
entry carries its ``source`` (``rulebook`` or ``reconstructed``); RULES.md says why each
reconstruction is what it is.

Amounts are whole numbers except blue VP, which the rulebook counts in halves: they are
kept as *half points* (``blue_halves``), so 0.5 blue VP is ``1``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

__all__ = [
    "GAINS",
    "PAYMENTS",
    "BadgeReward",
    "BadgeSpot",
    "Card",
    "Character",
    "Content",
    "Effect",
    "Event",
    "Gains",
    "Legend",
    "Location",
    "Motif",
    "PerformSpot",
    "Scoring",
    "Space",
    "TempoArea",
    "Tier",
    "content",
    "gains_of",
]

DATA = Path(__file__).parent / "data"

# What an icon can give. ``tempo`` turns the wheel clockwise (always taken in full),
# ``tempo_back`` counter-clockwise; ``fan``, ``boast`` and ``motif`` are actions.
GAINS: tuple[str, ...] = (
    "melody",
    "lyric",
    "volume",
    "coin",
    "songstone",
    "rangestone",
    "loudstone",
    "vp",
    "move",
    "tempo",
    "tempo_back",
    "fan",
    "boast",
    "motif",
)
# What a cost can ask for.
PAYMENTS: tuple[str, ...] = ("melody", "lyric", "coin", "songstone")

# Amounts by resource, in GAINS order; never empty entries.
Gains = tuple[tuple[str, int], ...]


def gains_of(raw: Mapping[str, int]) -> Gains:
    """A gains mapping from the data, checked and put in one canonical order."""
    unknown = set(raw) - set(GAINS)
    if unknown:
        raise ValueError(f"unknown resources {sorted(unknown)}")
    return tuple((name, int(raw[name])) for name in GAINS if raw.get(name))


def _payment(raw: Mapping[str, int]) -> Gains:
    unknown = set(raw) - set(PAYMENTS)
    if unknown:
        raise ValueError(f"cannot pay with {sorted(unknown)}")
    return gains_of(raw)


def _halves(value: float) -> int:
    halves = value * 2
    if halves != int(halves):
        raise ValueError(f"blue VP come in halves, not {value}")
    return int(halves)


@dataclass(frozen=True, slots=True)
class Effect:
    """One icon group of a card part (Singing: "all effects are one time each").

    ``options`` has one entry, or several for a slash ("or"). ``pay`` is an arrow's cost
    (empty: a free gain). ``times`` is how often it may be used: 1, 2, or 0 for the
    repeat icon (any number of times).
    """

    options: tuple[Gains, ...]
    pay: Gains = ()
    times: int = 1


@dataclass(frozen=True, slots=True)
class Card:
    """Any card that can be in a player's deck.

    Improv, Instrument and Action cards have a ``top``, a Volume ``cost``, a ``paid``
    effect and a discard ``strip``. A Fan has ``cheer`` (choose one when drawn). A
    Creature has Soothe and Assist costs, the badge ``discount`` icon and its ``bonus``.
    """

    id: str
    name: str
    kind: str  # "improv", "instrument", "action", "fan", "creature"
    source: str
    character: str = ""
    top: tuple[Effect, ...] = ()
    cost: int = 0
    paid: tuple[Effect, ...] = ()
    strip: Gains = ()
    cheer: tuple[Gains, ...] = ()
    blue_halves: int = 0
    soothe: int = 0
    assist: int = 0
    discount: bool = False
    bonus: Gains = ()
    boss: bool = False
    unlock: bool = False  # unlockable content: used only with the `unlocked` option

    @property
    def skill(self) -> bool:
        """Skill cards stay in hand; every other drawn card is played at once."""
        return self.kind == "action"


@dataclass(frozen=True, slots=True)
class BadgeReward:
    """A bonus at the bottom of every Character card: spend Badges while Singing."""

    id: str
    badges: int
    gain: Gains


@dataclass(frozen=True, slots=True)
class Character:
    """A Character card, its Bard and its 9-card starting deck."""

    id: str
    name: str
    icon: str
    deck: tuple[str, ...]
    instrument: str
    improv: str
    super_fan: str
    source: str


@dataclass(frozen=True, slots=True)
class Scoring:
    """``per`` VP for every ``every`` of ``count``, at most ``max``, none below ``at_least``."""

    count: str
    per: int
    every: int = 1
    max: int = 0
    at_least: int = 0

    def value(self, n: int) -> int:
        if n < self.at_least:
            return 0
        points = self.per * (n // self.every)
        return min(points, self.max) if self.max else points


@dataclass(frozen=True, slots=True)
class Tier:
    """A Legend Tier: its cost and VP belong to the Tier, not the card."""

    tier: int
    cost: Gains
    vp: int
    face_down: int
    source: str


@dataclass(frozen=True, slots=True)
class Legend:
    id: str
    name: str
    tier: int
    scoring: Scoring
    source: str


@dataclass(frozen=True, slots=True)
class Motif:
    """A Motif's benefit side (``kind``: "fan_boast", "resource" or "badges")."""

    id: str
    name: str
    kind: str
    gain: Gains
    badges: int
    unlock: bool
    source: str


@dataclass(frozen=True, slots=True)
class Event:
    """An Act's Event: an ongoing effect and an end-of-Act effect for every player."""

    id: str
    name: str
    offer_pay: Gains
    offer_gain: Gains
    buy_discount: int
    soothe_discount: int
    end: Scoring
    unlock: bool
    source: str


@dataclass(frozen=True, slots=True)
class TempoArea:
    """One area of the Tempo wheel: movement points and the bonus under two Runes."""

    name: str
    move: int
    bonus: Gains
    source: str


@dataclass(frozen=True, slots=True)
class BadgeSpot:
    """What a Badge spot shows once its Badge is gone."""

    melody: int
    blue_halves: int


@dataclass(frozen=True, slots=True)
class Location:
    id: str
    kind: str  # "perform", "legends", "motifs", "boast", "bank", "market", "creatures"
    name: str
    market: str  # "improv" / "action" for a market deck
    source: str


@dataclass(frozen=True, slots=True)
class Space:
    """A space bards stand on (named for players' menus), and the Locations it touches."""

    id: str
    name: str
    row: int
    col: int
    touches: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PerformSpot:
    """A Runestone spot of the Perform location: its Lyric cost and VP."""

    lyric: int
    vp: int
    source: str

    @property
    def cost(self) -> Gains:
        return (("lyric", self.lyric),)


@dataclass(frozen=True, slots=True)
class Content:
    """Everything the rules read from the data files."""

    cards: Mapping[str, Card]
    characters: tuple[Character, ...]
    deck_makeup: Mapping[str, int]
    creature_spots: int
    badge_rewards: tuple[BadgeReward, ...]
    fans: tuple[str, ...]
    creatures: tuple[str, ...]
    tiers: tuple[Tier, ...]
    legends: tuple[Legend, ...]
    motif_spots: int
    motif_cost: Gains
    motifs: tuple[Motif, ...]
    events: tuple[Event, ...]
    volume_start: int
    volume_max: int
    loudstone_volume: int
    hand_size: int
    stone_limit: int
    first_turn_penalty: int
    tempo_areas: tuple[TempoArea, ...]
    tempo_start: int
    runes_per_bonus: int
    badges: int
    badge_base_melody: int
    badge_spots: tuple[BadgeSpot, ...]
    locations: tuple[Location, ...]
    layout: tuple[tuple[str, ...], ...]  # the map's cells row by row: Locations and scenery
    spaces: tuple[Space, ...]
    starting_spaces: tuple[str, ...]
    perform_spots: tuple[PerformSpot, ...]
    legend_discounts: tuple[int, ...]
    market_costs: tuple[int, ...]
    search_extra: int
    market_designs: Mapping[str, tuple[str, ...]]  # first-game designs per type
    market_unlockable: Mapping[str, tuple[str, ...]]  # designs added by unlocking
    market_cards: frozenset[str]  # every market design, unlockable ones included
    fan_deck: int
    creature_piles: int
    normals_per_pile: int
    boss_at_least: int
    normal_at_most: int
    exhausted_creature_pay: Gains
    exhausted_gain: Gains
    act1_per_player: int
    act2_per_player: int
    short_act1_per_player: int
    short_act2_per_player: int
    end_bonus: int
    bank_badges_per_player: int
    # Indexes of the lists above (rules look these up on every candidate).
    location_index: Mapping[str, Location]
    space_index: Mapping[str, Space]
    adjacent: Mapping[str, tuple[str, ...]]

    def card(self, card_id: str) -> Card:
        return self.cards[card_id]

    def character(self, character_id: str) -> Character:
        for character in self.characters:
            if character.id == character_id:
                return character
        raise KeyError(character_id)

    def tier(self, tier: int) -> Tier:
        return self.tiers[tier - 1]

    def legend(self, legend_id: str) -> Legend:
        for legend in self.legends:
            if legend.id == legend_id:
                return legend
        raise KeyError(legend_id)

    def legends_of(self, tier: int) -> tuple[str, ...]:
        return tuple(legend.id for legend in self.legends if legend.tier == tier)

    def motif(self, motif_id: str) -> Motif:
        for motif in self.motifs:
            if motif.id == motif_id:
                return motif
        raise KeyError(motif_id)

    def event(self, event_id: str) -> Event:
        for event in self.events:
            if event.id == event_id:
                return event
        raise KeyError(event_id)

    def location(self, location_id: str) -> Location:
        return self.location_index[location_id]

    def space(self, space_id: str) -> Space:
        return self.space_index[space_id]

    def neighbours(self, space_id: str) -> tuple[str, ...]:
        """Spaces orthogonally next to ``space_id`` (Movement: "not diagonal")."""
        return self.adjacent[space_id]

    def market_of(self, kind: str) -> tuple[str, ...]:
        """The Location ids of the market decks of one type ("improv"/"action")."""
        return tuple(loc.id for loc in self.locations if loc.market == kind)


def _load(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def _effect(raw: Mapping[str, Any]) -> Effect:
    if "choice" in raw:
        options = tuple(gains_of(option) for option in raw["choice"])
    else:
        options = (gains_of(raw["gain"]),)
    times = raw.get("times", 1)
    return Effect(
        options=options,
        pay=_payment(raw.get("pay", {})),
        times=0 if times == "any" else int(times),
    )


def _scoring(raw: Mapping[str, Any]) -> Scoring:
    return Scoring(
        count=str(raw["count"]),
        per=int(raw["per"]),
        every=int(raw.get("every", 1)),
        max=int(raw.get("max", 0)),
        at_least=int(raw.get("at_least", 0)),
    )


def _song_card(raw: Mapping[str, Any]) -> Card:
    return Card(
        id=raw["id"],
        name=raw["name"],
        kind=raw["kind"],
        source=raw["source"],
        character=raw.get("character", ""),
        top=tuple(_effect(e) for e in raw["top"]),
        cost=int(raw["cost"]),
        paid=tuple(_effect(e) for e in raw["paid"]),
        strip=gains_of(raw["strip"]),
        blue_halves=_halves(raw.get("blue_vp", 0)),
        unlock=bool(raw.get("unlock", False)),
    )


def _fan(raw: Mapping[str, Any]) -> Card:
    return Card(
        id=raw["id"],
        name=raw["name"],
        kind="fan",
        source=raw["source"],
        character=raw.get("character", ""),
        cheer=tuple(gains_of(option) for option in raw["cheer"]),
        blue_halves=_halves(raw.get("blue_vp", 0)),
    )


def _creature(raw: Mapping[str, Any]) -> Card:
    return Card(
        id=raw["id"],
        name=raw["name"],
        kind="creature",
        source=raw["source"],
        soothe=int(raw["soothe"]),
        assist=int(raw["assist"]),
        discount=bool(raw["discount"]),
        bonus=gains_of(raw["bonus"]),
        boss=bool(raw["boss"]),
        blue_halves=_halves(raw.get("blue_vp", 0)),
    )


def _character(raw: Mapping[str, Any], cards: Mapping[str, Card]) -> Character:
    deck = tuple(raw["deck"])

    def one(kind: str) -> str:
        found = [c for c in deck if c in cards and cards[c].kind == kind]
        return found[0] if found else ""

    return Character(
        id=raw["id"],
        name=raw["name"],
        icon=raw["icon"],
        deck=deck,
        instrument=one("instrument"),
        improv=one("improv"),
        super_fan=one("fan"),
        source=raw["source"],
    )


@cache
def content() -> Content:
    """The game's content (read once per process)."""
    characters = _load("characters.json")
    cards_raw = _load("cards.json")["cards"]
    fans = _load("fans.json")
    creatures = _load("creatures.json")["creatures"]
    legends = _load("legends.json")
    motifs = _load("motifs.json")
    events = _load("events.json")["events"]
    board = _load("player_board.json")
    main = _load("board.json")

    every = [
        *(_song_card(c) for c in cards_raw),
        *(_fan(f) for f in fans["super_fans"]),
        *(_fan(f) for f in fans["fans"]),
        *(_creature(c) for c in creatures),
    ]
    cards = {card.id: card for card in every}
    locations = tuple(
        Location(loc["id"], loc["kind"], loc["name"], loc.get("market", ""), loc["source"])
        for loc in main["locations"]
    )
    spaces = tuple(
        Space(s["id"], s["name"], int(s["row"]), int(s["col"]), tuple(s["touches"]))
        for s in main["spaces"]
    )
    if len(cards) != len(every):
        raise ValueError("two cards share an id")
    tempo = board["tempo"]
    track = board["badge_track"]
    pools = main["vp_pools"]
    exhausted = main["exhausted"]
    return Content(
        cards=cards,
        characters=tuple(_character(c, cards) for c in characters["characters"]),
        deck_makeup={k: int(v) for k, v in characters["deck_makeup"].items() if k != "source"},
        creature_spots=int(characters["creature_spots"]["count"]),
        badge_rewards=tuple(
            BadgeReward(r["id"], int(r["badges"]), gains_of(r["gain"]))
            for r in characters["badge_rewards"]["rewards"]
        ),
        fans=tuple(f["id"] for f in fans["fans"]),
        creatures=tuple(c["id"] for c in creatures),
        tiers=tuple(
            Tier(
                int(t["tier"]), _payment(t["cost"]), int(t["vp"]), int(t["face_down"]), t["source"]
            )
            for t in legends["tiers"]
        ),
        legends=tuple(
            Legend(
                entry["id"],
                entry["name"],
                int(entry["tier"]),
                _scoring(entry["scoring"]),
                entry["source"],
            )
            for entry in legends["legends"]
        ),
        motif_spots=int(motifs["spots"]["count"]),
        motif_cost=_payment(motifs["location_cost"]["cost"]),
        motifs=tuple(
            Motif(
                id=m["id"],
                name=m["name"],
                kind=m["kind"],
                gain=gains_of(m["gain"]),
                badges=int(m.get("badges", 0)),
                unlock=bool(m["unlock"]),
                source=m["source"],
            )
            for m in motifs["motifs"]
        ),
        events=tuple(
            Event(
                id=e["id"],
                name=e["name"],
                offer_pay=_payment(e["ongoing"].get("offer", {}).get("pay", {})),
                offer_gain=gains_of(e["ongoing"].get("offer", {}).get("gain", {})),
                buy_discount=int(e["ongoing"].get("buy_discount", 0)),
                soothe_discount=int(e["ongoing"].get("soothe_discount", 0)),
                end=_scoring(e["end"]),
                unlock=bool(e["unlock"]),
                source=e["source"],
            )
            for e in events
        ),
        volume_start=int(board["volume"]["start"]),
        volume_max=int(board["volume"]["max"]),
        loudstone_volume=int(board["loudstone"]["volume"]),
        hand_size=int(board["hand"]["skill_cards"]),
        stone_limit=int(board["stone_limit"]["coins_and_bardstones"]),
        first_turn_penalty=int(board["first_turn_movement"]["penalty"]),
        tempo_areas=tuple(
            TempoArea(a["name"], int(a["move"]), gains_of(a["bonus"]), a["source"])
            for a in tempo["areas"]
        ),
        tempo_start=int(tempo["start_area"]),
        runes_per_bonus=int(tempo["runes_per_bonus"]),
        badges=int(track["badges"]),
        badge_base_melody=int(track["base"]["melody"]),
        badge_spots=tuple(
            BadgeSpot(int(s["melody"]), _halves(s["blue_vp"])) for s in track["spots"]
        ),
        locations=locations,
        layout=tuple(tuple(row) for row in main["layout"]["cells"]),
        spaces=spaces,
        starting_spaces=tuple(main["layout"]["starting_spaces"]),
        perform_spots=tuple(
            PerformSpot(int(p["lyric"]), int(p["vp"]), p["source"])
            for p in main["perform"]["spots"]
        ),
        legend_discounts=tuple(int(d) for d in main["legend_discount_track"]["discounts"]),
        market_costs=tuple(int(c) for c in main["market_cost_track"]["costs"]),
        search_extra=int(main["market_cost_track"]["search_extra"]),
        market_designs={
            "improv": tuple(main["market_decks"]["improv"]),
            "action": tuple(main["market_decks"]["action"]),
        },
        market_unlockable={
            "improv": tuple(main["market_decks"]["unlockable"]["improv"]),
            "action": tuple(main["market_decks"]["unlockable"]["action"]),
        },
        market_cards=frozenset(
            design
            for kind in ("improv", "action")
            for key in (main["market_decks"], main["market_decks"]["unlockable"])
            for design in key[kind]
        ),
        fan_deck=int(main["fan_deck"]["count"]),
        creature_piles=int(main["creature_piles"]["piles"]),
        normals_per_pile=int(main["creature_piles"]["normals_per_pile"]),
        boss_at_least=int(main["creature_piles"]["boss_at_least"]),
        normal_at_most=int(main["creature_piles"]["normal_at_most"]),
        exhausted_creature_pay=_payment(exhausted["creatures"]["pay"]),
        exhausted_gain=gains_of(exhausted["market"]["gain"]),
        act1_per_player=int(pools["act1_per_player"]),
        act2_per_player=int(pools["act2_per_player"]),
        short_act1_per_player=int(pools["short_act1_per_player"]),
        short_act2_per_player=int(pools["short_act2_per_player"]),
        end_bonus=int(pools["end_bonus"]),
        bank_badges_per_player=int(main["bank"]["badges_per_player"]),
        location_index={loc.id: loc for loc in locations},
        space_index={space.id: space for space in spaces},
        adjacent={
            here.id: tuple(
                s.id for s in spaces if abs(s.row - here.row) + abs(s.col - here.col) == 1
            )
            for here in spaces
        },
    )
