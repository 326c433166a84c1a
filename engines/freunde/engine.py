"""Freunde's engine: set-up, the decide/evolve pair, legal commands, views and redaction.

``decide`` only routes: the phase table below says which commands each phase takes,
and one rule module per rule family checks and builds the events. ``evolve`` only
records. See RULES.md for the rule-by-rule map to tests.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engines.core.contract import GameInfo, OptionSpec, Outcome, TableConfig
from engines.core.deck import bury, draw, shuffled
from engines.core.errors import RuleViolation
from engines.core.hexgrid import Hex
from engines.core.rng import Rng
from engines.freunde import (
    endgame,
    improvements,
    irrigation,
    movers,
    objectives,
    plots,
    turns,
    wire,
)
from engines.freunde import weather as weathers
from engines.freunde.content import OBJECTIVES, TILES
from engines.freunde.garden import improvement_at
from engines.freunde.state import (
    COLOURS,
    IMPROVEMENTS,
    KINDS,
    FreundeState,
    Phase,
    Triple,
)
from proto import freunde_pb2 as pb

__all__ = ["ENGINE", "FreundeEngine"]

DEFAULT_ROUND_LIMIT = 100

Handler = Callable[[FreundeState, int, Any, Rng], list[pb.Event]]

_FREE = frozenset({"place_irrigation", "place_improvement", "claim_objective"})
_WEATHER_COMMANDS = frozenset(
    {"choose_weather", "skip_weather", "grow_with_rain", "move_panda_by_storm", "take_improvement"}
)
_ACTION_COMMANDS = frozenset(
    {"end_turn", "draw_plots", "take_irrigation", "move_gardener", "move_panda", "draw_objective"}
)

# Turn and phase flow as data: the commands each phase accepts, and why others wait.
PHASE_COMMANDS: dict[str, frozenset[str]] = {
    Phase.WEATHER: _WEATHER_COMMANDS | _FREE,
    Phase.ACTIONS: _ACTION_COMMANDS | _FREE,
    Phase.PLOT: frozenset({"place_plot"}) | _FREE,
}
_WAITING_FOR: dict[str, tuple[str, str]] = {
    Phase.WEATHER: ("turn.weather_pending", "Deal with this turn's weather first."),
    Phase.ACTIONS: ("turn.not_now", "That is not possible at this point of your turn."),
    Phase.PLOT: ("turn.plot_pending", "Place one of the plots you drew first."),
}


def _hex(message: Any, field: str) -> Hex:
    """A required hex field of a command; a missing one is refused, not read as the pond."""
    if not message.HasField(field):
        raise RuleViolation("command.missing_field", f"Say which hex ({field}).")
    return wire.hex_of(getattr(message, field))


def _action(name: str, handler: Handler) -> Handler:
    """An action: it must fit in the turn before its own rule is checked."""

    def run(state: FreundeState, seat: int, cmd: Any, rng: Rng) -> list[pb.Event]:
        turns.check_action(state, name)
        return handler(state, seat, cmd, rng)

    return run


def _draw_plots(state: FreundeState, seat: int, cmd: Any, rng: Rng) -> list[pb.Event]:
    if not state.plot_stack:
        raise RuleViolation("plot.stack_empty", "There are no plots left to draw.")
    if not plots.has_plot_spot(state):
        raise RuleViolation("plot.no_space", "There is no place left for a plot.")
    return plots.draw_plots(state, seat)


_HANDLERS: dict[str, Handler] = {
    "end_turn": lambda s, seat, c, rng: turns.end_turn(s, seat, rng),
    "choose_weather": lambda s, seat, c, rng: weathers.choose_weather(
        s, seat, wire.weather_name(c.weather)
    ),
    "skip_weather": lambda s, seat, c, rng: weathers.skip_weather(seat),
    "grow_with_rain": lambda s, seat, c, rng: weathers.grow_with_rain(s, seat, _hex(c, "at")),
    "move_panda_by_storm": lambda s, seat, c, rng: weathers.move_panda_by_storm(
        s, seat, _hex(c, "at")
    ),
    "take_improvement": lambda s, seat, c, rng: weathers.take_improvement(
        s, seat, wire.improvement_name(c.improvement)
    ),
    "draw_plots": _action("plot", _draw_plots),
    "place_plot": lambda s, seat, c, rng: plots.place_plot(s, seat, c.tile, _hex(c, "at")),
    "take_irrigation": _action(
        "irrigation", lambda s, seat, c, rng: irrigation.take_irrigation(s, seat)
    ),
    "place_irrigation": lambda s, seat, c, rng: irrigation.place_irrigation(
        s, seat, _hex(c, "a"), _hex(c, "b")
    ),
    "move_gardener": _action(
        "gardener", lambda s, seat, c, rng: movers.move_gardener(s, seat, _hex(c, "to"))
    ),
    "move_panda": _action(
        "panda", lambda s, seat, c, rng: movers.move_panda(s, seat, _hex(c, "to"))
    ),
    "draw_objective": _action(
        "objective",
        lambda s, seat, c, rng: objectives.draw_objective(s, seat, wire.kind_name(c.kind)),
    ),
    "place_improvement": lambda s, seat, c, rng: improvements.place_improvement(
        s, seat, wire.improvement_name(c.improvement), _hex(c, "at")
    ),
    "claim_objective": lambda s, seat, c, rng: objectives.claim_objective(s, seat, c.card),
}


# ---- evolve: one recorder per event ---------------------------------------


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _add(triple: Triple, index: int, amount: int) -> Triple:
    out = list(triple)
    out[index] += amount
    return (out[0], out[1], out[2])


def _put(pairs: tuple[tuple[Hex, Any], ...], h: Hex, value: Any) -> tuple[tuple[Hex, Any], ...]:
    """A sorted map-as-pairs with ``h`` set to ``value`` (removed when value is 0)."""
    kept = {k: v for k, v in pairs if k != h}
    if value:
        kept[h] = value
    return tuple(sorted(kept.items()))


def _bamboo_of(state: FreundeState, h: Hex) -> int:
    return dict(state.bamboo).get(h, 0)


def _game_started(s: FreundeState, e: pb.GameStarted) -> FreundeState:
    n = e.seats
    return replace(
        s,
        seats=n,
        round_limit=e.round_limit,
        first_player=e.first_player,
        phase=Phase.ACTIONS,
        turn=e.first_player,
        round=1,
        plot_stack=tuple(e.plot_stack),
        decks=(
            tuple(e.plot_objectives),
            tuple(e.gardener_objectives),
            tuple(e.panda_objectives),
        ),
        hands=((),) * n,
        claimed=((),) * n,
        eaten=((0, 0, 0),) * n,
        irrigation_reserve=(0,) * n,
        improvement_reserve=((0, 0, 0),) * n,
    )


def _objectives_dealt(s: FreundeState, e: pb.ObjectivesDealt) -> FreundeState:
    """Set-up deals in seat order from the top, so each dealt card is its deck's top."""
    decks = s.decks
    for kind in e.kinds:
        _, rest = draw(decks[kind - 1])
        decks = _set(decks, kind - 1, rest)
    hand = (*s.hands[e.seat], *e.cards)
    return replace(s, decks=decks, hands=_set(s.hands, e.seat, hand))


