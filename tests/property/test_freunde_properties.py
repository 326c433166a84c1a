"""Freunde's random games through the kit's conformance check (engines.core.testing),
plus Freunde's own invariants: every piece of the box is somewhere, exactly once.

Each seat count plays ``budget(GAMES)`` seeded games with a uniform player and as many
with one that claims whatever it completes (so games also end by the Emperor); every
``DEEP_EVERY``-th game gets the deep checks (every listed command accepted, unlisted
and mutated ones refused, views, redaction, secrets reshuffled, re-execution).
``BW_PROPERTY_SCALE`` multiplies the budget: ``BW_PROPERTY_SCALE=20 make test`` plays
twenty times as many.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from google.protobuf.message import Message

from engines.core.contract import TableConfig
from engines.core.messages import from_json, to_json
from engines.core.play import Table
from engines.core.testing import budget, conformance
from engines.freunde.actions import action_limit
from engines.freunde.content import OBJECTIVES, TILES
from engines.freunde.engine import ENGINE
from engines.freunde.garden import colour_at, tiles_present
from engines.freunde.objectives import HAND_LIMIT
from engines.freunde.state import COLOURS, KINDS, FreundeState, Supply
from proto import freunde_pb2 as pb

GAMES = 6
DEEP_EVERY = 6
# Short games end on the round limit; the default one lets the Emperor end most games.
OPTIONS: tuple[dict[str, int], ...] = ({"round_limit": 6}, {}, {"round_limit": 20})
_FULL = Supply()


def uniformly(legal: list[Message], rnd: random.Random, state: FreundeState) -> Message:
    """A player that picks any legal command, each as likely."""
    return rnd.choice(legal)


def claims_first(legal: list[Message], rnd: random.Random, state: FreundeState) -> Message:
    """A player that claims the first objective it completes, else picks at random."""
    for command in legal:
        if command.WhichOneof("kind") == "claim_objective":
            return command
    return rnd.choice(legal)


def reshuffle(state: FreundeState, viewer: int, rnd: random.Random) -> FreundeState:
    """The same table as ``viewer`` knows it: every other seat's hand swapped for other
    cards of the same kinds from the decks, the plots another seat drew swapped with the
    stack, and every deck's order shuffled."""
    decks = [list(deck) for deck in state.decks]
    players = list(state.players)
    for seat, player in enumerate(players):
        if seat == viewer:
            continue
        hand = []
        for card in player.hand:
            deck = decks[KINDS.index(OBJECTIVES[card].kind)]
            deck.append(card)
            hand.append(deck.pop(rnd.randrange(len(deck))))
        players[seat] = replace(player, hand=tuple(hand))
    stack = list(state.plot_stack)
    drawn = list(state.turn.drawn_plots)
    if state.turn.seat != viewer and drawn:
        pool = stack + drawn
        rnd.shuffle(pool)
        drawn, stack = pool[: len(drawn)], pool[len(drawn) :]
    for deck in decks:
        rnd.shuffle(deck)
    rnd.shuffle(stack)
    return replace(
        state,
        players=tuple(players),
        decks=tuple(tuple(deck) for deck in decks),
        plot_stack=tuple(stack),
        turn=replace(state.turn, drawn_plots=tuple(drawn)),
    )


def every_piece_once(state: FreundeState) -> None:
    """The box's contents are all somewhere, once: plots, objectives, bamboo, channels
    and chips; stalks stand 1 to 4 on plots; hands hold at most 5; the figures stand on
    tiles; no turn takes more actions than it allows."""
    if not state.seats:
        return
    garden, players = state.garden, state.players
    tiles = [*state.plot_stack, *state.turn.drawn_plots, *garden.plots.values()]
    assert sorted(tiles) == sorted(TILES), "every plot tile once"
    cards = [c for deck in state.decks for c in deck]
    cards += [c for p in players for c in (*p.hand, *p.claimed)]
    assert sorted(cards) == sorted(OBJECTIVES), "every objective card once"
    for index, colour in enumerate(COLOURS):
        standing = sum(n for h, n in state.bamboo.items() if colour_at(state, h) == colour)
        held = sum(p.bamboo[index] for p in players)
        assert state.supply.bamboo[index] + standing + held == _FULL.bamboo[index], colour
        assert state.supply.bamboo[index] >= 0 and all(p.bamboo[index] >= 0 for p in players)
    assert all(1 <= n <= 4 for n in state.bamboo.values())
    assert set(state.bamboo) <= set(garden.plots)
    assert garden.irrigated <= {(h, TILES[t].colour) for h, t in garden.plots.items()}
    assert garden.tiles == {(0, 0), *garden.plots}
    channels = state.supply.irrigation + sum(p.irrigation for p in players) + len(garden.channels)
    assert channels == _FULL.irrigation, "every channel once"
    placed = Counter(garden.chips.values())
    for index, kind in enumerate(("watershed", "fertilizer", "enclosure")):
        held = sum(p.improvements[index] for p in players)
        assert state.supply.improvements[index] + held + placed[kind] == _FULL.improvements[index]
    assert all(len(p.hand) <= HAND_LIMIT for p in players)
    present = tiles_present(state)
    assert state.gardener in present and state.panda in present
    assert len(state.actions) <= action_limit(state)


_PLAYERS = {
    # seeds, options and picker of each kind of player
    "uniform": (0, OPTIONS, uniformly),
    "eager": (1000, ({},), claims_first),
}


@pytest.mark.parametrize("player", sorted(_PLAYERS))
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_conform(seats: int, player: str) -> None:
    """Random games, uniform or of players who claim at once (and so reach the Emperor),
    pass the kit's conformance check and Freunde's invariants."""
    games = budget(GAMES)
    first, options, pick = _PLAYERS[player]
    report = conformance(
        ENGINE,
        seats,
        seeds=range(first, first + games),
        options=options,
        deep_every=DEEP_EVERY,
        reshuffle=reshuffle,
        invariants=every_piece_once,
        pick=pick,
    )
    assert report.games == games and report.deep_games >= 1
    seen = {"game_ended", "turn_started", "plot_placed", "bamboo_grown", "objective_claimed"}
    assert seen <= set(report.event_kinds)
    if player == "eager":
        assert report.event_kinds["emperor_awarded"] >= 1


def test_legal_commands_survive_the_json_form_clients_send() -> None:
    """Every command listed in a whole game reads back unchanged from its JSON form (a hex
    at the pond stays named)."""
    chooser = random.Random(5)
    table = Table.create(ENGINE, TableConfig("json", 3, {"round_limit": 8}), b"json")
    seen = Counter[str]()
    while not ENGINE.outcome(table.state).finished:
        seat = ENGINE.outcome(table.state).to_act[0]
        legal = ENGINE.legal_commands(table.state, seat)
        for command in legal:
            assert from_json(pb.Command, to_json(command)) == command
            seen[command.WhichOneof("kind") or ""] += 1
        table.execute(seat, chooser.choice(legal))
    assert seen["move_gardener"] and seen["place_plot"]
