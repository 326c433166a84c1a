"""Turns › weather: the die's six faces and their (optional) effects.

Sun and wind take effect at once (a third action; identical actions). Rain, storm,
clouds and the question mark wait in the weather phase for the player's choice, and
any of them may be declined with SkipWeather.
"""

from __future__ import annotations

from engines.core.dice import Die
from engines.core.errors import RuleViolation
from engines.core.hexgrid import Hex
from engines.core.rng import Rng
from engines.freunde import wire
from engines.freunde.garden import grow, is_plot
from engines.freunde.irrigation import grown_events
from engines.freunde.movers import growth_sections, panda_eats
from engines.freunde.state import IMPROVEMENTS, WEATHERS, FreundeState
from proto import freunde_pb2 as pb

__all__ = [
    "WEATHER_DIE",
    "choosable_weathers",
    "choose_weather",
    "grow_with_rain",
    "improvements_in_bank",
    "move_panda_by_storm",
    "rain_spots",
    "roll_weather",
    "skip_weather",
    "storm_spots",
    "take_improvement",
    "waits_for_choice",
]

WEATHER_DIE: Die[str] = Die(WEATHERS)

_WAITING = frozenset({"rain", "storm", "clouds", "question"})


def waits_for_choice(weather: str) -> bool:
    """Whether a weather needs the player's choice before the actions."""
    return weather in _WAITING


def roll_weather(seat: int, rng: Rng) -> pb.Event:
    """Turns › step 1: roll the weather die."""
    face = WEATHER_DIE.roll(rng)
    return pb.Event(weather_rolled=pb.WeatherRolled(seat=seat, weather=wire.weather_code(face)))


def improvements_in_bank(state: FreundeState) -> list[str]:
    return [kind for kind, n in zip(IMPROVEMENTS, state.improvement_bank, strict=True) if n > 0]


def choosable_weathers(state: FreundeState) -> tuple[str, ...]:
    """Question mark: any of the 5 others; clouds with an empty bank: any of the other 4."""
    if state.weather == "question":
        return ("sun", "rain", "wind", "storm", "clouds")
    if state.weather == "clouds" and not improvements_in_bank(state):
        return ("sun", "rain", "wind", "storm")
    return ()


def choose_weather(state: FreundeState, seat: int, weather: str) -> list[pb.Event]:
    """Weather › question mark or clouds with no chip left: pick the weather."""
    allowed = choosable_weathers(state)
    if not allowed:
        raise RuleViolation("weather.no_choice", "This weather does not let you choose another.")
    if weather not in allowed:
        raise RuleViolation("weather.not_allowed", f"Choose one of: {', '.join(allowed)}.")
    return [
        pb.Event(weather_chosen=pb.WeatherChosen(seat=seat, weather=wire.weather_code(weather)))
    ]


def skip_weather(seat: int) -> list[pb.Event]:
    """Every weather effect is optional."""
    return [pb.Event(weather_skipped=pb.WeatherSkipped(seat=seat))]


def rain_spots(state: FreundeState) -> list[Hex]:
    """Rain: irrigated plots where a section can still grow."""
    if state.weather != "rain":
        return []
    return sorted(h for h in state.irrigated if grow(state, [(h, 1)]))


def grow_with_rain(state: FreundeState, seat: int, at: Hex) -> list[pb.Event]:
    """Weather › rain: grow bamboo on one irrigated plot (2 on a fertilizer)."""
    if state.weather != "rain":
        raise RuleViolation("weather.not_rain", "Only rain grows bamboo on a plot of your choice.")
    if at not in state.irrigated:
        raise RuleViolation("rain.not_irrigated", "Rain grows bamboo on an irrigated plot only.")
    events = grown_events(state, [(at, growth_sections(state, at))])
    if not events:
        raise RuleViolation(
            "rain.cannot_grow", "That bamboo is already 4 tall or its colour has run out."
        )
    fell = pb.Event(rain_fell=pb.RainFell(seat=seat, at=wire.hex_msg(at)))
    return [fell, *events]


def storm_spots(state: FreundeState) -> list[Hex]:
    """Storm: any plot other than the panda's own."""
    if state.weather != "storm":
        return []
    return sorted(h for h, _ in state.plots if h != state.panda)


def move_panda_by_storm(state: FreundeState, seat: int, at: Hex) -> list[pb.Event]:
    """Weather › storm: the panda goes to any plot and eats as normal."""
    if state.weather != "storm":
        raise RuleViolation("weather.not_storm", "Only a storm moves the panda anywhere.")
    if not is_plot(state, at) or at == state.panda:
        raise RuleViolation("storm.not_a_plot", "The storm moves the panda to another plot.")
    moved = pb.Event(panda_moved=pb.PandaMoved(seat=seat, to=wire.hex_msg(at), by_storm=True))
    return [moved, *panda_eats(state, seat, at)]


def take_improvement(state: FreundeState, seat: int, improvement: str) -> list[pb.Event]:
    """Weather › clouds: take a chip from the bank of 3 watersheds, fertilizers, enclosures."""
    if state.weather != "clouds":
        raise RuleViolation("weather.not_clouds", "Only clouds give an improvement chip.")
    if improvement not in improvements_in_bank(state):
        raise RuleViolation(
            "improvement.bank_empty", "There is no chip of that improvement left in the bank."
        )
    taken = pb.ImprovementTaken(seat=seat, improvement=wire.improvement_code(improvement))
    return [pb.Event(improvement_taken=taken)]