def _turn_started(s: FreundeState, e: pb.TurnStarted) -> FreundeState:
    return replace(
        s,
        turn=e.seat,
        round=e.round,
        phase=Phase.ACTIONS,
        weather="",
        actions=(),
        returned=(0, 0, 0),
    )


def _weather_set(s: FreundeState, code: int) -> FreundeState:
    name = wire.weather_name(code)
    phase = Phase.WEATHER if weathers.waits_for_choice(name) else Phase.ACTIONS
    return replace(s, weather=name, phase=phase)


def _improvement_taken(s: FreundeState, e: pb.ImprovementTaken) -> FreundeState:
    index = e.improvement - 1
    held = _add(s.improvement_reserve[e.seat], index, 1)
    return replace(
        s,
        improvement_bank=_add(s.improvement_bank, index, -1),
        improvement_reserve=_set(s.improvement_reserve, e.seat, held),
        phase=Phase.ACTIONS,
    )


def _plots_drawn(s: FreundeState, e: pb.PlotsDrawn) -> FreundeState:
    _, rest = draw(s.plot_stack, len(e.tiles))
    return replace(
        s,
        actions=(*s.actions, "plot"),
        drawn_plots=tuple(e.tiles),
        plot_stack=rest,
        phase=Phase.PLOT,
    )


def _plot_placed(s: FreundeState, e: pb.PlotPlaced) -> FreundeState:
    rest = tuple(t for t in s.drawn_plots if t != e.tile)
    return replace(
        s,
        plots=_put(s.plots, wire.hex_of(e.at), e.tile),
        plot_stack=bury(s.plot_stack, rest),
        drawn_plots=(),
        phase=Phase.ACTIONS,
    )


