"""Bardwood Grove assembled from the kit's parts: ``ENGINE`` is what
``engines.get("bardwood")`` returns."""

from __future__ import annotations

from engines.bardwood.acts import event_offers, use_event_offer
from engines.bardwood.badges import spend_badges, spendings
from engines.bardwood.bank import bank_uses, use_bank
from engines.bardwood.bardstones import loudstone_exchanges, make_loudstone
from engines.bardwood.boast import boast, boasts
from engines.bardwood.bots import GreedyBot
from engines.bardwood.challenge import challenge, challenges
from engines.bardwood.composition import discard_card, discards, play_card, plays
from engines.bardwood.creatures import assist, assists, soothe, soothes
from engines.bardwood.downtime import (
    cheer_fan,
    cheers,
    creature_places,
    place_creature,
    return_to_supply,
    returns,
)
from engines.bardwood.evolve import RECORDERS
from engines.bardwood.legends import legend_marks, legend_tellings, mark_legend, tell_legend
from engines.bardwood.market import buy, buys
from engines.bardwood.motifs import badge_placements, choose_motif, motif_choices, place_badge
from engines.bardwood.movement import (
    bard_moves,
    boat_moves,
    move_bard,
    move_boat,
    place_bard,
    starting_spaces,
)
from engines.bardwood.perform import perform, performances
from engines.bardwood.picture import picture
from engines.bardwood.setup import character_choices, choose_character, set_up
from engines.bardwood.singing import card_uses, pay_volume, use_card, volume_payments
from engines.bardwood.state import BardwoodState
from engines.bardwood.turns import FLOW, advance, finish, finishes
from engines.bardwood.view import REDACTION, board, players, private, standing
from engines.bardwood.words import WORDS
from engines.core.bots import RandomBot
from engines.core.contract import GameInfo, OptionSpec
from engines.core.game import Game, Move
from proto import bardwood_pb2 as pb

__all__ = ["ENGINE", "INFO", "MOVES"]

INFO = GameInfo(
    "bardwood",
    "Bardwood Grove",
    2,
    4,
    (
        OptionSpec(
            "short_game", "bool", False, "Short game: 4 and 6 VP crystals per player per Act."
        ),
        OptionSpec(
            "loudstones",
            "bool",
            False,
            "Unlockable Loudstones: Volume past 6 becomes Loudstones, which pay Volume costs.",
        ),
        OptionSpec(
            "unlocked",
            "bool",
            False,
            "Unlockable content: 6 Motifs, two more Events, and three more Improv and Action "
            "designs (the market then uses 6 designs of each type drawn at random).",
        ),
        OptionSpec(
            "all_market_cards",
            "bool",
            False,
            "With unlockable content: every unlocked design in each market deck (decks of 9 "
            "instead of 6).",
        ),
    ),
)

MOVES: dict[str, Move[BardwoodState]] = {
    "choose_character": Move(choose_character, character_choices, exact=True),
    "place_bard": Move(place_bard, starting_spaces, exact=True),
    "play_card": Move(play_card, plays, exact=True),
    "discard_card": Move(discard_card, discards, exact=True),
    "move_bard": Move(move_bard, bard_moves, exact=True),
    "move_boat": Move(move_boat, boat_moves, exact=True),
    "pay_volume": Move(pay_volume, volume_payments, exact=True),
    "use_card": Move(use_card, card_uses, exact=True),
    "perform": Move(perform, performances, exact=True),
    "tell_legend": Move(tell_legend, legend_tellings, draws=True, exact=True),
    "mark_legend": Move(mark_legend, legend_marks, exact=True),
    "soothe": Move(soothe, soothes, exact=True),
    "assist": Move(assist, assists, exact=True),
    "challenge": Move(challenge, challenges, exact=True),
    "boast": Move(boast, boasts, exact=True),
    "use_bank": Move(use_bank, bank_uses, exact=True),
    "buy": Move(buy, buys, draws=True, exact=True),
    "choose_motif": Move(choose_motif, motif_choices, exact=True),
    "place_badge": Move(place_badge, badge_placements, exact=True),
    "spend_badges": Move(spend_badges, spendings, exact=True),
    "use_event_offer": Move(use_event_offer, event_offers, exact=True),
    "make_loudstone": Move(make_loudstone, loudstone_exchanges, exact=True),
    "cheer_fan": Move(cheer_fan, cheers, exact=True),
    "place_creature": Move(place_creature, creature_places, exact=True),
    "return_to_supply": Move(return_to_supply, returns, exact=True),
    "finish": Move(finish, finishes, exact=True),
}

ENGINE: Game[BardwoodState, pb.Command, pb.Event] = Game(
    info=INFO,
    command_type=pb.Command,
    event_type=pb.Event,
    initial_state=BardwoodState,
    setup=set_up,
    recorders=RECORDERS,
    flow=FLOW,
    moves=MOVES,
    redaction=REDACTION,
    board=board,
    players=players,
    private=private,
    standing=standing,
    advance=advance,
    bots={"random": RandomBot, "greedy": GreedyBot},
    wording=WORDS,
    picture=picture,
)
