"""Turns › step 1, the weather: the die's six faces and their (optional) effects.

Sun and wind take effect at once (a third action; identical actions). Rain, storm,
clouds and the question mark wait for the player's choice before the actions, and
any of them may be declined with SkipWeather ("all are optional").
"""

from __future__ import annotations

import functools

from engines.core.dice import Die
from engines.core.hexgrid import Hex
from engines.core.rng import Rng
from engines.freunde import codes, wire
from engines.freunde.garden import can_grow, is_irrigated
from engines.freunde.gardener_and_panda import growth_sections, panda_eats, panda_moved
from engines.freunde.irrigation import grown_events
from engines.freunde.state import IMPROVEMENTS, POND, WEATHERS, FreundeState
from proto import freunde_pb2 as pb

__all__ = [
    "WEATHER_DIE",
    "choosable_weathers",
    "choose_weather",
    "grow_with_rain",
    "improvement_takings",
    "improvements_in_bank",
    "move_panda_by_storm",
    "rain_growths",
    "rain_spots",
    "roll_weather",
    "skip_weather",
    "storm_moves",
    "storm_spots",
    "take_improvement",
    "weather_choices",
    "weather_pending",
    "weather_skips",
]

WEATHER_DIE: Die[str] = Die(WEATHERS)

# The weathers whose effect waits for the player's choice (the flow's weather stage).
_WAITING = frozenset({"rain", "storm", "clouds", "question"})


def weather_pending(state: FreundeState) -> bool:
    """Whether this turn's weather still waits for the player's choice."""
    return not state.weather_used and state.weather in _WAITING


def roll_weather(seat: int, rng: Rng) -> pb.Event:
    """Turns › step 1: roll the weather die."""
    return wire.event(_WEATHER_ROLLED[seat, WEATHER_DIE.roll(rng)])


# By seat and face.
_WEATHER_ROLLED: wire.EventBytes[tuple[int, str]] = wire.EventBytes(
    lambda rolled: pb.Event(
        weather_rolled=pb.WeatherRolled(seat=rolled[0], weather=wire.weather_code(rolled[1]))
    )
)


def improvements_in_bank(state: FreundeState) -> list[str]:
    return [kind for kind, n in zip(IMPROVEMENTS, state.supply.improvements, strict=True) if n > 0]


def choosable_weathers(state: FreundeState) -> tuple[str, ...]:
    """Question mark: any of the 5 others; clouds with an empty bank: any of the other 4."""
    if state.weather == "question":
        return ("sun", "rain", "wind", "storm", "clouds")
    if state.weather == "clouds" and not improvements_in_bank(state):
        return ("sun", "rain", "wind", "storm")
    return ()


def choose_weather(state: FreundeState, cmd: pb.ChooseWeather, seat: int) -> list[pb.Event]:
    """Weather › question mark or clouds with no chip left: pick the weather."""
    allowed = choosable_weathers(state)
    if not allowed:
        raise codes.WEATHER_NO_CHOICE()
    weather = wire.weather_name(cmd.weather)
    if weather not in allowed:
        raise codes.WEATHER_NOT_ALLOWED(allowed=", ".join(allowed))
    return [_weather_chosen(seat, weather)]


@wire.built_once
def _weather_chosen(seat: int, weather: str) -> pb.Event:
    return pb.Event(weather_chosen=pb.WeatherChosen(seat=seat, weather=wire.weather_code(weather)))


_CHOICES = {w: pb.ChooseWeather(weather=wire.weather_code(w)) for w in WEATHERS}


def weather_choices(state: FreundeState, seat: int) -> list[pb.ChooseWeather]:
    """Shared bodies: the kit copies each into the command it lists."""
    return [_CHOICES[w] for w in choosable_weathers(state)]


def skip_weather(state: FreundeState, cmd: pb.SkipWeather, seat: int) -> list[pb.Event]:
    """Every weather effect is optional."""
    return [_weather_skipped(seat)]


@wire.built_once
def _weather_skipped(seat: int) -> pb.Event:
    return pb.Event(weather_skipped=pb.WeatherSkipped(seat=seat))


_SKIP = pb.SkipWeather()


def weather_skips(state: FreundeState, seat: int) -> list[pb.SkipWeather]:
    return [_SKIP]


