"""Freunde positions built from events, and commands, in the game's own words.

A scenario is ``given(ENGINE, *events).when(seat, command).then(events)`` (engines.core
.testing). The positions below are lists of the events a real game records — set-up,
plots drawn and placed, channels taken and placed, bamboo grown, a turn started —
chosen by the test, in this order: :func:`started`, then what lies in the garden and
the reserves, then :func:`turn` and what happened earlier in that turn (the turn's
start clears the actions taken).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engines.core.hexgrid import Edge, Hex
from engines.core.testing import When
from engines.freunde import wire
from engines.freunde.content import OBJECTIVES, TILES
from engines.freunde.irrigation import is_irrigated_by
from engines.freunde.state import KINDS
from proto import freunde_pb2 as pb

# Tile ids (data/tiles.json): colour and printed improvement.
GREEN = (1, 2, 3, 4, 5)
GREEN_WATERSHED, GREEN_FERTILIZER, GREEN_ENCLOSURE = 6, 8, 10
YELLOW = (12, 13, 14, 15, 16, 17)
YELLOW_WATERSHED, YELLOW_FERTILIZER, YELLOW_ENCLOSURE = 18, 19, 20
PINK = (21, 22, 23, 24)
PINK_WATERSHED, PINK_FERTILIZER, PINK_ENCLOSURE = 25, 26, 27

# Objective ids (data/objectives.json).
GREEN_TRIANGLE, GREEN_STRAIGHT, GREEN_CURVE, GREEN_DIAMOND = 1, 2, 3, 4
PINK_STRAIGHT = 10
YELLOW_GREEN_DIAMOND, PINK_GREEN_DIAMOND, YELLOW_PINK_DIAMOND = 13, 14, 15
GREEN_4_FERTILIZER, GREEN_4_ENCLOSURE, GREEN_4_WATERSHED, GREEN_4_PLAIN = 16, 17, 18, 19
GREEN_3_ON_4 = 20
YELLOW_3_ON_3 = 25
PINK_3_ON_2 = 30
PANDA_2_GREEN, PANDA_2_YELLOW, PANDA_2_PINK, PANDA_EACH = 31, 36, 40, 43

DECKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(c for c, o in OBJECTIVES.items() if o.kind == kind)) for kind in KINDS
)


def H(q: int, r: int) -> pb.Hex:
    return pb.Hex(q=q, r=r)


def _hex(h: Hex) -> pb.Hex:
    return pb.Hex(q=h[0], r=h[1])


# -- set-up and turns --------------------------------------------------------------------------


def started(
    seats: int = 2,
    *,
    first: int = 0,
    round_limit: int = 100,
    plot_stack: Sequence[int] | None = None,
    decks: Sequence[Sequence[int]] = DECKS,
    hands: Mapping[int, Sequence[int]] | None = None,
) -> list[pb.Event]:
    """A table just set up: plots and decks in id order unless given; seat ``s`` holds
    the ``s``-th card of each deck unless ``hands`` says otherwise."""
    game = pb.GameStarted(
        seats=seats,
        first_player=first,
        plot_stack=sorted(TILES) if plot_stack is None else plot_stack,
        plot_objectives=decks[0],
        gardener_objectives=decks[1],
        panda_objectives=decks[2],
        round_limit=round_limit,
    )
    events = [pb.Event(game_started=game)]
    for seat in range(seats):
        cards = list((hands or {}).get(seat, [deck[seat] for deck in DECKS]))
        kinds = [wire.kind_code(OBJECTIVES[c].kind) for c in cards]
        dealt = pb.ObjectivesDealt(seat=seat, cards=cards, kinds=kinds)
        events.append(pb.Event(objectives_dealt=dealt))
    return events


def turn(seat: int = 0, *, round: int = 2, weather: str = "") -> list[pb.Event]:
    """It is ``seat``'s turn of ``round``, with this weather rolled (none when "")."""
    events = [pb.Event(turn_started=pb.TurnStarted(seat=seat, round=round))]
    if weather:
        events.append(weather_rolled(seat, weather))
    return events


def turn_started(seat: int, round: int) -> pb.Event:
    return pb.Event(turn_started=pb.TurnStarted(seat=seat, round=round))


def turn_ended(seat: int) -> pb.Event:
    return pb.Event(turn_ended=pb.TurnEnded(seat=seat))


def weather_rolled(seat: int, weather: str) -> pb.Event:
    return pb.Event(weather_rolled=pb.WeatherRolled(seat=seat, weather=wire.weather_code(weather)))


def weather_chosen(seat: int, weather: str) -> pb.Event:
    return pb.Event(weather_chosen=pb.WeatherChosen(seat=seat, weather=wire.weather_code(weather)))