def _bamboo_grown(s: FreundeState, e: pb.BambooGrown) -> FreundeState:
    h = wire.hex_of(e.at)
    return replace(
        s,
        bamboo=_put(s.bamboo, h, _bamboo_of(s, h) + e.sections),
        bamboo_supply=_add(s.bamboo_supply, e.colour - 1, -e.sections),
    )


def _irrigation_taken(s: FreundeState, e: pb.IrrigationTaken) -> FreundeState:
    return replace(
        s,
        irrigation_supply=s.irrigation_supply - 1,
        irrigation_reserve=_set(s.irrigation_reserve, e.seat, s.irrigation_reserve[e.seat] + 1),
        actions=(*s.actions, "irrigation"),
    )


def _irrigation_placed(s: FreundeState, e: pb.IrrigationPlaced) -> FreundeState:
    a, b = wire.hex_of(e.a), wire.hex_of(e.b)
    return replace(
        s,
        channels=s.channels | {(a, b) if a <= b else (b, a)},
        irrigation_reserve=_set(s.irrigation_reserve, e.seat, s.irrigation_reserve[e.seat] - 1),
    )


def _panda_moved(s: FreundeState, e: pb.PandaMoved) -> FreundeState:
    if e.by_storm:
        return replace(s, panda=wire.hex_of(e.to), phase=Phase.ACTIONS)
    return replace(s, panda=wire.hex_of(e.to), actions=(*s.actions, "panda"))


def _bamboo_eaten(s: FreundeState, e: pb.BambooEaten) -> FreundeState:
    h = wire.hex_of(e.at)
    return replace(
        s,
        bamboo=_put(s.bamboo, h, _bamboo_of(s, h) - 1),
        eaten=_set(s.eaten, e.seat, _add(s.eaten[e.seat], e.colour - 1, 1)),
    )


def _improvement_placed(s: FreundeState, e: pb.ImprovementPlaced) -> FreundeState:
    held = _add(s.improvement_reserve[e.seat], e.improvement - 1, -1)
    return replace(
        s,
        chips=_put(s.chips, wire.hex_of(e.at), wire.improvement_name(e.improvement)),
        improvement_reserve=_set(s.improvement_reserve, e.seat, held),
    )


def _objective_drawn(s: FreundeState, e: pb.ObjectiveDrawn) -> FreundeState:
    index = e.kind - 1
    _, rest = draw(s.decks[index])
    return replace(
        s,
        decks=_set(s.decks, index, rest),
        hands=_set(s.hands, e.seat, (*s.hands[e.seat], e.card)),
        actions=(*s.actions, "objective"),
    )


def _objective_returned(s: FreundeState, e: pb.ObjectiveReturned) -> FreundeState:
    index = e.kind - 1
    actions = list(s.actions)
    actions.reverse()
    actions.remove("objective")
    actions.reverse()
    return replace(
        s,
        decks=_set(s.decks, index, bury(s.decks[index], (e.card,))),
        hands=_set(s.hands, e.seat, tuple(c for c in s.hands[e.seat] if c != e.card)),
        actions=tuple(actions),
        returned=_add(s.returned, index, 1),
    )


def _objective_claimed(s: FreundeState, e: pb.ObjectiveClaimed) -> FreundeState:
    given = (e.green_returned, e.yellow_returned, e.pink_returned)
    eaten = s.eaten[e.seat]
    return replace(
        s,
        hands=_set(s.hands, e.seat, tuple(c for c in s.hands[e.seat] if c != e.card)),
        claimed=_set(s.claimed, e.seat, (*s.claimed[e.seat], e.card)),
        eaten=_set(
            s.eaten, e.seat, (eaten[0] - given[0], eaten[1] - given[1], eaten[2] - given[2])
        ),
        bamboo_supply=(
            s.bamboo_supply[0] + given[0],
            s.bamboo_supply[1] + given[1],
            s.bamboo_supply[2] + given[2],
        ),
    )


def _game_ended(s: FreundeState, e: pb.GameEnded) -> FreundeState:
    return replace(
        s,
        phase=Phase.FINISHED,
        final_scores=tuple(e.scores),
        winners=tuple(e.winners),
        end_reason=e.reason,
    )


