"""``evolve``: one small recorder per event, writing the event's facts into the state.

A recorder never checks a rule and never decides what happens next: the rule that
produced the event (in the module named after its rulebook section) did that. Which
stage the table is in follows from the recorded facts (see flow.py).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, TypeVar

from engines.core.deck import bury
from engines.core.hexgrid import Hex
from engines.core.recorders import Recorders, changed, unchanged
from engines.freunde import wire
from engines.freunde.actions import open_actions
from engines.freunde.content import TILES
from engines.freunde.irrigation import open_sides_after_channel, open_sides_after_plot
from engines.freunde.objectives import gardener_cards_shown
from engines.freunde.plots import open_spots_after
from engines.freunde.state import TALL_STALK, FreundeState, Garden, Player, Triple, Turn
from proto import freunde_pb2 as pb

__all__ = ["RECORDERS"]

RECORDERS: Recorders[FreundeState] = Recorders(pb.Event)

V = TypeVar("V")


def _add(triple: Triple, index: int, amount: int) -> Triple:
    out = list(triple)
    out[index] += amount
    return (out[0], out[1], out[2])


def _put(values: Mapping[Hex, V], h: Hex, value: V) -> dict[Hex, V]:
    """A copy of ``values`` with ``h`` set to ``value`` (removed when the value is 0)."""
    out = dict(values)
    if value:
        out[h] = value
    else:
        out.pop(h, None)
    return out


def _tall(tall: Mapping[Hex, int], h: Hex, height: int) -> Mapping[Hex, int]:
    """The tall stalks once the one at ``h`` is ``height`` sections: the same map while it
    is short before and after."""
    if height >= TALL_STALK or h in tall:
        return _put(tall, h, height if height >= TALL_STALK else 0)
    return tall


def _stalk(state: FreundeState, h: Hex, height: int) -> tuple[Mapping[Hex, int], Garden]:
    """The bamboo with the stalk at ``h`` now ``height`` sections, and the garden with its
    tall stalks and, when those change, the gardener cards they complete (the same set
    while it stays the same, so readers can tell it unchanged by identity); the same
    garden while the tall stalks stay the same."""
    garden = state.garden
    bamboo, tall = _put(state.bamboo, h, height), _tall(garden.tall, h, height)
    if tall is garden.tall:
        return bamboo, garden
    shown = gardener_cards_shown(tall, garden.plots, garden.chips)
    if shown == garden.gardener_shown:
        shown = garden.gardener_shown
    return bamboo, changed(garden, tall=tall, gardener_shown=shown)


def _player(state: FreundeState, seat: int, **changes: Any) -> tuple[Player, ...]:
    """The players, with ``seat``'s changed."""
    players = list(state.players)
    players[seat] = changed(players[seat], **changes)
    return tuple(players)


def _acting(state: FreundeState, action: str) -> tuple[tuple[str, ...], frozenset[str]]:
    """The actions taken this turn with one more ``action``, and the actions then open."""
    actions = (*state.actions, action)
    return actions, open_actions(actions, state.weather)


def _weather(state: FreundeState, weather: str) -> FreundeState:
    """The state with the turn under ``weather``, its effect not taken yet."""
    opened = open_actions(state.actions, weather)
    return changed(state, weather=weather, weather_used=False, open_actions=opened)