def weather_skipped(seat: int) -> pb.Event:
    return pb.Event(weather_skipped=pb.WeatherSkipped(seat=seat))


def rain_fell(seat: int, at: Hex) -> pb.Event:
    return pb.Event(rain_fell=pb.RainFell(seat=seat, at=_hex(at)))


# -- the garden --------------------------------------------------------------------------------


def plots_drawn(seat: int, tiles: Sequence[int]) -> pb.Event:
    return pb.Event(plots_drawn=pb.PlotsDrawn(seat=seat, tiles=tiles))


def plot_placed(seat: int, tile: int, at: Hex, returned: int = 0) -> pb.Event:
    printed = TILES[tile]
    return pb.Event(
        plot_placed=pb.PlotPlaced(
            seat=seat,
            tile=tile,
            at=_hex(at),
            colour=wire.colour_code(printed.colour),
            improvement=wire.improvement_code(printed.improvement),
            returned=returned,
        )
    )


def plot_irrigated(at: Hex) -> pb.Event:
    return pb.Event(plot_irrigated=pb.PlotIrrigated(at=_hex(at)))


def bamboo_grown(at: Hex, colour: str, sections: int = 1) -> pb.Event:
    return pb.Event(
        bamboo_grown=pb.BambooGrown(at=_hex(at), colour=wire.colour_code(colour), sections=sections)
    )


def irrigation_taken(seat: int) -> pb.Event:
    return pb.Event(irrigation_taken=pb.IrrigationTaken(seat=seat))


def irrigation_placed(seat: int, a: Hex, b: Hex) -> pb.Event:
    return pb.Event(irrigation_placed=pb.IrrigationPlaced(seat=seat, a=_hex(a), b=_hex(b)))


def improvement_taken(seat: int, improvement: str) -> pb.Event:
    code = wire.improvement_code(improvement)
    return pb.Event(improvement_taken=pb.ImprovementTaken(seat=seat, improvement=code))


def improvement_placed(seat: int, improvement: str, at: Hex) -> pb.Event:
    code = wire.improvement_code(improvement)
    return pb.Event(
        improvement_placed=pb.ImprovementPlaced(seat=seat, improvement=code, at=_hex(at))
    )


def gardener_moved(seat: int, to: Hex) -> pb.Event:
    return pb.Event(gardener_moved=pb.GardenerMoved(seat=seat, to=_hex(to)))


def panda_moved(seat: int, to: Hex, *, by_storm: bool = False) -> pb.Event:
    return pb.Event(panda_moved=pb.PandaMoved(seat=seat, to=_hex(to), by_storm=by_storm))


def bamboo_eaten(seat: int, at: Hex, colour: str) -> pb.Event:
    return pb.Event(
        bamboo_eaten=pb.BambooEaten(seat=seat, at=_hex(at), colour=wire.colour_code(colour))
    )


def garden(
    plots: Mapping[Hex, int],
    bamboo: Mapping[Hex, int] | None = None,
    channels: Iterable[Edge] = (),
    chips: Mapping[Hex, str] | None = None,
    seat: int = 0,
) -> list[pb.Event]:
    """``seat`` drew and placed these plots (hex -> tile id), took and placed these
    channels and improvement chips; the plots the pond, a channel or a watershed waters
    are irrigated, and the bamboo stands this tall (taken from the supply)."""
    chips = dict(chips or {})
    channel_set = frozenset(tuple(sorted(e)) for e in channels)
    events: list[pb.Event] = []
    for at, tile in plots.items():
        events += [plots_drawn(seat, [tile]), plot_placed(seat, tile, at)]
    for a, b in channels:
        events += [irrigation_taken(seat), irrigation_placed(seat, a, b)]
    for at, chip in chips.items():
        events += [improvement_taken(seat, chip), improvement_placed(seat, chip, at)]
    for at, tile in plots.items():
        if is_irrigated_by(at, channel_set, chips.get(at, TILES[tile].improvement)):  # type: ignore[arg-type]
            events.append(plot_irrigated(at))
    for at, height in (bamboo or {}).items():
        if height:
            events.append(bamboo_grown(at, TILES[plots[at]].colour, height))
    return events


# -- reserves and objectives -------------------------------------------------------------------


def reserve(
    seat: int, *, irrigation: int = 0, chips: tuple[int, int, int] = (0, 0, 0)
) -> list[pb.Event]:
    """``seat`` took this many channels and chips (watershed, fertilizer, enclosure)."""
    events = [irrigation_taken(seat) for _ in range(irrigation)]
    for improvement, count in zip(("watershed", "fertilizer", "enclosure"), chips, strict=True):
        events += [improvement_taken(seat, improvement) for _ in range(count)]
    return events