_RECORDERS: dict[str, Callable[[FreundeState, Any], FreundeState]] = {
    "game_started": _game_started,
    "objectives_dealt": _objectives_dealt,
    "turn_started": _turn_started,
    "turn_ended": lambda s, e: s,
    "weather_rolled": lambda s, e: _weather_set(s, e.weather),
    "weather_chosen": lambda s, e: _weather_set(s, e.weather),
    "weather_skipped": lambda s, e: replace(s, phase=Phase.ACTIONS),
    "rain_fell": lambda s, e: replace(s, phase=Phase.ACTIONS),
    "improvement_taken": _improvement_taken,
    "plots_drawn": _plots_drawn,
    "plot_placed": _plot_placed,
    "plot_irrigated": lambda s, e: replace(s, irrigated=s.irrigated | {wire.hex_of(e.at)}),
    "bamboo_grown": _bamboo_grown,
    "irrigation_taken": _irrigation_taken,
    "irrigation_placed": _irrigation_placed,
    "gardener_moved": lambda s, e: replace(
        s, gardener=wire.hex_of(e.to), actions=(*s.actions, "gardener")
    ),
    "panda_moved": _panda_moved,
    "bamboo_eaten": _bamboo_eaten,
    "improvement_placed": _improvement_placed,
    "objective_drawn": _objective_drawn,
    "objective_returned": _objective_returned,
    "objective_claimed": _objective_claimed,
    "emperor_awarded": lambda s, e: replace(s, emperor=e.seat),
    "game_ended": _game_ended,
}


# ---- legal commands --------------------------------------------------------


def _free_commands(state: FreundeState, seat: int) -> list[pb.Command]:
    out: list[pb.Command] = []
    if state.irrigation_reserve[seat] > 0:
        for a, b in irrigation.channel_spots(state):
            for x, y in ((a, b), (b, a)):
                placed = pb.PlaceIrrigation(a=wire.hex_msg(x), b=wire.hex_msg(y))
                out.append(pb.Command(place_irrigation=placed))
    chips = improvements.chips_in_reserve(state, seat)
    if chips:
        for at in improvements.improvement_spots(state):
            for kind in chips:
                chip = pb.PlaceImprovement(
                    improvement=wire.improvement_code(kind), at=wire.hex_msg(at)
                )
                out.append(pb.Command(place_improvement=chip))
    for card in objectives.claimable(state, seat):
        out.append(pb.Command(claim_objective=pb.ClaimObjective(card=card)))
    return out


def _weather_commands(state: FreundeState) -> list[pb.Command]:
    out = [pb.Command(skip_weather=pb.SkipWeather())]
    for name in weathers.choosable_weathers(state):
        chosen = pb.ChooseWeather(weather=wire.weather_code(name))
        out.append(pb.Command(choose_weather=chosen))
    for at in weathers.rain_spots(state):
        out.append(pb.Command(grow_with_rain=pb.GrowWithRain(at=wire.hex_msg(at))))
    for at in weathers.storm_spots(state):
        out.append(pb.Command(move_panda_by_storm=pb.MovePandaByStorm(at=wire.hex_msg(at))))
    if state.weather == "clouds":
        for kind in weathers.improvements_in_bank(state):
            taken = pb.TakeImprovement(improvement=wire.improvement_code(kind))
            out.append(pb.Command(take_improvement=taken))
    return out


def _action_commands(state: FreundeState, seat: int) -> list[pb.Command]:
    out: list[pb.Command] = []
    if turns.can_end_turn(state, seat):
        out.append(pb.Command(end_turn=pb.EndTurn()))
    if turns.may_take(state, seat, "plot"):
        out.append(pb.Command(draw_plots=pb.DrawPlots()))
    if turns.may_take(state, seat, "irrigation"):
        out.append(pb.Command(take_irrigation=pb.TakeIrrigation()))
    if turns.may_take(state, seat, "gardener"):
        for at in movers.gardener_moves(state):
            out.append(pb.Command(move_gardener=pb.MoveGardener(to=wire.hex_msg(at))))
    if turns.may_take(state, seat, "panda"):
        for at in movers.panda_moves(state):
            out.append(pb.Command(move_panda=pb.MovePanda(to=wire.hex_msg(at))))
    if turns.may_take(state, seat, "objective"):
        for kind in objectives.drawable_kinds(state, seat):
            drawn = pb.DrawObjective(kind=wire.kind_code(kind))
            out.append(pb.Command(draw_objective=drawn))
    return out


