"""Setup: the main board (every random part of it in ``GameSetUp``) and the Characters.

The rulebook's order: player boards, starting decks, market decks, Legends, the top of
the main board (Fans, boats, market boat, Motifs), VP crystals, Events, Creatures, and
the first player at random. Everything on the main board is face up, so ``GameSetUp``
holds no secret. Each player then takes a Character in turn order (``ChooseCharacter``);
their opening hands are drawn once all have chosen (see ``turns``).
"""

from __future__ import annotations

from engines.bardwood import codes
from engines.bardwood.content import content
from engines.bardwood.state import BardwoodState
from engines.core.contract import TableConfig
from engines.core.rng import Rng
from proto import bardwood_pb2 as pb

__all__ = ["character_choices", "choose_character", "chooser", "market_designs", "set_up"]


def set_up(config: TableConfig, rng: Rng) -> list[pb.Event]:
    """Main board set-up for ``config.seats`` players (options: ``short_game``,
    ``loudstones``, ``unlocked``, ``all_market_cards``)."""
    c = content()
    seats = config.seats
    unlocked = bool(config.options.get("unlocked", False))
    short = bool(config.options.get("short_game", False))
    first = rng.below(seats)
    designs = market_designs(unlocked, bool(config.options.get("all_market_cards", False)), rng)
    market = [
        pb.MarketDeck(location=loc.id, cards=rng.shuffle(designs[loc.market]))
        for loc in c.locations
        if loc.kind == "market"
    ]
    legends = []
    for tier in c.tiers:
        pool = sorted(c.legends_of(tier.tier))
        legends.append(
            pb.LegendTier(
                tier=tier.tier,
                face_up=rng.choice(pool),
                face_down=min(tier.face_down, len(pool) - 1),
            )
        )
    fans = rng.shuffle(c.fans)[: c.fan_deck]
    motifs = [m.id for m in c.motifs if unlocked or not m.unlock][: c.motif_spots]
    spots = rng.shuffle([*motifs, *[""] * (c.motif_spots - len(motifs))])
    events = rng.shuffle([e.id for e in c.events if unlocked or not e.unlock])
    bosses = rng.shuffle([x for x in c.creatures if c.card(x).boss])
    normals = rng.shuffle([x for x in c.creatures if not c.card(x).boss])
    per = c.normals_per_pile
    piles = [
        pb.CreaturePile(location=loc, cards=[bosses[i], *normals[i * per : (i + 1) * per]])
        for i, loc in enumerate(x.id for x in c.locations if x.kind == "creatures")
    ]
    act1 = c.short_act1_per_player if short else c.act1_per_player
    act2 = c.short_act2_per_player if short else c.act2_per_player
    return [
        pb.Event(
            game_set_up=pb.GameSetUp(
                seats=seats,
                first_player=first,
                short_game=short,
                loudstones=bool(config.options.get("loudstones", False)),
                unlocked=unlocked,
                act1_pool=act1 * seats,
                act2_pool=act2 * seats,
                market=market,
                market_boat=0,
                legends=legends,
                fans=fans,
                motifs=spots,
                act1_event=events[0],
                act2_event=events[1],
                creatures=piles,
            )
        )
    ]


def market_designs(unlocked: bool, every: bool, rng: Rng) -> dict[str, tuple[str, ...]]:
    """Market Deck Setup: the designs of each type's two identical decks. The first game
    uses its 6 designs a type; "when you have more cards unlocked, randomly determine what
    6 cards to use for each type ... Alternatively, you can choose to add them all in"
    (``every``). Nothing is drawn unless there is a choice to make."""
    c = content()
    chosen = {}
    for kind, first_game in c.market_designs.items():
        pool = first_game + (c.market_unlockable[kind] if unlocked else ())
        if every or len(pool) <= len(first_game):
            chosen[kind] = pool
        else:
            chosen[kind] = tuple(sorted(rng.shuffle(pool)[: len(first_game)]))
    return chosen


def chooser(state: BardwoodState) -> int:
    """Who takes a Character next: turn order from the first player."""
    for step in range(state.seats):
        seat = (state.first_player + step) % state.seats
        if not state.players[seat].character:
            return seat
    return state.first_player


def choose_character(state: BardwoodState, cmd: pb.ChooseCharacter, seat: int) -> list[pb.Event]:
    """Starting Deck Setup: take a unique starting deck and its Character."""
    try:
        character = content().character(cmd.character)
    except KeyError:
        raise codes.CHARACTER_UNKNOWN(character=cmd.character[:40]) from None
    if any(p.character == cmd.character for p in state.players):
        raise codes.CHARACTER_TAKEN(character=character.name)
    return [pb.Event(character_chosen=pb.CharacterChosen(seat=seat, character=cmd.character))]


def character_choices(state: BardwoodState, seat: int) -> list[pb.ChooseCharacter]:
    """The Characters nobody has taken."""
    taken = {p.character for p in state.players}
    return [pb.ChooseCharacter(character=c.id) for c in content().characters if c.id not in taken]