def fed(seat: int, at: Hex, colour: str, sections: int = 1) -> list[pb.Event]:
    """The panda ate ``sections`` grown one by one on the ``colour`` plot at ``at``, for
    ``seat``'s reserve."""
    events: list[pb.Event] = []
    for _ in range(sections):
        events += [bamboo_grown(at, colour), bamboo_eaten(seat, at, colour)]
    return events


def objective_drawn(seat: int, card: int) -> pb.Event:
    kind = wire.kind_code(OBJECTIVES[card].kind)
    return pb.Event(objective_drawn=pb.ObjectiveDrawn(seat=seat, kind=kind, card=card))


def objective_returned(seat: int, card: int) -> pb.Event:
    kind = wire.kind_code(OBJECTIVES[card].kind)
    return pb.Event(objective_returned=pb.ObjectiveReturned(seat=seat, kind=kind, card=card))


def objective_claimed(seat: int, card: int) -> pb.Event:
    """``seat`` claimed ``card`` (a panda card gives its bamboo back to the supply)."""
    obj = OBJECTIVES[card]
    names = ("green_returned", "yellow_returned", "pink_returned")
    given_back = dict(zip(names, obj.bamboo, strict=True))
    kind = wire.kind_code(obj.kind)
    claimed = pb.ObjectiveClaimed(seat=seat, card=card, kind=kind, points=obj.points, **given_back)
    return pb.Event(objective_claimed=claimed)


def emperor_awarded(seat: int) -> pb.Event:
    return pb.Event(emperor_awarded=pb.EmperorAwarded(seat=seat, points=2))


def game_ended(scores: Sequence[int], winners: Sequence[int], reason: str) -> pb.Event:
    return pb.Event(game_ended=pb.GameEnded(scores=scores, winners=winners, reason=reason))


# -- reading what happened ---------------------------------------------------------------------


def recorded(outcome: When[Any]) -> list[pb.Event]:
    """The events a scenario's command produced, as Freunde's ``Event`` messages."""
    return [e for e in outcome.events if isinstance(e, pb.Event)]


# -- reading a view ---------------------------------------------------------------------------


def plot_at(view: dict[str, Any], q: int, r: int) -> dict[str, Any]:
    """One plot of the garden as a view shows it."""
    for entry in view["board"]["garden"]:
        if (entry["q"], entry["r"]) == (q, r):
            return dict(entry)
    raise AssertionError(f"no plot at {(q, r)}")


# -- commands ------------------------------------------------------------------------------------


def end_turn() -> pb.Command:
    return pb.Command(end_turn=pb.EndTurn())


def skip_weather() -> pb.Command:
    return pb.Command(skip_weather=pb.SkipWeather())


def choose_weather(weather: str | int) -> pb.Command:
    code = wire.weather_code(weather) if isinstance(weather, str) else weather
    return pb.Command(choose_weather=pb.ChooseWeather(weather=code))  # type: ignore[arg-type]


def grow_with_rain(at: Hex) -> pb.Command:
    return pb.Command(grow_with_rain=pb.GrowWithRain(at=_hex(at)))


def move_panda_by_storm(at: Hex) -> pb.Command:
    return pb.Command(move_panda_by_storm=pb.MovePandaByStorm(at=_hex(at)))


def take_improvement(improvement: str) -> pb.Command:
    code = wire.improvement_code(improvement)
    return pb.Command(take_improvement=pb.TakeImprovement(improvement=code))


def draw_plots() -> pb.Command:
    return pb.Command(draw_plots=pb.DrawPlots())


def place_plot(tile: int, at: Hex) -> pb.Command:
    return pb.Command(place_plot=pb.PlacePlot(tile=tile, at=_hex(at)))


def take_irrigation() -> pb.Command:
    return pb.Command(take_irrigation=pb.TakeIrrigation())


def place_irrigation(a: Hex, b: Hex) -> pb.Command:
    return pb.Command(place_irrigation=pb.PlaceIrrigation(a=_hex(a), b=_hex(b)))


def move_gardener(to: Hex) -> pb.Command:
    return pb.Command(move_gardener=pb.MoveGardener(to=_hex(to)))


def move_panda(to: Hex) -> pb.Command:
    return pb.Command(move_panda=pb.MovePanda(to=_hex(to)))


def draw_objective(kind: str) -> pb.Command:
    return pb.Command(draw_objective=pb.DrawObjective(kind=wire.kind_code(kind)))


def place_improvement(improvement: str, at: Hex) -> pb.Command:
    code = wire.improvement_code(improvement)
    return pb.Command(place_improvement=pb.PlaceImprovement(improvement=code, at=_hex(at)))


def claim(card: int) -> pb.Command:
    return pb.Command(claim_objective=pb.ClaimObjective(card=card))
