"""Bots that fill seats: they only ever pick among ``legal_commands``.

Bots are players, not rules: they may use their own seeded ``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, cast

from google.protobuf.message import Message

from engines.core.contract import Engine
from engines.core.errors import RuleViolation
from engines.core.rng import Rng

__all__ = ["GreedyBot", "RandomBot"]


def _legal(engine: Engine[Any, Any, Any], state: Any, seat: int) -> list[Message]:
    """The seat's legal commands; a bot asked to move with none is a caller's bug."""
    options = engine.legal_commands(state, seat)
    if not options:
        raise RuntimeError(f"seat {seat} has no legal command")
    return options


class _ListsMoves(Protocol):
    """What a kit game (engines.core.game.Game) offers beyond the contract."""

    def legal_groups(self, state: Any, seat: int) -> list[tuple[str, Sequence[Message]]]: ...

    def command(self, kind: str, body: Message) -> Message: ...


class RandomBot:
    """Uniform over the legal commands."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, engine: Engine[Any, Any, Any], state: Any, seat: int) -> Message:
        legal_groups = getattr(engine, "legal_groups", None)
        if legal_groups is None:
            return self._random.choice(_legal(engine, state, seat))
        # A kit game lists its moves by kind before building them: the bot counts them,
        # draws a position as random.choice would over the flat list (the same draw:
        # randrange(n) and choice both take _randbelow(n)), and builds that one only.
        groups = legal_groups(state, seat)
        count = 0
        for _, bodies in groups:
            count += len(bodies)
        if not count:
            raise RuntimeError(f"seat {seat} has no legal command")
        index = self._random.randrange(count)
        for kind, bodies in groups:
            if index < len(bodies):
                return cast(_ListsMoves, engine).command(kind, bodies[index])
            index -= len(bodies)
        raise AssertionError("unreachable: the index is below the count")


class GreedyBot:
    """Looks one command ahead and takes one that raises its own score the most.

    Ties (most commands score nothing at once) are broken at random, so greedy
    tables still vary. The look-ahead uses a fixed ``Rng``: it estimates, the real
    command still draws from the table's own stream.
    """

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, engine: Engine[Any, Any, Any], state: Any, seat: int) -> Message:
        options = _legal(engine, state, seat)
        best: list[Message] = []
        best_score: int | None = None
        for command in options:
            score = self._score_after(engine, state, command, seat)
            if best_score is None or score > best_score:
                best, best_score = [command], score
            elif score == best_score:
                best.append(command)
        return self._random.choice(best)

    @staticmethod
    def _score_after(engine: Engine[Any, Any, Any], state: Any, command: Message, seat: int) -> int:
        try:
            after = engine.decided(state, command, seat, Rng(b"greedy-lookahead", "bot", 0)).state
        except RuleViolation:
            return -(10**9)
        scores = engine.outcome(after).scores
        return scores[seat] if seat < len(scores) else 0
