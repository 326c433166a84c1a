"""The audit of a table's log: the one implementation behind the engine service's Audit
RPC, the gateway's export verification and ``boardwright verify``. Pure: no I/O.

Checks, in order (each a :class:`Check`; the audit holds when all of them do):

``hash chain``
    Versions 1..n, each event linked to the one before and carrying the hash of what
    every reader sees (:func:`engines.core.hashchain.verify_chain`); needs no secret.
``events``
    Every payload, command and public form decodes as exactly the table's game's
    ``Event``/``Command`` (a log of another game's events fails here), the events replay
    through ``evolve``, and the seed, if revealed, is revealed by the last event, once
    the game is over.
``public forms``
    Every spectator form the chain covers is the game's redaction of its payload.
``timeouts`` (a log with any)
    Every ``TurnTimedOut`` names the deadline the log's own times give that seat (the
    table's clock over the append times, :mod:`engines.core.clock`), and was appended
    after it.
``seed`` (once revealed)
    The revealed seed hashes to the commitment published when the table was created.
``commitments`` (with the seed)
    Every seat's commitment and the whole-event commitment open with the salts the seed
    gives (:mod:`engines.core.disclosure` recomputes them).
``re-execution`` (with the seed)
    Set-up and every recorded command, run again with the seed, give the stored events
    byte for byte.

A check whose input is broken (an event that does not decode) stops the checks that
need it; what did run is reported.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from google.protobuf.message import DecodeError

from engines.core.clock import ClockRules, deadline
from engines.core.contract import Engine, TableConfig
from engines.core.control import Control, TableRules, fold_table
from engines.core.disclosure import disclose, seen_by
from engines.core.errors import RuleViolation
from engines.core.hashchain import ChainCheck, Salts, verify_chain
from engines.core.messages import decode_exactly
from engines.core.play import reexecute
from proto import common_pb2

__all__ = ["Audit", "Check", "TableFacts", "audit_log"]


@dataclass(frozen=True, slots=True)
class TableFacts:
    """What a table was created with: from its ``TableMeta`` or an export's header."""

    table_id: str
    seats: int
    seed_commitment: bytes
    options: Mapping[str, Any] = field(default_factory=dict)
    seat_bots: tuple[str, ...] = ()
    clock: ClockRules | None = None

    @classmethod
    def of(cls, meta: common_pb2.TableMeta, options: Mapping[str, Any]) -> TableFacts:
        rules = TableRules.of(meta)
        return cls(
            meta.table_id, meta.seats, meta.seed_commitment, options, rules.seat_bots, rules.clock
        )

    @property
    def rules(self) -> TableRules:
        return TableRules(self.seats, self.seat_bots, self.clock)


@dataclass(frozen=True, slots=True)
class Check:
    """One check: its name, whether it held, and what was found."""

    name: str
    ok: bool
    detail: str


@dataclass(frozen=True, slots=True)
class Audit:
    """Every check that ran, the chain walk, and the revealed seed (if any)."""

    chain: ChainCheck
    checks: tuple[Check, ...]
    seed: bytes | None

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(check.ok for check in self.checks)

    def check(self, name: str) -> Check | None:
        return next((check for check in self.checks if check.name == name), None)

    @property
    def detail(self) -> str:
        """What failed, one clause per failed check."""
        return "; ".join(check.detail for check in self.checks if not check.ok)


def audit_log(
    engine: Engine[Any, Any, Any],
    facts: TableFacts,
    log: Sequence[common_pb2.StoredEvent],
    *,
    require_seed: bool = False,
) -> Audit:
    """Audit ``log`` of the table ``facts`` describes with its game's ``engine``.

    ``require_seed``: a log whose seed is not revealed fails (an export must be of a
    finished game); otherwise such a log is audited as far as it can be.
    """
    chain = verify_chain(log)
    checks = [_chain(chain)]
    events = _events(engine, facts, log)
    checks.append(events)
    revealed = [e.seed_revealed.seed for e in log if e.WhichOneof("body") == "seed_revealed"]
    seed = revealed[-1] if revealed else None
    if events.ok:
        checks.append(_public_forms(engine, log))
        if any(_timed_out(e) for e in log):
            checks.append(_timeouts(engine, facts, log))
    if seed is None:
        if require_seed:
            checks.append(Check("seed", False, "the seed was never revealed (the game is on)"))
        return Audit(chain, tuple(checks), None)
    seed_ok = hashlib.sha256(seed).digest() == facts.seed_commitment
    checks.append(
        Check("seed", True, "the revealed seed matches the commitment made at creation")
        if seed_ok
        else Check("seed", False, "the revealed seed does not match the commitment")
    )
    if seed_ok and events.ok:
        checks.append(_commitments(engine, facts, log, seed))
        checks.append(_reexecution(engine, facts, log, seed))
    return Audit(chain, tuple(checks), seed)


def _chain(chain: ChainCheck) -> Check:
    if not chain.ok:
        return Check("hash chain", False, chain.reason)
    return Check(
        "hash chain", True, f"{chain.head_version} events linked, head {chain.head_hash.hex()[:16]}"
    )


