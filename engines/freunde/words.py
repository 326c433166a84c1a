"""Freunde's moves and events in words, for menus, logs and chat.

A move is named with what a player sees at the table ("Move the gardener to the yellow
plot at (1, -1)"); its menu is the action or weather it belongs to. An event is worded
as the viewer may see it: it comes redacted, so a hidden card (0) is never named.
Hexes are written ``(q, r)``, the pond being ``(0, 0)``.
"""

from __future__ import annotations

from engines.core.game import MoveWords
from engines.core.hexgrid import Hex
from engines.freunde import wire
from engines.freunde.content import OBJECTIVES, TILES
from engines.freunde.garden import colour_at
from engines.freunde.plots import DRAW_COUNT
from engines.freunde.state import POND, FreundeState
from proto import freunde_pb2 as pb

__all__ = ["WORDS"]

_WEATHER = {
    "sun": "the sun",
    "rain": "rain",
    "wind": "wind",
    "storm": "a storm",
    "clouds": "clouds",
    "question": "the question mark",
}


def _at(h: Hex) -> str:
    return f"({h[0]}, {h[1]})"


def _place(state: FreundeState, h: Hex) -> str:
    """Where a figure goes: the pond, or a plot of some colour."""
    if h == POND:
        return "the pond"
    return f"the {colour_at(state, h)} plot at {_at(h)}"


def _tile(tile: int) -> str:
    printed = TILES[tile]
    extra = "" if printed.improvement == "none" else f" {printed.improvement}"
    return f"{printed.colour}{extra} plot"


def _card(card: int) -> str:
    obj = OBJECTIVES[card]
    return f"{obj.name} ({obj.points} points)"


def _cards(cards: list[int]) -> str:
    """The cards named, when the viewer may see them."""
    shown = [OBJECTIVES[c].name for c in cards if c]
    return f": {', '.join(shown)}" if shown else ""


