"""Turn flow as data: the stage a table is in, who acts there, what they may send.

A game declares its flow once (after boardgame.io's phases and stages) and both
``decide`` and ``legal_commands`` read it, so the two cannot disagree about what is
allowed when::

    FLOW = Flow(
        stage_of=lambda state: state.phase,
        to_act=lambda state: (state.turn,),
        finished=lambda state: state.phase == "finished",
        stages=(
            Stage("actions", ("draw_plots", "move_panda", "end_turn"),
                  waiting_for="Take an action or end your turn."),
            Stage("plot", ("place_plot",), waiting_for="Place one of the plots you drew first."),
        ),
    )

A stage names the command kinds it accepts, in the order ``legal_commands`` lists them,
and the message a player reads when it sends anything else (refused with the shared code
``command.not_now``). Whose turn it is comes from the flow, or from the stage where one
stage differs (a simultaneous phase lists several seats). Automatic steps between
commands (dealing the next round, scoring) are the game's ``advance``: see
:mod:`engines.core.game`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

__all__ = ["Flow", "Stage"]

S = TypeVar("S")

Seats = Callable[[S], Sequence[int]]


@dataclass(frozen=True, slots=True)
class Stage(Generic[S]):
    """One point of a game's flow.

    ``commands`` are the command kinds (fields of the game's ``Command`` oneof) accepted
    here, in the order their candidates are listed. ``waiting_for`` is what a player
    reads when it sends another kind: a sentence, or a function of the state for a
    sentence that names something ("Tend your Wheat first."). ``to_act``, when given,
    overrides the flow's for this stage. ``offered``, when given, names the kinds that
    may list anything in a state (a superset of those that do): ``legal_commands`` asks
    only their moves for candidates, for a stage taking many kinds of which a few are
    open at a time.
    """

    name: str
    commands: tuple[str, ...]
    waiting_for: str | Callable[[S], str] = "That is not possible now."
    to_act: Seats[S] | None = None
    offered: Callable[[S], frozenset[str]] | None = None

    def message(self, state: S) -> str:
        """The sentence a player reads when it sends a command this stage does not take."""
        return self.waiting_for if isinstance(self.waiting_for, str) else self.waiting_for(state)


@dataclass(frozen=True, slots=True)
class Flow(Generic[S]):
    """A game's stages, how to tell which one a state is in, and whose turn it is.

    ``stage_of`` returns the name of one of ``stages``; ``finished`` says the game is
    over (no stage is consulted then); ``to_act`` lists the seats that may send a
    command now, unless the stage has its own.
    """

    stages: tuple[Stage[S], ...]
    stage_of: Callable[[S], str]
    to_act: Seats[S]
    finished: Callable[[S], bool]
    _by_name: dict[str, Stage[S]] = field(init=False, repr=False, compare=False)
    # The last state ``now`` answered for, with its answer: one command asks about the
    # same state several times (its legal commands, its checks in decide, whose turn
    # follows). Holding the state keeps ``is`` meaningful; one tuple, swapped whole in a
    # one-place list (a frozen record's own field is set only through object.__setattr__,
    # which costs more than the answer).
    _last: list[tuple[object, tuple[Stage[S] | None, tuple[int, ...]]]] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        names = [stage.name for stage in self.stages]
        if len(set(names)) != len(names):
            raise ValueError(f"stage names repeat: {names}")
        object.__setattr__(self, "_by_name", {stage.name: stage for stage in self.stages})
        object.__setattr__(self, "_last", [(object(), (None, ()))])

    def stage(self, state: S) -> Stage[S]:
        """The stage ``state`` is in."""
        name = self.stage_of(state)
        try:
            return self._by_name[name]
        except KeyError:
            raise LookupError(f"the flow has no stage {name!r}") from None

    def now(self, state: S) -> tuple[Stage[S] | None, tuple[int, ...]]:
        """The stage ``state`` is in (``None`` once the game is over) and the seats that
        may send a command there: both at once, for callers that need both."""
        remembered = self._last
        last = remembered[0]
        if last[0] is state:
            return last[1]
        if self.finished(state):
            answer: tuple[Stage[S] | None, tuple[int, ...]] = (None, ())
        else:
            # self.stage, spelled out: asked once for every command played.
            stage = self._by_name.get(self.stage_of(state)) or self.stage(state)
            seats = stage.to_act if stage.to_act is not None else self.to_act
            answer = (stage, tuple(seats(state)))
        remembered[0] = (state, answer)
        return answer

    def seats_to_act(self, state: S) -> tuple[int, ...]:
        """The seats that may send a command now (none once the game is over)."""
        return self.now(state)[1]

    def kinds(self) -> frozenset[str]:
        """Every command kind some stage accepts."""
        return frozenset(kind for stage in self.stages for kind in stage.commands)
