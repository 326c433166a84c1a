"""Turn changes: what one command changed about whose turn it is, as the projector
publishes it to the notifier.

The projector folds every command's events already; for each command (a run of events
with one command id) after which someone new is to act, or the game has just ended, it
adds one entry to the shard's turns stream ``bw:{s<n>}:turns`` with the game's outcome
before and after the command. It adds them in the script that writes the views they
lead to, so they are published once per advance of the views (a projector replica that
re-folded from an older version may publish one again: notification ids make that
harmless). The notifier reads them in its consumer group and tells the players.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engines.core.contract import Outcome
from proto import common_pb2

__all__ = ["TURNS_KEPT", "TURN_FIELDS", "TURN_VERSION_AT", "TurnChange", "command_runs", "is_news"]

# A bound on each shard's turns stream if no notifier reads it; a running notifier trims
# it below what it acknowledged long before (about 4 hours of a shard at 400 commands/s
# over 64 shards).
TURNS_KEPT = 100_000

# How many fields and values an entry has (:meth:`TurnChange.fields`), and where the
# version's value is among them (from 0).
TURN_FIELDS = 12
TURN_VERSION_AT = 5


def is_news(before: Outcome | None, after: Outcome) -> bool:
    """Whether the command may concern a player: a seat now to act that was not, or the
    game's end (``before`` is ``None`` at the set-up, where nobody was to act yet)."""
    if after.finished:
        return before is None or not before.finished
    earlier = set(before.to_act) if before is not None else set()
    return any(seat not in earlier for seat in after.to_act)


def command_runs(
    events: Sequence[common_pb2.StoredEvent],
) -> list[list[common_pb2.StoredEvent]]:
    """The events split into the runs one command appended (one command id each)."""
    runs: list[list[common_pb2.StoredEvent]] = []
    for event in events:
        if runs and runs[-1][-1].command_id == event.command_id:
            runs[-1].append(event)
        else:
            runs.append([event])
    return runs


def _outcome_json(outcome: Outcome) -> str:
    fields = [outcome.phase, outcome.to_act, outcome.finished, outcome.scores, outcome.winners]
    return json.dumps(fields, separators=(",", ":"))


def _outcome_of(text: bytes) -> Outcome:
    phase, to_act, finished, scores, winners = json.loads(text)
    return Outcome(phase, tuple(to_act), finished, tuple(scores), tuple(winners))


@dataclass(frozen=True, slots=True)
class TurnChange:
    """One command's change of turn at a table: the outcome before (``None`` at the
    set-up) and after, the version and append time of the command's last event."""

    table_id: str
    game: str
    version: int
    time_ms: int
    before: Outcome | None
    after: Outcome

    def fields(self) -> list[str]:
        """The stream entry's fields and values, in order (``before`` is empty at the
        set-up)."""
        before = _outcome_json(self.before) if self.before is not None else ""
        return [
            "table",
            self.table_id,
            "game",
            self.game,
            "v",
            str(self.version),
            "t",
            str(self.time_ms),
            "before",
            before,
            "after",
            _outcome_json(self.after),
        ]

    @classmethod
    def of(cls, fields: dict[bytes, Any]) -> TurnChange:
        """The change a stream entry holds."""
        before = fields.get(b"before") or b""
        return cls(
            table_id=fields[b"table"].decode(),
            game=fields[b"game"].decode(),
            version=int(fields[b"v"]),
            time_ms=int(fields[b"t"]),
            before=_outcome_of(before) if before else None,
            after=_outcome_of(fields[b"after"]),
        )