def _events(
    engine: Engine[Any, Any, Any], facts: TableFacts, log: Sequence[common_pb2.StoredEvent]
) -> Check:
    name, game = "events", engine.info.game
    state = engine.initial_state()
    control = Control.start(facts.seats)
    for position, stored in enumerate(log, start=1):
        at = f"version {stored.version}"
        body = stored.WhichOneof("body")
        if body == "seed_revealed":
            if position != len(log):
                return Check(name, False, f"{at}: the seed is revealed before the last event")
            if not engine.finished(state) and control.end is None:
                return Check(name, False, f"{at}: the seed is revealed before the game ended")
            continue
        if body == "control":
            # Public as it is, and never a game event: only the table's end is read here.
            _, control = fold_table(engine, TableRules(facts.seats), state, control, [stored])
            continue
        if body != "payload":
            return Check(name, False, f"{at}: the event is empty")
        try:
            event = decode_exactly(engine.event_type, stored.payload)
            if stored.command:
                decode_exactly(engine.command_type, stored.command)
            if stored.HasField("public_payload"):
                decode_exactly(engine.event_type, stored.public_payload)
        except DecodeError:
            return Check(name, False, f"{at}: not a {game} event or command")
        try:
            state = engine.evolve(state, event)
        except Exception as broken:
            return Check(name, False, f"{at}: the {game} rules cannot replay it ({broken})")
        if len(stored.seat_commitments) != facts.seats:
            return Check(name, False, f"{at}: commitments for another number of seats")
    return Check(name, True, f"every event is a {game} event and the log replays")


def _public_forms(engine: Engine[Any, Any, Any], log: Sequence[common_pb2.StoredEvent]) -> Check:
    name = "public forms"
    for stored in log:
        if stored.WhichOneof("body") != "payload":
            continue
        public = seen_by(engine, engine.event_type.FromString(stored.payload), None)
        written = stored.public_payload if stored.HasField("public_payload") else None
        if public != written:
            return Check(
                name, False, f"version {stored.version}: the public form is not its event's"
            )
    return Check(name, True, "every public form is its event as a spectator sees it")


def _timed_out(stored: common_pb2.StoredEvent) -> bool:
    return stored.WhichOneof("body") == "control" and stored.control.HasField("turn_timed_out")


def _timeouts(
    engine: Engine[Any, Any, Any], facts: TableFacts, log: Sequence[common_pb2.StoredEvent]
) -> Check:
    name = "timeouts"
    rules = facts.rules
    if rules.clock is None:
        return Check(name, False, "the log holds a timeout, but the table has no clock")
    state, control = engine.initial_state(), Control.start(facts.seats)
    checked = 0
    for stored in log:
        if _timed_out(stored):
            timed = stored.control.turn_timed_out
            given = deadline(rules.clock, control.clocks, timed.seat)
            if given != timed.deadline_ms:
                return Check(
                    name, False, f"version {stored.version}: not the deadline the log gives"
                )
            if stored.time_ms < timed.deadline_ms:
                return Check(
                    name, False, f"version {stored.version}: timed out before its deadline"
                )
            checked += 1
        state, control = fold_table(engine, rules, state, control, [stored])
    return Check(name, True, f"{checked} timeouts came after the deadlines the log gives")


def _commitments(
    engine: Engine[Any, Any, Any],
    facts: TableFacts,
    log: Sequence[common_pb2.StoredEvent],
    seed: bytes,
) -> Check:
    name = "commitments"
    salts = Salts(seed, facts.table_id)
    opened = 0
    for stored in log:
        if stored.WhichOneof("body") != "payload":
            continue
        again = disclose(engine, stored, facts.seats, salts)
        if list(again.seat_commitments) != list(stored.seat_commitments):
            return Check(
                name, False, f"version {stored.version}: a seat's commitment does not open"
            )
        if again.commitment != stored.commitment:
            return Check(
                name, False, f"version {stored.version}: the event's commitment does not open"
            )
        opened += len(again.seat_commitments) + 1
    return Check(name, True, f"{opened} commitments open with the revealed seed")


def _reexecution(
    engine: Engine[Any, Any, Any],
    facts: TableFacts,
    log: Sequence[common_pb2.StoredEvent],
    seed: bytes,
) -> Check:
    name = "re-execution"
    config = TableConfig(facts.table_id, facts.seats, dict(facts.options))
    commands = [(e.seat, engine.command_type.FromString(e.command)) for e in log if e.command]
    recorded = [e.payload for e in log if e.WhichOneof("body") == "payload"]
    try:
        again = reexecute(engine, config, seed, commands)
    except RuleViolation as refused:
        return Check(name, False, f"a recorded command is refused on re-execution: {refused}")
    except (KeyError, TypeError, ValueError) as bad:
        return Check(name, False, f"cannot re-run the game: {bad}")
    if again != recorded:
        at = next(
            (i for i, (a, b) in enumerate(zip(again, recorded, strict=False), start=1) if a != b),
            min(len(again), len(recorded)) + 1,
        )
        return Check(
            name,
            False,
            f"re-running {len(commands)} commands gives different events from game event {at}"
            f" ({len(again)} events, the log has {len(recorded)})",
        )
    return Check(name, True, f"{len(commands)} commands re-run to the same {len(recorded)} events")