def _without(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    # A list made first: a generator costs a step per card.
    return tuple([c for c in cards if c != card])


# -- Set-up ----------------------------------------------------------------------------------


@RECORDERS.on("game_started")
def game_started(state: FreundeState, e: pb.GameStarted) -> FreundeState:
    return FreundeState(
        seats=e.seats,
        round_limit=e.round_limit,
        first_player=e.first_player,
        turn=Turn(seat=e.first_player, round=1),
        players=(Player(),) * e.seats,
        plot_stack=tuple(e.plot_stack),
        decks=(tuple(e.plot_objectives), tuple(e.gardener_objectives), tuple(e.panda_objectives)),
    )


@RECORDERS.on("objectives_dealt")
def objectives_dealt(state: FreundeState, e: pb.ObjectivesDealt) -> FreundeState:
    """The dealt cards leave their decks for the seat's hand."""
    decks = list(state.decks)
    for card, kind in zip(e.cards, e.kinds, strict=True):
        decks[kind - 1] = _without(decks[kind - 1], card)
    hand = (*state.players[e.seat].hand, *e.cards)
    return changed(state, decks=tuple(decks), players=_player(state, e.seat, hand=hand))


# -- Turns and weather -----------------------------------------------------------------------


# The actions open at the start of a turn.
_ALL_OPEN = open_actions((), "")

# A fresh turn, copied with its seat and round: a frozen dataclass's ``__init__`` sets
# each field through ``object.__setattr__``, a copy is one dict merge.
_FRESH_TURN = Turn()


@functools.lru_cache(maxsize=4096)
def _fresh_turn(seat: int, round_number: int) -> Turn:
    """The turn of ``seat`` in round ``round_number`` before anything happens in it, made
    once per seat and round and shared (a record is never changed): one look-up for every
    turn started."""
    return changed(_FRESH_TURN, seat=seat, round=round_number)


@RECORDERS.on("turn_started")
def turn_started(state: FreundeState, e: pb.TurnStarted) -> FreundeState:
    return changed(
        state,
        turn=_fresh_turn(e.seat, e.round),
        actions=(),
        open_actions=_ALL_OPEN,
        weather="",
        weather_used=False,
    )


RECORDERS.on("turn_ended")(unchanged)


@RECORDERS.on("weather_rolled")
def weather_rolled(state: FreundeState, e: pb.WeatherRolled) -> FreundeState:
    return _weather(state, wire.WEATHER_NAMES.get(e.weather, ""))


@RECORDERS.on("weather_chosen")
def weather_chosen(state: FreundeState, e: pb.WeatherChosen) -> FreundeState:
    return _weather(state, wire.WEATHER_NAMES.get(e.weather, ""))


@RECORDERS.on("weather_skipped")
def weather_skipped(state: FreundeState, e: pb.WeatherSkipped) -> FreundeState:
    return changed(state, weather_used=True)


@RECORDERS.on("rain_fell")
def rain_fell(state: FreundeState, e: pb.RainFell) -> FreundeState:
    """The rain's plot grows in the BambooGrown events that follow."""
    return changed(state, weather_used=True)


@RECORDERS.on("improvement_taken")
def improvement_taken(state: FreundeState, e: pb.ImprovementTaken) -> FreundeState:
    index = e.improvement - 1
    held = _add(state.players[e.seat].improvements, index, 1)
    bank = _add(state.supply.improvements, index, -1)
    return changed(
        state,
        supply=changed(state.supply, improvements=bank),
        weather_used=True,
        players=_player(state, e.seat, improvements=held),
    )


# -- Plots -----------------------------------------------------------------------------------


@RECORDERS.on("plots_drawn")
def plots_drawn(state: FreundeState, e: pb.PlotsDrawn) -> FreundeState:
    drawn = tuple(e.tiles)
    stack = tuple([t for t in state.plot_stack if t not in drawn])
    actions, opened = _acting(state, "plot")
    return changed(
        state,
        plot_stack=stack,
        turn=changed(state.turn, drawn_plots=drawn),
        actions=actions,
        open_actions=opened,
    )


@RECORDERS.on("plot_placed")
def plot_placed(state: FreundeState, e: pb.PlotPlaced) -> FreundeState:
    """The other drawn plots went under the stack, in the order drawn."""
    rest = _without(state.turn.drawn_plots, e.tile)
    h = wire.hex_of(e.at)
    garden = state.garden
    plots, tiles = {**garden.plots, h: e.tile}, garden.tiles | {h}
    spots = open_spots_after(garden.spots, plots, h)
    sides = open_sides_after_plot(garden.open_sides, tiles, garden.channels, h)
    return changed(
        state,
        garden=changed(garden, plots=plots, tiles=tiles, spots=spots, open_sides=sides),
        plot_stack=bury(state.plot_stack, rest),
        turn=changed(state.turn, drawn_plots=()),
    )


@RECORDERS.on("plot_irrigated")
def plot_irrigated(state: FreundeState, e: pb.PlotIrrigated) -> FreundeState:
    h = wire.hex_of(e.at)
    colour = TILES[state.garden.plots[h]].colour
    irrigated = state.garden.irrigated | {(h, colour)}
    return changed(state, garden=changed(state.garden, irrigated=irrigated))


@RECORDERS.on("bamboo_grown")
def bamboo_grown(state: FreundeState, e: pb.BambooGrown) -> FreundeState:
    h = wire.hex_of(e.at)
    sections = e.sections
    bamboo, garden = _stalk(state, h, state.bamboo.get(h, 0) + sections)
    supply = _add(state.supply.bamboo, e.colour - 1, -sections)
    return changed(state, bamboo=bamboo, garden=garden, supply=changed(state.supply, bamboo=supply))


# -- Irrigation ------------------------------------------------------------------------------


@RECORDERS.on("irrigation_taken")
def irrigation_taken(state: FreundeState, e: pb.IrrigationTaken) -> FreundeState:
    held = state.players[e.seat].irrigation + 1
    actions, opened = _acting(state, "irrigation")
    return changed(
        state,
        supply=changed(state.supply, irrigation=state.supply.irrigation - 1),
        actions=actions,
        open_actions=opened,
        players=_player(state, e.seat, irrigation=held),
    )


@RECORDERS.on("irrigation_placed")
def irrigation_placed(state: FreundeState, e: pb.IrrigationPlaced) -> FreundeState:
    a, b = wire.hex_of(e.a), wire.hex_of(e.b)
    side = (a, b) if a <= b else (b, a)
    held = state.players[e.seat].irrigation - 1
    garden = state.garden
    channels = garden.channels | {side}
    sides = open_sides_after_channel(garden.open_sides, garden.tiles, channels, side)
    return changed(
        state,
        garden=changed(garden, channels=channels, open_sides=sides),
        players=_player(state, e.seat, irrigation=held),
    )


# -- The Gardener and the Panda --------------------------------------------------------------


@RECORDERS.on("gardener_moved")
def gardener_moved(state: FreundeState, e: pb.GardenerMoved) -> FreundeState:
    actions, opened = _acting(state, "gardener")
    return changed(state, gardener=wire.hex_of(e.to), actions=actions, open_actions=opened)


@RECORDERS.on("panda_moved")
def panda_moved(state: FreundeState, e: pb.PandaMoved) -> FreundeState:
    """By the storm (the weather's effect) or as the Panda action."""
    if e.by_storm:
        return changed(state, panda=wire.hex_of(e.to), weather_used=True)
    actions, opened = _acting(state, "panda")
    return changed(state, panda=wire.hex_of(e.to), actions=actions, open_actions=opened)


@RECORDERS.on("bamboo_eaten")
def bamboo_eaten(state: FreundeState, e: pb.BambooEaten) -> FreundeState:
    h = wire.hex_of(e.at)
    bamboo, garden = _stalk(state, h, state.bamboo.get(h, 0) - 1)
    eaten = _add(state.players[e.seat].bamboo, e.colour - 1, 1)
    return changed(
        state, bamboo=bamboo, garden=garden, players=_player(state, e.seat, bamboo=eaten)
    )


# -- Improvements ----------------------------------------------------------------------------


@RECORDERS.on("improvement_placed")
def improvement_placed(state: FreundeState, e: pb.ImprovementPlaced) -> FreundeState:
    chips = {**state.garden.chips, wire.hex_of(e.at): wire.improvement_name(e.improvement)}
    held = _add(state.players[e.seat].improvements, e.improvement - 1, -1)
    return changed(
        state,
        garden=changed(state.garden, chips=chips),
        players=_player(state, e.seat, improvements=held),
    )


# -- Objectives ------------------------------------------------------------------------------


@RECORDERS.on("objective_drawn")
def objective_drawn(state: FreundeState, e: pb.ObjectiveDrawn) -> FreundeState:
    decks = list(state.decks)
    decks[e.kind - 1] = _without(decks[e.kind - 1], e.card)
    hand = (*state.players[e.seat].hand, e.card)
    actions, opened = _acting(state, "objective")
    return changed(
        state,
        decks=tuple(decks),
        actions=actions,
        open_actions=opened,
        players=_player(state, e.seat, hand=hand),
    )


@RECORDERS.on("objective_returned")
def objective_returned(state: FreundeState, e: pb.ObjectiveReturned) -> FreundeState:
    """The card went under its deck and the objective action it was drawn by is not used."""
    index = e.kind - 1
    decks = list(state.decks)
    decks[index] = bury(decks[index], (e.card,))
    actions = list(state.actions)
    del actions[len(actions) - 1 - actions[::-1].index("objective")]
    returned = _add(state.turn.returned, index, 1)
    hand = _without(state.players[e.seat].hand, e.card)
    opened = open_actions(tuple(actions), state.weather)
    return changed(
        state,
        decks=tuple(decks),
        turn=changed(state.turn, returned=returned),
        actions=tuple(actions),
        open_actions=opened,
        players=_player(state, e.seat, hand=hand),
    )


@RECORDERS.on("objective_claimed")
def objective_claimed(state: FreundeState, e: pb.ObjectiveClaimed) -> FreundeState:
    """A panda objective's bamboo goes from the reserve back to the supply."""
    given = (e.green_returned, e.yellow_returned, e.pink_returned)
    player = state.players[e.seat]
    back, have = state.supply.bamboo, player.bamboo
    return changed(
        state,
        supply=changed(
            state.supply, bamboo=(back[0] + given[0], back[1] + given[1], back[2] + given[2])
        ),
        players=_player(
            state,
            e.seat,
            hand=_without(player.hand, e.card),
            claimed=(*player.claimed, e.card),
            points=_add(player.points, e.kind - 1, e.points),
            bamboo=(have[0] - given[0], have[1] - given[1], have[2] - given[2]),
        ),
    )


# -- Game end --------------------------------------------------------------------------------


@RECORDERS.on("emperor_awarded")
def emperor_awarded(state: FreundeState, e: pb.EmperorAwarded) -> FreundeState:
    return changed(state, emperor=e.seat)


@RECORDERS.on("game_ended")
def game_ended(state: FreundeState, e: pb.GameEnded) -> FreundeState:
    return changed(
        state,
        final_scores=tuple(e.scores),
        winners=tuple(e.winners),
        end_reason=e.reason,
    )
