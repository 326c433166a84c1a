"""``evolve``: one recorder per event, each writing its fact into the state.

Recorders never draw and never check a rule. Where an event stands for a rulebook step
with a fixed outcome (a Character's starting set-up, a Song's end), the recorder writes
that outcome; everything a player or chance decides is in the event itself.
"""

from __future__ import annotations

from bisect import insort

from engines.bardwood.content import content
from engines.bardwood.state import (
    BardwoodState,
    Choice,
    Pile,
    Player,
    SongCard,
    Turn,
    changed,
    put,
    with_player,
)
from engines.core.recorders import Recorders, unchanged
from proto import bardwood_pb2 as pb

__all__ = ["RECORDERS"]

# Remembering: the rules record their events as they build them (``batch.Batch``), and
# the kit folds the move's events again on the same state.
RECORDERS: Recorders[BardwoodState] = Recorders(pb.Event, remembers=True)


def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    """``cards`` less one copy of ``card``."""
    index = cards.index(card)
    return cards[:index] + cards[index + 1 :]


def _sorted_with(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    out = list(cards)
    insort(out, card)
    return tuple(out)


def _song_card(card: str) -> SongCard:
    c = content().card(card)
    return SongCard(card, False, (0,) * len(c.top), (0,) * len(c.paid))


def _turn(state: BardwoodState, **changes: object) -> BardwoodState:
    return changed(state, turn=changed(state.turn, **changes))


def _pile(state: BardwoodState, location: str, pile: Pile) -> BardwoodState:
    piles = tuple(pile if p.location == location else p for p in state.piles)
    return changed(state, piles=piles)


@RECORDERS.on("game_set_up")
def game_set_up(state: BardwoodState, e: pb.GameSetUp) -> BardwoodState:
    c = content()
    return BardwoodState(
        seats=e.seats,
        first_player=e.first_player,
        short_game=e.short_game,
        loudstones=e.loudstones,
        unlocked=e.unlocked,
        phase="choose_character",
        players=tuple(Player() for _ in range(e.seats)),
        turn=Turn(seat=e.first_player),
        market=tuple((deck.location, tuple(deck.cards)) for deck in e.market),
        market_boat=e.market_boat,
        fans=tuple(e.fans),
        legends_up=tuple((tier.face_up,) for tier in e.legends),
        legends_down=tuple(tier.face_down for tier in e.legends),
        perform=(-1,) * len(c.perform_spots),
        piles=tuple(Pile(pile.location, tuple(pile.cards)) for pile in e.creatures),
        motifs=tuple((motif, False) for motif in e.motifs),
        act_events=(e.act1_event, e.act2_event),
        act1_pool=e.act1_pool,
        act2_pool=e.act2_pool,
    )


@RECORDERS.on("character_chosen")
def character_chosen(state: BardwoodState, e: pb.CharacterChosen) -> BardwoodState:
    """Player Board and Starting Deck Setup for the Character taken."""
    c = content()
    character = c.character(e.character)
    rest = [
        card for card in character.deck if card not in (character.instrument, character.super_fan)
    ]
    player = Player(
        character=e.character,
        area=c.tempo_start,
        volume=c.volume_start,
        runes=(c.runes_per_bonus,) * len(c.tempo_areas),
        badges=c.badges,
        unseen=tuple(sorted(rest)),
        discard=(character.super_fan,),
        song=(_song_card(character.instrument),),
        creatures=((),) * c.creature_spots,
    )
    return changed(state, players=put(state.players, e.seat, player))


@RECORDERS.on("card_drawn")
def card_drawn(state: BardwoodState, e: pb.CardDrawn) -> BardwoodState:
    player = state.players[e.seat]
    return with_player(
        state,
        e.seat,
        unseen=_without(player.unseen, e.card),
        hand=_sorted_with(player.hand, e.card),
    )


@RECORDERS.on("known_card_drawn")
def known_card_drawn(state: BardwoodState, e: pb.KnownCardDrawn) -> BardwoodState:
    player = state.players[e.seat]
    return with_player(
        state, e.seat, known=player.known[1:], hand=_sorted_with(player.hand, e.card)
    )


@RECORDERS.on("deck_reshuffled")
def deck_reshuffled(state: BardwoodState, e: pb.DeckReshuffled) -> BardwoodState:
    player = state.players[e.seat]
    return with_player(state, e.seat, unseen=tuple(sorted(player.discard)), discard=())


@RECORDERS.on("improv_placed")
def improv_placed(state: BardwoodState, e: pb.ImprovPlaced) -> BardwoodState:
    player = state.players[e.seat]
    return with_player(
        state,
        e.seat,
        hand=_without(player.hand, e.card),
        song=(*player.song, _song_card(e.card)),
    )


@RECORDERS.on("turn_began")
def turn_began(state: BardwoodState, e: pb.TurnBegan) -> BardwoodState:
    player = state.players[e.seat]
    state = with_player(state, e.seat, turns=player.turns + 1)
    finals = tuple(s for s in state.final_seats if s != e.seat) if e.final else state.final_seats
    turn = Turn(seat=e.seat, first=e.first, final=e.final, swan_song=e.final)
    return changed(state, phase="compose", turn=turn, final_seats=finals)


@RECORDERS.on("bard_placed")
def bard_placed(state: BardwoodState, e: pb.BardPlaced) -> BardwoodState:
    return with_player(state, e.seat, space=e.space)


@RECORDERS.on("card_played")
def card_played(state: BardwoodState, e: pb.CardPlayed) -> BardwoodState:
    player = state.players[e.seat]
    state = with_player(
        state,
        e.seat,
        hand=_without(player.hand, e.card),
        song=(*player.song, _song_card(e.card)),
    )
    return _turn(state, played=True)


@RECORDERS.on("card_discarded")
def card_discarded(state: BardwoodState, e: pb.CardDiscarded) -> BardwoodState:
    player = state.players[e.seat]
    state = with_player(
        state, e.seat, hand=_without(player.hand, e.card), discard=(*player.discard, e.card)
    )
    return _turn(state, discarded=True)


@RECORDERS.on("resources_changed")
def resources_changed(state: BardwoodState, e: pb.ResourcesChanged) -> BardwoodState:
    player = state.players[e.seat]
    state = with_player(
        state,
        e.seat,
        volume=player.volume + e.volume,
        coins=player.coins + e.coins,
        songstones=player.songstones + e.songstones,
        rangestones=player.rangestones + e.rangestones,
        loudstones=player.loudstones + e.loudstones,
    )
    if e.melody or e.lyric or e.movement:
        turn = state.turn
        state = _turn(
            state,
            melody=turn.melody + e.melody,
            lyric=turn.lyric + e.lyric,
            movement=turn.movement + e.movement,
        )
    return state


@RECORDERS.on("crystals_taken")
def crystals_taken(state: BardwoodState, e: pb.CrystalsTaken) -> BardwoodState:
    player = state.players[e.seat]
    state = with_player(state, e.seat, crystals=player.crystals + e.act1 + e.act2 + e.reserve)
    return changed(state, act1_pool=state.act1_pool - e.act1, act2_pool=state.act2_pool - e.act2)


@RECORDERS.on("tempo_turned")
def tempo_turned(state: BardwoodState, e: pb.TempoTurned) -> BardwoodState:
    return with_player(state, e.seat, area=e.area)


@RECORDERS.on("song_triggered")
def song_triggered(state: BardwoodState, e: pb.SongTriggered) -> BardwoodState:
    return with_player(state, e.seat, song_triggered=True)


@RECORDERS.on("singing_began")
def singing_began(state: BardwoodState, e: pb.SingingBegan) -> BardwoodState:
    return changed(state, phase="sing")


@RECORDERS.on("bard_moved")
def bard_moved(state: BardwoodState, e: pb.BardMoved) -> BardwoodState:
    state = with_player(state, e.seat, space=e.space)
    return _turn(state, movement=state.turn.movement - 1)


@RECORDERS.on("boat_moved")
def boat_moved(state: BardwoodState, e: pb.BoatMoved) -> BardwoodState:
    state = with_player(state, e.seat, boat=e.position)
    return _turn(state, movement=state.turn.movement - 1)


@RECORDERS.on("volume_paid")
def volume_paid(state: BardwoodState, e: pb.VolumePaid) -> BardwoodState:
    player = state.players[e.seat]
    song = put(player.song, e.slot, changed(player.song[e.slot], paid=True))
    return with_player(
        state,
        e.seat,
        song=song,
        volume=player.volume - e.volume,
        loudstones=player.loudstones - int(e.loudstone),
    )


@RECORDERS.on("card_used")
def card_used(state: BardwoodState, e: pb.CardUsed) -> BardwoodState:
    player = state.players[e.seat]
    held = player.song[e.slot]
    if e.part == "top":
        held = changed(held, top_uses=put(held.top_uses, e.effect, held.top_uses[e.effect] + 1))
    else:
        held = changed(held, paid_uses=put(held.paid_uses, e.effect, held.paid_uses[e.effect] + 1))
    return with_player(state, e.seat, song=put(player.song, e.slot, held))


@RECORDERS.on("location_used")
def location_used(state: BardwoodState, e: pb.LocationUsed) -> BardwoodState:
    return _turn(state, used=tuple(sorted((*state.turn.used, e.location))))


@RECORDERS.on("rune_placed")
def rune_placed(state: BardwoodState, e: pb.RunePlaced) -> BardwoodState:
    player = state.players[e.seat]
    state = with_player(state, e.seat, runes=put(player.runes, e.area, player.runes[e.area] - 1))
    where, _, what = e.to.partition(":")
    if where == "perform":
        return changed(state, perform=put(state.perform, int(what), e.seat))
    return changed(state, legend_runes=tuple(sorted((*state.legend_runes, (what, e.seat)))))


@RECORDERS.on("fan_taken")
def fan_taken(state: BardwoodState, e: pb.FanTaken) -> BardwoodState:
    player = state.players[e.seat]
    state = with_player(state, e.seat, known=(e.fan, *player.known))
    return changed(state, fans=state.fans[1:])


@RECORDERS.on("legend_told")
def legend_told(state: BardwoodState, e: pb.LegendTold) -> BardwoodState:
    return with_player(state, e.seat, boat=0) if e.boat_used else state


@RECORDERS.on("legend_revealed")
def legend_revealed(state: BardwoodState, e: pb.LegendRevealed) -> BardwoodState:
    index = e.tier - 1
    return changed(
        state,
        legends_up=put(state.legends_up, index, (*state.legends_up[index], e.legend)),
        legends_down=put(state.legends_down, index, state.legends_down[index] - 1),
    )


@RECORDERS.on("creature_soothed")
def creature_soothed(state: BardwoodState, e: pb.CreatureSoothed) -> BardwoodState:
    pile = state.pile(e.location)
    assert pile is not None
    state = _pile(state, e.location, Pile(e.location, pile.cards[:-1]))
    player = state.players[e.seat]
    spots = put(player.creatures, e.spot, (*player.creatures[e.spot], e.creature))
    return with_player(state, e.seat, creatures=spots)


@RECORDERS.on("badge_placed")
def badge_placed(state: BardwoodState, e: pb.BadgePlaced) -> BardwoodState:
    state = with_player(state, e.seat, badges=state.players[e.seat].badges - 1)
    if e.to == "bank":
        return changed(state, bank=(*state.bank, e.seat))
    pile = state.pile(e.to)
    assert pile is not None
    return _pile(state, e.to, changed(pile, badges=(*pile.badges, e.seat)))


@RECORDERS.on("badges_taken")
def badges_taken(state: BardwoodState, e: pb.BadgesTaken) -> BardwoodState:
    if e.source == "bank":
        state = changed(state, bank=())
    elif e.source.startswith("track:"):
        target = int(e.source.partition(":")[2])
        state = with_player(state, target, badges=state.players[target].badges - len(e.owners))
    else:
        pile = state.pile(e.source)
        assert pile is not None
        state = _pile(state, e.source, changed(pile, badges=()))
    others = sum(1 for owner in e.owners if owner != e.seat)
    return with_player(state, e.seat, held=state.players[e.seat].held + others)


@RECORDERS.on("badge_returned")
def badge_returned(state: BardwoodState, e: pb.BadgeReturned) -> BardwoodState:
    pile = state.pile(e.source)
    assert pile is not None
    return _pile(state, e.source, changed(pile, badges=_without_seat(pile.badges, e.seat)))


def _without_seat(owners: tuple[int, ...], seat: int) -> tuple[int, ...]:
    index = owners.index(seat)
    return owners[:index] + owners[index + 1 :]


@RECORDERS.on("badges_spent")
def badges_spent(state: BardwoodState, e: pb.BadgesSpent) -> BardwoodState:
    return with_player(state, e.seat, held=state.players[e.seat].held - e.badges)


@RECORDERS.on("challenged")
def challenged(state: BardwoodState, e: pb.Challenged) -> BardwoodState:
    return _turn(state, challenged=(*state.turn.challenged, e.target))


@RECORDERS.on("card_bought")
def card_bought(state: BardwoodState, e: pb.CardBought) -> BardwoodState:
    market = tuple(
        (where, _without(cards, e.card) if where == e.location else cards)
        for where, cards in state.market
    )
    player = state.players[e.seat]
    state = with_player(state, e.seat, known=(e.card, *player.known))
    return changed(state, market=market)


@RECORDERS.on("market_boat_moved")
def market_boat_moved(state: BardwoodState, e: pb.MarketBoatMoved) -> BardwoodState:
    return changed(state, market_boat=e.position)


@RECORDERS.on("market_deck_shuffled")
def market_deck_shuffled(state: BardwoodState, e: pb.MarketDeckShuffled) -> BardwoodState:
    market = tuple(
        (where, tuple(e.cards) if where == e.location else cards) for where, cards in state.market
    )
    return changed(state, market=market)


@RECORDERS.on("boasted")
def boasted(state: BardwoodState, e: pb.Boasted) -> BardwoodState:
    player = state.players[e.seat]
    spots = tuple(spot[:-1] if spot else spot for spot in player.creatures)
    return with_player(state, e.seat, creatures=spots, discard=(*player.discard, *e.cards))


@RECORDERS.on("motifs_turned")
def motifs_turned(state: BardwoodState, e: pb.MotifsTurned) -> BardwoodState:
    motifs = tuple(
        (motif, e.vp_side if slot in e.slots else side)
        for slot, (motif, side) in enumerate(state.motifs)
    )
    return changed(state, motifs=motifs)


RECORDERS.on("motif_chosen")(unchanged)


@RECORDERS.on("event_offer_used")
def event_offer_used(state: BardwoodState, e: pb.EventOfferUsed) -> BardwoodState:
    return _turn(state, offer_used=True)


@RECORDERS.on("choice_opened")
def choice_opened(state: BardwoodState, e: pb.ChoiceOpened) -> BardwoodState:
    choice = Choice(e.kind, e.seat, e.tier, e.count, e.card)
    return changed(state, choices=(*state.choices, choice))


@RECORDERS.on("choice_closed")
def choice_closed(state: BardwoodState, e: pb.ChoiceClosed) -> BardwoodState:
    return changed(state, choices=state.choices[:-1])


@RECORDERS.on("fan_cheered")
def fan_cheered(state: BardwoodState, e: pb.FanCheered) -> BardwoodState:
    player = state.players[e.seat]
    return with_player(
        state, e.seat, hand=_without(player.hand, e.card), discard=(*player.discard, e.card)
    )


@RECORDERS.on("creature_placed")
def creature_placed(state: BardwoodState, e: pb.CreaturePlaced) -> BardwoodState:
    player = state.players[e.seat]
    spots = put(player.creatures, e.spot, (*player.creatures[e.spot], e.card))
    return with_player(state, e.seat, hand=_without(player.hand, e.card), creatures=spots)


@RECORDERS.on("song_ended")
def song_ended(state: BardwoodState, e: pb.SongEnded) -> BardwoodState:
    """The Song but the Instrument to the discard pile; the tracker back; Melody and
    Lyric gone."""
    player = state.players[e.seat]
    kept = tuple(
        _song_card(held.card)
        for held in player.song
        if content().card(held.card).kind == "instrument"
    )
    state = with_player(
        state,
        e.seat,
        song=kept,
        discard=(*player.discard, *e.cards),
        song_triggered=False,
    )
    return _turn(state, melody=0, lyric=0)


@RECORDERS.on("downtime_began")
def downtime_began(state: BardwoodState, e: pb.DowntimeBegan) -> BardwoodState:
    return _turn(changed(state, phase="downtime"), movement=0)


@RECORDERS.on("turn_ended")
def turn_ended(state: BardwoodState, e: pb.TurnEnded) -> BardwoodState:
    return _turn(changed(state, phase="between"), melody=0, lyric=0, movement=0)


@RECORDERS.on("act_end_triggered")
def act_end_triggered(state: BardwoodState, e: pb.ActEndTriggered) -> BardwoodState:
    return changed(state, act_ending=True)


@RECORDERS.on("act_ended")
def act_ended(state: BardwoodState, e: pb.ActEnded) -> BardwoodState:
    return changed(state, act=e.act + 1, act_ending=False)


@RECORDERS.on("game_end_triggered")
def game_end_triggered(state: BardwoodState, e: pb.GameEndTriggered) -> BardwoodState:
    state = changed(state, end_triggered=True, final_seats=tuple(e.final_seats))
    return _turn(state, swan_song=True) if e.swan_song else state


@RECORDERS.on("game_finished")
def game_finished(state: BardwoodState, e: pb.GameFinished) -> BardwoodState:
    return changed(
        state,
        phase="finished",
        finished=True,
        scores=tuple(score.total_halves for score in e.scores),
        winners=tuple(e.winners),
    )