def rain_spots(state: FreundeState) -> list[Hex]:
    """Rain: irrigated plots where a section can still grow."""
    if state.weather != "rain":
        return []
    return sorted([h for h, colour in state.garden.irrigated if can_grow(state, h, colour)])


def grow_with_rain(state: FreundeState, cmd: pb.GrowWithRain, seat: int) -> list[pb.Event]:
    """Weather › rain: grow bamboo on one irrigated plot (2 on a fertilizer)."""
    at = wire.required_hex(cmd, "at")
    if state.weather != "rain":
        raise codes.WEATHER_NOT_RAIN()
    if not is_irrigated(state, at):
        raise codes.RAIN_NOT_IRRIGATED()
    events = grown_events(state, [(at, growth_sections(state, at))])
    if not events:
        raise codes.RAIN_CANNOT_GROW()
    return [_rain_fell(seat, at), *events]


@wire.built_once
def _rain_fell(seat: int, at: Hex) -> pb.Event:
    return pb.Event(rain_fell=pb.RainFell(seat=seat, at=wire.hex_msg(at)))


_RAIN_BODIES: wire.Bodies[Hex, pb.GrowWithRain] = wire.Bodies(
    lambda at: pb.GrowWithRain(at=wire.hex_msg(at))
)


def rain_growths(state: FreundeState, seat: int) -> list[pb.GrowWithRain]:
    """Shared bodies: the kit copies each into the command it lists."""
    return [_RAIN_BODIES[at] for at in rain_spots(state)]


@functools.lru_cache(maxsize=1024)
def _plots_in_order(tiles: frozenset[Hex]) -> tuple[Hex, ...]:
    return tuple(sorted(tiles - {POND}))


def storm_spots(state: FreundeState) -> list[Hex]:
    """Storm: any plot other than the panda's own."""
    if state.weather != "storm":
        return []
    panda = state.panda
    return [h for h in _plots_in_order(state.garden.tiles) if h != panda]


def move_panda_by_storm(state: FreundeState, cmd: pb.MovePandaByStorm, seat: int) -> list[pb.Event]:
    """Weather › storm: the panda goes to any plot and eats as normal."""
    at = wire.required_hex(cmd, "at")
    if state.weather != "storm":
        raise codes.WEATHER_NOT_STORM()
    if at not in state.garden.plots or at == state.panda:
        raise codes.STORM_NOT_A_PLOT()
    return [panda_moved(seat, at, by_storm=True), *panda_eats(state, seat, at)]


_STORM_BODIES: wire.Bodies[Hex, pb.MovePandaByStorm] = wire.Bodies(
    lambda at: pb.MovePandaByStorm(at=wire.hex_msg(at))
)


@functools.lru_cache(maxsize=4096)
def _storm_bodies(tiles: frozenset[Hex], panda: Hex) -> tuple[pb.MovePandaByStorm, ...]:
    return tuple([_STORM_BODIES[at] for at in _plots_in_order(tiles) if at != panda])


def storm_moves(state: FreundeState, seat: int) -> tuple[pb.MovePandaByStorm, ...]:
    """Every plot the storm may take the panda to (shared bodies: the kit copies each)."""
    if state.weather != "storm":
        return ()
    return _storm_bodies(state.garden.tiles, state.panda)


def take_improvement(state: FreundeState, cmd: pb.TakeImprovement, seat: int) -> list[pb.Event]:
    """Weather › clouds: take a chip from the bank of 3 watersheds, fertilizers, enclosures."""
    if state.weather != "clouds":
        raise codes.WEATHER_NOT_CLOUDS()
    improvement = wire.improvement_name(cmd.improvement)
    if improvement not in improvements_in_bank(state):
        raise codes.IMPROVEMENT_BANK_EMPTY()
    taken = pb.ImprovementTaken(seat=seat, improvement=wire.improvement_code(improvement))
    return [pb.Event(improvement_taken=taken)]


_TAKINGS = {
    kind: pb.TakeImprovement(improvement=wire.improvement_code(kind)) for kind in IMPROVEMENTS
}


def improvement_takings(state: FreundeState, seat: int) -> list[pb.TakeImprovement]:
    """Shared bodies: the kit copies each into the command it lists."""
    if state.weather != "clouds":
        return []
    return [_TAKINGS[kind] for kind in improvements_in_bank(state)]
