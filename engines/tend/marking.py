"""Marking on Sheets: crossing out spaces, and what a completed row or grid unlocks.

A good is spent by crossing out a space showing its icon. A grid with dividing lines
unlocks one row at a time; a grid without them unlocks when every space is crossed.
Badge projects award a medal per row and their badge at two rows. Dashed squares (the
rewards) are gained at once: they become goods to use, coins for this turn, marks to
draw, tasks to perform, or an upgrade that stays.

Spaces of one row showing the same icon are interchangeable, so a good is always
crossed on the first free space of its kind in the row the player names; this keeps the
list of legal commands to one entry per choice that matters.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from engines.core.codes import Refusal
from engines.tend import codes
from engines.tend.content import Effect, Feature, content
from engines.tend.events import coins, gained, wrap
from engines.tend.state import Player, TendState
from proto import tend_pb2 as pb

__all__ = [
    "BADGE_ROWS",
    "cross_events",
    "crossing_refusal",
    "reward_events",
    "spend_targets",
]

BADGE_ROWS = 2
"""Rows of one badge project that earn its badge (Marking on Sheets C)."""


def _free_in_row(player: Player, feature: Feature, row: int) -> list[int]:
    crossed = player.crossed
    return [s for s in feature.row_spaces(row) if (feature.id, s) not in crossed]


def _takes(feature: Feature, icon: str, good: str) -> bool:
    if good == "buyback":
        return feature.group == "badge"
    if good == "coin":
        return icon == "coin"
    return icon != "coin" and content().matches(icon, good)


def crossing_refusal(player: Player, feature_id: str, space: int, good: str) -> Refusal | None:
    """Why ``good`` may not cross out ``space`` of ``feature_id`` (``None``: it may)."""
    feature = content().features.get(feature_id)
    if feature is None or not 0 <= space < len(feature.spaces):
        return codes.SPACE_UNKNOWN
    if (feature_id, space) in player.crossed:
        return codes.SPACE_TAKEN
    icon = feature.spaces[space]
    if not _takes(feature, icon, good):
        return codes.SPACE_WRONG_GOOD
    if feature.group == "lure" and player.lure:
        return codes.LURE_ONLY_ONE
    same = [s for s in _free_in_row(player, feature, feature.row_of(space))
            if feature.spaces[s] == icon]  # fmt: skip
    if same[0] != space:
        return codes.SPACE_NOT_FIRST
    return None


def spend_targets(player: Player, good: str) -> Iterator[tuple[str, int]]:
    """Every (feature, space) ``good`` may cross out now."""
    for feature in content().features.values():
        if feature.group == "lure" and player.lure:
            continue
        if good == "buyback" and feature.group != "badge":
            continue
        for row in range(len(feature.rows)):
            seen: set[str] = set()
            for space in _free_in_row(player, feature, row):
                icon = feature.spaces[space]
                if icon not in seen and _takes(feature, icon, good):
                    seen.add(icon)
                    yield feature.id, space


def cross_events(
    state: TendState, seat: int, good: str, feature_id: str, space: int
) -> list[pb.Event]:
    """The good spent, and whatever its row or grid completes."""
    player = state.players[seat]
    feature = content().features[feature_id]
    spent = wrap(good_spent=pb.GoodSpent(seat=seat, good=good, feature=feature_id, space=space))
    crossed = {*player.crossed, (feature_id, space)}
    row = feature.row_of(space) if feature.lined else 0
    spaces = feature.row_spaces(row) if feature.lined else range(len(feature.spaces))
    if not all((feature_id, s) in crossed for s in spaces):
        return [spent]
    events = [spent, wrap(row_completed=pb.RowCompleted(seat=seat, feature=feature_id, row=row))]
    events += reward_events(seat, feature.rewards[row], source=feature_id)
    done = sum(1 for f, _ in player.rows_done if f == feature_id) + 1
    if feature.group == "badge" and done == BADGE_ROWS:
        badge = pb.Unlocked(seat=seat, what="badge", name=feature_id, amount=feature.points)
        events.append(wrap(unlocked=badge))
    return events


def reward_events(seat: int, effects: Iterable[Effect], source: str) -> list[pb.Event]:
    """What a row, a card or a track box gives, as events (Dashed squares: at once)."""
    events: list[pb.Event] = []
    for effect in effects:
        kind = effect.kind
        if kind == "good":
            events.append(gained(seat, [effect.name] * effect.amount, source))
        elif kind == "coins":
            events.append(coins(seat, effect.amount, source))
        elif kind in ("tilled", "fence", "trellis", "buyback"):
            events.append(gained(seat, [kind] * effect.amount, source))
        elif kind == "task":
            queued = pb.TaskQueued(seat=seat, task=effect.name, bonus=effect.bonus, source=source)
            events.append(wrap(task_queued=queued))
        else:
            name = effect.name or source
            unlocked = pb.Unlocked(seat=seat, what=kind, name=name, amount=effect.amount)
            events.append(wrap(unlocked=unlocked))
    return events
