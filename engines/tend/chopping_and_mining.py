"""Chopping and Mining: scratching squares of the woods and the mine.

A square in the top half costs 1 action, one in the bottom half 2 (from the same task);
it must be in the top row or next to a square already scratched. The player gains what
the square holds at once: its good, extra actions ("+N"), a coin, a level (purple in the
woods, yellow in the mine: the next box of that track is gained at once), or a geode
(rolled on the geode card with the fishing dice, a 1 wild). Reaching the bottom row of
the woods unlocks lake fishing, of the mine grotto fishing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from engines.core.rng import Rng
from engines.tend import codes
from engines.tend.content import Effect, content
from engines.tend.events import gained, table_square, wrap
from engines.tend.marking import reward_events
from engines.tend.scratch_off import bottom_row, cost, draw_content, reachable, square_message
from engines.tend.state import Player, TendState
from proto import tend_pb2 as pb

__all__ = [
    "AREA_OF_TASK",
    "chop",
    "chop_candidates",
    "crack_geode",
    "crack_geode_candidates",
    "geode_events",
    "mine",
    "mine_candidates",
    "rewards_rolling_geodes",
    "roll",
    "scratch_options",
    "wild_squares",
]

AREA_OF_TASK = {"chop": "woods", "mine": "mine"}


def scratch_options(player: Player, task: str) -> list[tuple[int, int]]:
    """Every square the task may scratch now, with its cost in actions."""
    scratch = player.scratch(AREA_OF_TASK[task])
    return [(square, cost(square)) for square in reachable(scratch)]


def roll(rng: Rng) -> tuple[int, int]:
    """The black and the white die (1 to 6 each; a 1 is wild)."""
    return rng.below(6) + 1, rng.below(6) + 1


def wild_squares(black: int, white: int) -> list[int]:
    """The table squares a roll points at: a 1 is any row or column of its colour."""
    whites = range(2, 7) if white == 1 else (white,)
    blacks = range(2, 7) if black == 1 else (black,)
    return sorted(table_square(w, b) for w in whites for b in blacks)


def geode_events(seat: int, rng: Rng) -> list[pb.Event]:
    """A geode: roll both dice against the geode card; a wild leaves the square to choose."""
    black, white = roll(rng)
    good = content().geode.at(white, black) if 1 not in (black, white) else ""
    rolled = wrap(geode_rolled=pb.GeodeRolled(seat=seat, black=black, white=white, good=good))
    return [rolled, gained(seat, [good], "geode")] if good else [rolled]


def rewards_rolling_geodes(
    seat: int, effects: Iterable[Effect], source: str, rng: Rng
) -> list[pb.Event]:
    """What a card gives; a geode on it is rolled on the geode card as a mined one is
    (it is no good to hold: nothing buys, ships or spends a geode)."""
    events: list[pb.Event] = []
    for effect in effects:
        if effect.kind == "good" and effect.name == "geode":
            for _ in range(effect.amount):
                events += geode_events(seat, rng)
        else:
            events += reward_events(seat, [effect], source)
    return events


def _scratch(state: TendState, seat: int, task: str, square: int, rng: Rng) -> list[pb.Event]:
    player = state.players[seat]
    area = content().scratch_areas[AREA_OF_TASK[task]]
    scratch = player.scratch(area.id)
    grid = content().scratch
    if not 0 <= square < grid.rows * grid.cols:
        raise codes.SQUARE_OFF()
    if square in scratch.rocks:
        raise codes.SQUARE_ROCK()
    if scratch.content(square) is not None:
        raise codes.SQUARE_DONE()
    if square not in reachable(scratch):
        raise codes.SQUARE_UNREACHED()
    left = player.task.actions if player.task is not None else 0
    if cost(square) > left:
        raise codes.ACTIONS_SHORT(cost=cost(square), left=left)
    found = draw_content(area.id, scratch, square, rng)
    events = [
        wrap(actions_changed=pb.ActionsChanged(seat=seat, delta=-cost(square), reason=task)),
        wrap(
            square_scratched=pb.SquareScratched(
                seat=seat, area=area.id, square=square, content=square_message(found)
            )
        ),
    ]
    if found.actions:
        more = pb.ActionsChanged(seat=seat, delta=found.actions, reason="square")
        events.append(wrap(actions_changed=more))
    if found.coins:
        events += reward_events(seat, [Effect("coins", "", found.coins)], source=area.id)
    if found.good == "geode":
        events += geode_events(seat, rng)
    elif found.good:
        events.append(gained(seat, [found.good] * found.amount, area.id))
    if found.level:
        events += _level_up(player, seat, area.level_track)
    if bottom_row(square) and area.unlocks not in player.areas:
        events.append(wrap(unlocked=pb.Unlocked(seat=seat, what="area", name=area.unlocks)))
    return events


def _level_up(player: Player, seat: int, track: str) -> list[pb.Event]:
    level = (player.chop_level if track == "chop" else player.mine_level) + 1
    events = [wrap(level_gained=pb.LevelGained(seat=seat, track=track, level=level))]
    rewards = content().level_rewards[track]
    index = level - content().level_start - 1
    if index < len(rewards):
        box = rewards[index]
        effect = Effect("coins", "", 1) if box == "coin" else Effect("good", box)
        events += reward_events(seat, [effect], source=f"{track} level")
    return events


def chop(state: TendState, cmd: pb.Chop, seat: int, rng: Rng) -> list[pb.Event]:
    """Chopping: scratch a square of the woods."""
    return _scratch(state, seat, "chop", cmd.square, rng)


def mine(state: TendState, cmd: pb.Mine, seat: int, rng: Rng) -> list[pb.Event]:
    """Mining: scratch a square of the mine."""
    return _scratch(state, seat, "mine", cmd.square, rng)


def _affordable(state: TendState, seat: int, task: str) -> Iterator[int]:
    player = state.players[seat]
    left = player.task.actions if player.task is not None else 0
    for square, price in scratch_options(player, task):
        if price <= left:
            yield square


def chop_candidates(state: TendState, seat: int) -> Iterator[pb.Chop]:
    for square in _affordable(state, seat, "chop"):
        yield pb.Chop(square=square)


def mine_candidates(state: TendState, seat: int) -> Iterator[pb.Mine]:
    for square in _affordable(state, seat, "mine"):
        yield pb.Mine(square=square)


def crack_geode(state: TendState, cmd: pb.CrackGeode, seat: int) -> list[pb.Event]:
    """A geode rolled with a wild 1: take a good of that die's row or column."""
    player = state.players[seat]
    if not player.geodes:
        raise codes.GEODE_NOT_ROLLED()
    black, white = player.geodes[0]
    if cmd.square not in wild_squares(black, white):
        raise codes.GEODE_NOT_ROLLED()
    good = content().geode.grid[cmd.square // 5][cmd.square % 5]
    cracked = pb.GeodeCracked(seat=seat, square=cmd.square, good=good)
    return [wrap(geode_cracked=cracked), gained(seat, [good], "geode")]


def crack_geode_candidates(state: TendState, seat: int) -> Iterator[pb.CrackGeode]:
    player = state.players[seat]
    if player.geodes:
        for square in wild_squares(*player.geodes[0]):
            yield pb.CrackGeode(square=square)
