"""Given/when/then helpers for Tend scenarios: positions are built from events.

``opening`` sets a table up with a chosen task row and scratch-off cards and starts
round 1's task phase; the other helpers are the events a scenario adds (goods gained,
spaces crossed, squares scratched, goods shipped). Chance outcomes a scenario states
("the square holds a stone") come from :class:`Scripted`, an ``Rng`` that returns the
draws it is given.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import cast

from engines.core.play import Table
from engines.core.rng import Rng
from engines.core.testing import Scenario, When, given
from engines.tend.content import Square, content
from engines.tend.engine import ENGINE
from engines.tend.scratch_off import in_top, remaining, square_message
from engines.tend.state import Scratch, TendState
from proto import tend_pb2 as pb

ROW = ("starter_tend_1", "starter_chop_1", "starter_mine_1", "starter_fish_1", "starter_coins")
ROCKS = (10, 16, 27, 29)
PATH = (0, 6, 12, 18, 24, 30)
OBJECTIVES = ("energised", "menagerie", "decorated")


class Scripted(Rng):
    """An ``Rng`` whose ``below`` returns the scripted values, in order."""

    def __init__(self, *draws: int) -> None:
        super().__init__(b"scripted", "scripted", 0)
        self._draws = list(draws)

    def below(self, n: int) -> int:
        value = self._draws.pop(0)
        assert 0 <= value < n, f"scripted draw {value} is not below {n}"
        return value


def e(**kind: object) -> pb.Event:
    return pb.Event(**kind)  # type: ignore[arg-type]


def cmd(**kind: object) -> pb.Command:
    return pb.Command(**kind)  # type: ignore[arg-type]


def card(rocks: Sequence[int] = ROCKS) -> pb.ScratchCard:
    """A scratch-off woods or mine: rocks off column 0, the path down column 0, and the
    first two pool entries of each half in its preview."""
    return pb.ScratchCard(rocks=rocks, path=PATH, top_picks=[0, 1], bottom_picks=[0, 1])


def set_up(
    seats: int = 1,
    row: Sequence[str] = ROW,
    objectives: Sequence[str] = OBJECTIVES,
    tops: Sequence[str] = ("sprout", "woodcutter"),
    timer: bool = False,
) -> pb.Event:
    neighbours = sorted(content().neighbour_cards)
    players = [
        pb.SeatSetUp(neighbours=neighbours[4 * s : 4 * s + 4], woods=card(), mine=card())
        for s in range(seats)
    ]
    return e(
        game_set_up=pb.GameSetUp(
            seats=seats,
            advanced_cards=True,
            round_timer=timer,
            objectives=objectives,
            row=row,
            tops=tops,
            upcoming=(1, 1, 1, 2, 2, 2, 2, 3, 3, 3),
            players=players,
        )
    )


FISH_SLOT = 3  # the starter fish card in the opening's task row


def opening(seats: int = 1, **options: object) -> list[pb.Event]:
    """Set-up, every seat keeping its first two neighbour cards, round 1's task phase."""
    setup = set_up(seats, **options)  # type: ignore[arg-type]
    events = [setup]
    for seat, player in enumerate(setup.game_set_up.players):
        left, right = player.neighbours[0], player.neighbours[1]
        events.append(e(neighbours_kept=pb.NeighboursKept(seat=seat, left=left, right=right)))
    events.append(e(phase_began=pb.PhaseBegan(round=1, phase="tasks")))
    return events


def gained(seat: int, *goods: str) -> pb.Event:
    return e(goods_gained=pb.GoodsGained(seat=seat, goods=goods, source="test"))


def coins(seat: int, amount: int) -> pb.Event:
    return e(coins_gained=pb.CoinsGained(seat=seat, coins=amount, source="test"))


def crossed(seat: int, feature: str, spaces: Iterable[int]) -> list[pb.Event]:
    """Spaces of a sheet feature crossed out earlier (each good gained, then spent)."""
    icons = content().features[feature].spaces
    events = []
    for space in spaces:
        good = icons[space]
        if good == "coin":
            events.append(coins(seat, 1))
        else:
            events.append(gained(seat, good))
        spent = pb.GoodSpent(seat=seat, good=good, feature=feature, space=space)
        events.append(e(good_spent=spent))
    return events


def unlocked(seat: int, what: str, name: str, amount: int = 1) -> pb.Event:
    return e(unlocked=pb.Unlocked(seat=seat, what=what, name=name, amount=amount))


def scratched(seat: int, area: str, square: int, content_: Square) -> pb.Event:
    found = square_message(content_)
    return e(
        square_scratched=pb.SquareScratched(seat=seat, area=area, square=square, content=found)
    )


def shipped(seat: int, good: str, cells: Iterable[tuple[int, int]]) -> list[pb.Event]:
    grid = content().manifest.grid
    numbers = sorted(grid.index(c) for c in cells)
    return [gained(seat, good), e(good_shipped=pb.GoodShipped(seat=seat, good=good, cells=numbers))]


def draw_of(state: TendState, seat: int, area: str, square: int, wanted: Square) -> int:
    """The draw that makes ``square`` of the seat's ``area`` hold ``wanted``."""
    scratch: Scratch = state.players[seat].scratch(area)
    return remaining(area, scratch, in_top(square)).index(wanted)


def farm(row: int, col: int) -> int:
    return content().farm.index((row, col))


def position(*events: pb.Event | Sequence[pb.Event]) -> Scenario[TendState]:
    return given(ENGINE, *events)


def evs(when: When[TendState] | Scenario[TendState]) -> list[pb.Event]:
    """A scenario's (or a step's) events, typed as Tend's."""
    return cast(list[pb.Event], when.events)


def logged(table: Table) -> list[pb.Event]:
    """A played table's events, typed as Tend's."""
    return cast(list[pb.Event], table.events)


def step(
    history: Sequence[pb.Event], seat: int, command: pb.Command, rng: Rng | None = None
) -> list[pb.Event]:
    """The events of a command the scenario expects to be accepted."""
    return evs(position(list(history)).when(seat, command, rng).accepted())