def _plot_commands(state: FreundeState) -> list[pb.Command]:
    spots = plots.plot_spots(state)
    return [
        pb.Command(place_plot=pb.PlacePlot(tile=tile, at=wire.hex_msg(at)))
        for tile in state.drawn_plots
        for at in spots
    ]


# ---- views ------------------------------------------------------------------


def _triple(names: tuple[str, ...], values: Triple) -> dict[str, int]:
    return dict(zip(names, values, strict=True))


def _card(card: int) -> dict[str, Any]:
    obj = OBJECTIVES[card]
    return {"card": card, "kind": obj.kind, "name": obj.name, "points": obj.points}


def _tile(tile: int) -> dict[str, Any]:
    printed = TILES[tile]
    return {"tile": tile, "colour": printed.colour, "improvement": printed.improvement}


def _garden_view(state: FreundeState) -> list[dict[str, Any]]:
    heights = dict(state.bamboo)
    return [
        {
            "q": h[0],
            "r": h[1],
            **_tile(tile),
            "improvement": improvement_at(state, h),
            "bamboo": heights.get(h, 0),
            "irrigated": h in state.irrigated,
        }
        for h, tile in state.plots
    ]


def _player_view(state: FreundeState, seat: int) -> dict[str, Any]:
    kinds = [OBJECTIVES[c].kind for c in state.hands[seat]]
    return {
        "seat": seat,
        "hand_size": len(state.hands[seat]),
        "hand_kinds": {kind: kinds.count(kind) for kind in KINDS},
        "claimed": [_card(c) for c in state.claimed[seat]],
        "bamboo": _triple(COLOURS, state.eaten[seat]),
        "irrigation": state.irrigation_reserve[seat],
        "improvements": _triple(IMPROVEMENTS, state.improvement_reserve[seat]),
        "emperor": state.emperor == seat,
        "score": endgame.score(state, seat),
    }