class FreundeWords:
    """The wording the kit asks for (engines.core.game.Wording)."""

    def command(self, state: FreundeState, command: pb.Command, seat: int) -> MoveWords:
        kind = command.WhichOneof("kind")
        if kind == "end_turn":
            return MoveWords("Your turn", "End your turn")
        if kind in ("skip_weather", "choose_weather", "grow_with_rain", "move_panda_by_storm"):
            return MoveWords("Weather", self._weather(state, command))
        if kind == "take_improvement":
            chip = wire.improvement_name(command.take_improvement.improvement)
            return MoveWords("Weather", f"Take a {chip} chip from the bank")
        if kind == "draw_plots":
            drawn = min(DRAW_COUNT, len(state.plot_stack))
            return MoveWords("Plots", f"Draw {drawn} plot{'s' if drawn > 1 else ''}")
        if kind == "place_plot":
            placed = command.place_plot
            where = _at(wire.hex_of(placed.at))
            return MoveWords("Place a plot", f"Place the {_tile(placed.tile)} at {where}")
        if kind == "take_irrigation":
            return MoveWords("Irrigation", "Take an irrigation channel")
        if kind == "place_irrigation":
            a, b = wire.hex_of(command.place_irrigation.a), wire.hex_of(command.place_irrigation.b)
            return MoveWords("Lay a channel", f"Lay a channel between {_at(a)} and {_at(b)}")
        if kind == "move_gardener":
            to = _place(state, wire.hex_of(command.move_gardener.to))
            return MoveWords("Gardener", f"Move the gardener to {to}")
        if kind == "move_panda":
            to = _place(state, wire.hex_of(command.move_panda.to))
            return MoveWords("Panda", f"Move the panda to {to}")
        if kind == "draw_objective":
            deck = wire.kind_name(command.draw_objective.kind)
            return MoveWords("Objectives", f"Draw a {deck} objective")
        if kind == "place_improvement":
            chip = wire.improvement_name(command.place_improvement.improvement)
            where = _place(state, wire.hex_of(command.place_improvement.at))
            return MoveWords("Improvements", f"Put a {chip} chip on {where}")
        card = command.claim_objective.card
        return MoveWords("Complete an objective", f"Complete {_card(card)}")

    @staticmethod
    def _weather(state: FreundeState, command: pb.Command) -> str:
        kind = command.WhichOneof("kind")
        if kind == "skip_weather":
            return f"Let {_WEATHER.get(state.weather, 'the weather')} pass"
        if kind == "choose_weather":
            return f"Choose {_WEATHER[wire.weather_name(command.choose_weather.weather)]}"
        if kind == "grow_with_rain":
            at = wire.hex_of(command.grow_with_rain.at)
            return f"Let the rain grow bamboo on {_place(state, at)}"
        at = wire.hex_of(command.move_panda_by_storm.at)
        return f"Let the storm carry the panda to {_place(state, at)}"

    def event(self, event: pb.Event, viewer: int | None) -> str:
        kind = event.WhichOneof("kind")
        body = getattr(event, kind) if kind else None
        if isinstance(body, pb.GameStarted):
            return f"{body.seats} players; seat {body.first_player} begins"
        if isinstance(body, pb.ObjectivesDealt):
            dealt = list(body.cards)
            return f"Seat {body.seat} is dealt {len(dealt)} objectives{_cards(dealt)}"
        if isinstance(body, pb.TurnStarted):
            return f"Round {body.round}: seat {body.seat} plays"
        if isinstance(body, pb.TurnEnded):
            return f"Seat {body.seat} ends the turn"
        if isinstance(body, pb.WeatherRolled | pb.WeatherChosen):
            verb = "rolls" if isinstance(body, pb.WeatherRolled) else "chooses"
            return f"Seat {body.seat} {verb} {_WEATHER[wire.weather_name(body.weather)]}"
        if isinstance(body, pb.WeatherSkipped):
            return f"Seat {body.seat} lets the weather pass"
        if isinstance(body, pb.RainFell):
            return f"Seat {body.seat} lets the rain fall on {_at(wire.hex_of(body.at))}"
        if isinstance(body, pb.ImprovementTaken):
            return f"Seat {body.seat} takes a {wire.improvement_name(body.improvement)} chip"
        if isinstance(body, pb.PlotsDrawn):
            shown = [_tile(t) for t in body.tiles if t]
            which = f": {', '.join(shown)}" if shown else ""
            return f"Seat {body.seat} draws {len(body.tiles)} plots{which}"
        if isinstance(body, pb.PlotPlaced):
            return f"Seat {body.seat} places a {_tile(body.tile)} at {_at(wire.hex_of(body.at))}"
        if isinstance(body, pb.PlotIrrigated):
            return f"The plot at {_at(wire.hex_of(body.at))} is irrigated"
        if isinstance(body, pb.BambooGrown):
            colour = wire.colour_name(body.colour)
            return f"{body.sections} {colour} bamboo grows at {_at(wire.hex_of(body.at))}"
        if isinstance(body, pb.IrrigationTaken):
            return f"Seat {body.seat} takes an irrigation channel"
        if isinstance(body, pb.IrrigationPlaced):
            a, b = wire.hex_of(body.a), wire.hex_of(body.b)
            return f"Seat {body.seat} lays a channel between {_at(a)} and {_at(b)}"
        if isinstance(body, pb.GardenerMoved):
            return f"Seat {body.seat} moves the gardener to {_at(wire.hex_of(body.to))}"
        if isinstance(body, pb.PandaMoved):
            how = "the storm carries the panda" if body.by_storm else "moves the panda"
            return f"Seat {body.seat}: {how} to {_at(wire.hex_of(body.to))}"
        if isinstance(body, pb.BambooEaten):
            colour, at = wire.colour_name(body.colour), _at(wire.hex_of(body.at))
            return f"The panda eats a {colour} bamboo at {at} for seat {body.seat}"
        if isinstance(body, pb.ImprovementPlaced):
            chip = wire.improvement_name(body.improvement)
            return f"Seat {body.seat} puts a {chip} chip at {_at(wire.hex_of(body.at))}"
        if isinstance(body, pb.ObjectiveDrawn | pb.ObjectiveReturned):
            deck = wire.kind_name(body.kind)
            if isinstance(body, pb.ObjectiveDrawn):
                return f"Seat {body.seat} draws a {deck} objective{_cards([body.card])}"
            return f"The garden already shows it: seat {body.seat} puts it under the {deck} deck"
        if isinstance(body, pb.ObjectiveClaimed):
            return f"Seat {body.seat} completes {_card(body.card)}"
        if isinstance(body, pb.EmperorAwarded):
            return (
                f"Seat {body.seat} receives the Emperor (+{body.points}); the others play once more"
            )
        if isinstance(body, pb.GameEnded):
            winners = " and ".join(f"seat {seat}" for seat in body.winners)
            why = "the Emperor's round is over" if body.reason == "emperor" else "the round limit"
            return f"Game over ({why}): {winners} won with {max(body.scores, default=0)} points"
        return "Nothing happens"


WORDS = FreundeWords()
