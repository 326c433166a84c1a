"""Given/when/then helpers for Freunde scenarios: build a position, send a command.

Positions start from real set-up events with decks in a known order, then the garden
and the turn are laid out directly (the way a referee would set up a puzzle), with the
irrigation of every plot derived by the engine's own rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

import pytest

from engines.core.errors import RuleViolation
from engines.core.hexgrid import Edge
from engines.core.play import fold
from engines.core.rng import Rng
from engines.freunde.content import OBJECTIVES, TILES
from engines.freunde.engine import ENGINE
from engines.freunde.irrigation import is_irrigated_by
from engines.freunde.state import KINDS, FreundeState, Phase
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


def H(q: int, r: int) -> pb.Hex:
    return pb.Hex(q=q, r=r)


def game(seats: int = 2, first: int = 0, round_limit: int = 100) -> FreundeState:
    """A fresh table: plots and decks in id order, seat s dealt the s-th card of each deck."""
    decks = [sorted(c for c, o in OBJECTIVES.items() if o.kind == kind) for kind in KINDS]
    started = pb.GameStarted(
        seats=seats,
        first_player=first,
        plot_stack=sorted(TILES),
        plot_objectives=decks[0],
        gardener_objectives=decks[1],
        panda_objectives=decks[2],
        round_limit=round_limit,
    )
    events = [pb.Event(game_started=started)]
    for seat in range(seats):
        dealt = pb.ObjectivesDealt(
            seat=seat,
            cards=[d[seat] for d in decks],
            kinds=[pb.OBJECTIVE_KIND_PLOT, pb.OBJECTIVE_KIND_GARDENER, pb.OBJECTIVE_KIND_PANDA],
        )
        events.append(pb.Event(objectives_dealt=dealt))
    state: FreundeState = fold(ENGINE, events)
    return state


def garden(
    state: FreundeState,
    plots: Mapping[tuple[int, int], int],
    bamboo: Mapping[tuple[int, int], int] | None = None,
    channels: Iterable[Edge] = (),
    chips: Mapping[tuple[int, int], str] | None = None,
) -> FreundeState:
    """Lay out placed plots (hex -> tile id), bamboo, channels and improvement chips."""
    chips = dict(chips or {})
    channel_set = frozenset(tuple(sorted(e)) for e in channels)
    irrigated = frozenset(
        h
        for h, tile in plots.items()
        if is_irrigated_by(h, channel_set, chips.get(h, TILES[tile].improvement))  # type: ignore[arg-type]
    )
    used = set(plots.values())
    return replace(
        state,
        plots=tuple(sorted(plots.items())),
        plot_stack=tuple(t for t in state.plot_stack if t not in used),
        bamboo=tuple(sorted((h, n) for h, n in (bamboo or {}).items() if n)),
        channels=channel_set,  # type: ignore[arg-type]
        chips=tuple(sorted(chips.items())),
        irrigated=irrigated,
    )


def turn(
    state: FreundeState,
    seat: int = 0,
    *,
    weather: str = "",
    actions: tuple[str, ...] = (),
    phase: str = Phase.ACTIONS,
    round: int = 2,
) -> FreundeState:
    """It is ``seat``'s turn, with this weather and these actions already taken."""
    return replace(state, turn=seat, weather=weather, actions=actions, phase=phase, round=round)


def hand(state: FreundeState, seat: int, cards: Iterable[int]) -> FreundeState:
    """Give ``seat`` exactly these cards (taken out of the decks)."""
    cards = tuple(cards)
    decks = tuple(tuple(c for c in deck if c not in cards) for deck in state.decks)
    hands = tuple(cards if s == seat else h for s, h in enumerate(state.hands))
    return replace(state, decks=decks, hands=hands)


def reserve(
    state: FreundeState,
    seat: int,
    *,
    bamboo: tuple[int, int, int] | None = None,
    irrigation: int | None = None,
    chips: tuple[int, int, int] | None = None,
) -> FreundeState:
    """Set what ``seat`` holds in its reserve."""

    def put(values: tuple[Any, ...], value: Any) -> tuple[Any, ...]:
        return tuple(value if s == seat else v for s, v in enumerate(values))

    if bamboo is not None:
        state = replace(state, eaten=put(state.eaten, bamboo))
    if irrigation is not None:
        state = replace(state, irrigation_reserve=put(state.irrigation_reserve, irrigation))
    if chips is not None:
        state = replace(state, improvement_reserve=put(state.improvement_reserve, chips))
    return state


def when(state: FreundeState, seat: int, command: pb.Command, version: int = 7) -> list[pb.Event]:
    """The events ``command`` produces; it must also be among the legal commands."""
    events = ENGINE.decide(state, command, seat, Rng(b"scenario", "t", version))
    assert command in ENGINE.legal_commands(state, seat)
    return events


def after(state: FreundeState, events: Iterable[pb.Event]) -> FreundeState:
    for event in events:
        state = ENGINE.evolve(state, event)
    return state


def refused(state: FreundeState, seat: int, command: pb.Command) -> str:
    """The rejection code; the command must not be legal and must change nothing."""
    assert command not in ENGINE.legal_commands(state, seat)
    with pytest.raises(RuleViolation) as rejection:
        ENGINE.decide(state, command, seat, Rng(b"scenario", "t", 7))
    assert rejection.value.message
    return rejection.value.code


def cell(state: FreundeState, q: int, r: int, seat: int | None = None) -> dict[str, Any]:
    """One plot as the view shows it."""
    for entry in ENGINE.view(state, seat)["garden"]:
        if (entry["q"], entry["r"]) == (q, r):
            return dict(entry)
    raise AssertionError(f"no plot at {(q, r)}")