class FreundeEngine:
    """Freunde for 2 to 4 players (see the module docstring and RULES.md)."""

    info = GameInfo(
        "freunde",
        "Freunde",
        2,
        4,
        (
            OptionSpec(
                "round_limit",
                "int",
                DEFAULT_ROUND_LIMIT,
                "Safeguard: the game is scored after this many rounds if nobody has "
                "triggered the end (not in the rulebook; see RULES.md).",
                minimum=1,
                maximum=1000,
            ),
        ),
    )
    command_type = pb.Command
    event_type = pb.Event

    @property
    def game(self) -> str:
        return self.info.game

    # -- set-up ---------------------------------------------------------------

    def setup(self, config: TableConfig, rng: Rng) -> list[pb.Event]:
        """Set-up: shuffled plots and objective decks, one objective of each kind each."""
        if not self.info.min_seats <= config.seats <= self.info.max_seats:
            raise RuleViolation("setup.seats", "Freunde is played by 2 to 4 players.")
        limit = config.options.get("round_limit", DEFAULT_ROUND_LIMIT)
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
            raise RuleViolation("setup.round_limit", "The round limit must be a positive number.")
        stack = shuffled(sorted(TILES), rng)
        decks = [
            shuffled(sorted(c for c, o in OBJECTIVES.items() if o.kind == kind), rng)
            for kind in KINDS
        ]
        first = rng.below(config.seats)
        started = pb.GameStarted(
            seats=config.seats,
            first_player=first,
            plot_stack=stack,
            plot_objectives=decks[0],
            gardener_objectives=decks[1],
            panda_objectives=decks[2],
            round_limit=limit,
        )
        events = [pb.Event(game_started=started)]
        tops = [draw(deck, config.seats)[0] for deck in decks]
        for seat in range(config.seats):
            dealt = pb.ObjectivesDealt(
                seat=seat,
                cards=[top[seat] for top in tops],
                kinds=[wire.kind_code(kind) for kind in KINDS],
            )
            events.append(pb.Event(objectives_dealt=dealt))
        return events

    def initial_state(self) -> FreundeState:
        return FreundeState()

    def evolve(self, state: FreundeState, event: pb.Event) -> FreundeState:
        kind = event.WhichOneof("kind")
        if kind is None:
            return state
        return _RECORDERS[kind](state, getattr(event, kind))

    # -- decide ---------------------------------------------------------------

    def decide(
        self, state: FreundeState, command: pb.Command, seat: int, rng: Rng
    ) -> list[pb.Event]:
        kind = command.WhichOneof("kind")
        if kind is None:
            raise RuleViolation("command.empty", "The command names no move.")
        if state.phase == Phase.SETUP:
            raise RuleViolation("game.not_started", "The game has not been set up yet.")
        if state.phase == Phase.FINISHED:
            raise RuleViolation("game.finished", "The game is over.")
        if seat != state.turn:
            raise RuleViolation("turn.not_your_turn", "It is not your turn.")
        if kind not in PHASE_COMMANDS[state.phase]:
            code, message = _WAITING_FOR[state.phase]
            raise RuleViolation(code, message)
        return _HANDLERS[kind](state, seat, getattr(command, kind), rng)

    def legal_commands(self, state: FreundeState, seat: int) -> list[pb.Command]:
        if state.phase not in PHASE_COMMANDS or seat != state.turn:
            return []
        if state.phase == Phase.PLOT:
            return [*_plot_commands(state), *_free_commands(state, seat)]
        if state.phase == Phase.WEATHER:
            return [*_weather_commands(state), *_free_commands(state, seat)]
        return [*_action_commands(state, seat), *_free_commands(state, seat)]

    # -- what each seat may see -----------------------------------------------

    def view(self, state: FreundeState, seat: int | None) -> dict[str, Any]:
        finished = state.phase == Phase.FINISHED
        you: dict[str, Any] | None = None
        if seat is not None and 0 <= seat < state.seats:
            you = {
                "seat": seat,
                "hand": [_card(c) for c in state.hands[seat]],
                "drawn_plots": (
                    [_tile(t) for t in state.drawn_plots] if seat == state.turn else []
                ),
            }
        return {
            "game": self.game,
            "seats": state.seats,
            "phase": state.phase,
            "turn": state.turn,
            "round": state.round,
            "round_limit": state.round_limit,
            "first_player": state.first_player,
            "weather": state.weather,
            "actions_taken": list(state.actions),
            "actions_allowed": turns.action_limit(state),
            "drawn_plot_count": len(state.drawn_plots),
            "pond": {"q": 0, "r": 0},
            "garden": _garden_view(state),
            "channels": [[list(a), list(b)] for a, b in sorted(state.channels)],
            "gardener": list(state.gardener),
            "panda": list(state.panda),
            "supply": {
                "bamboo": _triple(COLOURS, state.bamboo_supply),
                "irrigation": state.irrigation_supply,
                "improvements": _triple(IMPROVEMENTS, state.improvement_bank),
            },
            "decks": {
                "plots": len(state.plot_stack),
                **{kind: len(deck) for kind, deck in zip(KINDS, state.decks, strict=True)},
            },
            "players": [_player_view(state, s) for s in range(state.seats)],
            "emperor": state.emperor if state.emperor >= 0 else None,
            "finished": finished,
            "winners": list(state.winners),
            "end_reason": state.end_reason,
            "you": you,
        }

    def redact(self, event: pb.Event, seat: int | None) -> pb.Event:
        """Hide other seats' cards and drawn plots, and every deck's order from everyone."""
        out = pb.Event()
        out.CopyFrom(event)
        kind = out.WhichOneof("kind")
        if kind == "game_started":
            started = out.game_started
            for deck in (
                started.plot_stack,
                started.plot_objectives,
                started.gardener_objectives,
                started.panda_objectives,
            ):
                deck[:] = [0] * len(deck)
        elif kind in ("objectives_dealt", "plots_drawn"):
            body = getattr(out, kind)
            if body.seat != seat:
                secret = body.cards if kind == "objectives_dealt" else body.tiles
                secret[:] = [0] * len(secret)
        elif kind in ("objective_drawn", "objective_returned"):
            body = getattr(out, kind)
            if body.seat != seat:
                body.card = 0
        return out

    def outcome(self, state: FreundeState) -> Outcome:
        finished = state.phase == Phase.FINISHED
        if state.phase == Phase.SETUP:
            return Outcome(state.phase, (), False, ())
        scores = tuple(endgame.score(state, s) for s in range(state.seats))
        return Outcome(
            phase=state.phase,
            to_act=() if finished else (state.turn,),
            finished=finished,
            scores=scores,
            winners=state.winners if finished else (),
            breakdown={
                "players": [endgame.breakdown(state, s) for s in range(state.seats)],
                "emperor": state.emperor,
                "end_reason": state.end_reason,
            },
        )


ENGINE = FreundeEngine()
