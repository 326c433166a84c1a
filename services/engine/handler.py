"""The engine host: everything the gRPC servicer and the command-stream consumer do.

One :class:`TableHost` serves one game. It holds no state a second replica could not
rebuild: the log in Redis is the truth; the in-process cache and the snapshots are
checked against the table's head before use and dropped whenever they disagree.

Execute, after ARCHITECTURE.md › "One command, end to end":

1. a command id seen before returns its first outcome (idempotency);
2. the state at the head is loaded (cache, else snapshot + later events, else the log);
3. ``decide`` runs with ``Rng(seed, table_id, head.version)``;
4. the events are appended against the head; if another replica appended first the
   state is reloaded and the command decided again, a bounded number of times;
5. when the game ends with this command, the revealed seed is appended in the same batch.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
import pickle
import re
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from google.protobuf.message import DecodeError, Message

from engines.core import contract as core_contract
from engines.core.canonical import message_bytes
from engines.core.contract import Engine, OptionSpec, TableConfig
from engines.core.errors import RuleViolation
from engines.core.hashchain import verify_chain
from engines.core.messages import to_json
from engines.core.options import OptionError, resolve_options
from engines.core.play import reexecute
from engines.core.rng import Rng
from proto import common_pb2, engine_pb2
from services.eventstore import (
    Appended,
    CommandApplied,
    CommandRejected,
    EventStore,
    Head,
    TableNotFound,
    VersionConflict,
)
from services.logs import bind, get_logger

__all__ = [
    "SETUP_COMMAND_ID",
    "BadRequest",
    "LoadedTable",
    "TableHost",
    "canonical_json",
    "fold_stored",
    "rules_fingerprint",
    "table_options",
]

SETUP_COMMAND_ID = "setup"
_TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_COMMAND_ID = re.compile(r"^[\x21-\x7e]{1,128}$")
_MAX_SEED = 64

log = get_logger("engine")


class BadRequest(ValueError):
    """A request the service refuses before it reaches the rules (INVALID_ARGUMENT)."""


def canonical_json(data: Any) -> str:
    """The one JSON text of read models and views: sorted keys, no spaces."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def fold_stored(engine: Engine[Any, Any, Any], state: Any, events: Sequence[Any]) -> Any:
    """Fold stored events into ``state``; the revealed seed is not a game event."""
    for stored in events:
        if stored.WhichOneof("body") == "payload":
            state = engine.evolve(state, engine.event_type.FromString(stored.payload))
    return state


def table_options(specs: Sequence[OptionSpec], given: dict[str, str]) -> dict[str, Any]:
    """The table's options from their JSON texts, checked by the one shared check."""
    values: dict[str, Any] = {}
    for name, text in given.items():
        try:
            values[name] = json.loads(text)
        except json.JSONDecodeError:
            raise BadRequest(f"option {name!r} is not JSON: {text[:40]!r}") from None
    try:
        return resolve_options(specs, values)
    except OptionError as wrong:
        raise BadRequest(wrong.message) from None


def rules_fingerprint(engine: Engine[Any, Any, Any]) -> bytes:
    """SHA-256 over the source and data files of the engine's package and of engines/core.

    Snapshots carry it, so a snapshot pickled by other rules code is never unpickled
    into these rules after an upgrade.
    """
    packages = {Path(core_contract.__file__).parent}
    module = inspect.getmodule(type(engine))
    if module is not None and module.__file__:
        packages.add(Path(module.__file__).parent)
    fingerprint = hashlib.sha256()
    for package in sorted(packages):
        for path in sorted(package.rglob("*")):
            if path.is_file() and path.suffix in {".py", ".json"}:
                fingerprint.update(path.relative_to(package).as_posix().encode())
                fingerprint.update(path.read_bytes())
    return fingerprint.digest()


@dataclass(frozen=True, slots=True)
class LoadedTable:
    """A table's state at ``version``, with what never changes about it."""

    meta: common_pb2.TableMeta
    seed: bytes
    head: Head
    state: Any

    @property
    def version(self) -> int:
        return self.head.version


class TableHost:
    """One game's tables on one event store: create, execute, and the read-side queries."""

    def __init__(
        self,
        store: EventStore,
        engine: Engine[Any, Any, Any],
        *,
        snapshot_every: int = 64,
        conflict_retries: int = 16,
        cache_size: int = 4096,
    ) -> None:
        self.store = store
        self.engine = engine
        self.snapshot_every = snapshot_every
        self.conflict_retries = conflict_retries
        self._cache: OrderedDict[str, LoadedTable] = OrderedDict()
        self._cache_size = cache_size
        self.rules = rules_fingerprint(engine)

    @property
    def game(self) -> str:
        return self.engine.info.game

    # -- creating -----------------------------------------------------------------

    async def create_table(
        self, request: engine_pb2.CreateTableRequest
    ) -> engine_pb2.CreateTableResponse:
        """Validate against the game's info, run set-up with the seed, store meta + events."""
        info = self.engine.info
        table_id = request.table_id or os.urandom(12).hex()
        if not _TABLE_ID.match(table_id):
            raise BadRequest("table_id must be 1-64 letters, digits, '-' or '_'")
        if not info.min_seats <= request.seats <= info.max_seats:
            raise BadRequest(
                f"{info.title} seats {info.min_seats} to {info.max_seats} players, "
                f"not {request.seats}"
            )
        if request.token_hashes and len(request.token_hashes) != request.seats:
            raise BadRequest("give one token hash per seat, or none")
        if len(request.seed) > _MAX_SEED:
            raise BadRequest(f"a seed is at most {_MAX_SEED} bytes")
        options = table_options(info.options, dict(request.options))
        seed = request.seed or os.urandom(32)
        config = TableConfig(table_id=table_id, seats=request.seats, options=options)
        try:
            setup = self.engine.setup(config, Rng(seed, table_id, 0))
        except RuleViolation as refused:
            # A set-up the rules refuse (Harvest: a solo challenge with two seats).
            raise BadRequest(refused.message) from None
        created = now_ms()
        meta = common_pb2.TableMeta(
            table_id=table_id,
            game=self.game,
            seats=request.seats,
            options={name: canonical_json(value) for name, value in options.items()},
            token_hashes=list(request.token_hashes),
            seed_commitment=hashlib.sha256(seed).digest(),
            created_ms=created,
        )
        stored = [
            common_pb2.StoredEvent(
                version=i,
                command_id=SETUP_COMMAND_ID,
                seat=-1,
                time_ms=created,
                payload=message_bytes(event),
            )
            for i, event in enumerate(setup, start=1)
        ]
        appended = await self.store.create_table(meta, seed, stored)
        with bind(table_id=table_id, version=appended.last_version):
            log.info("table.created", game=self.game, seats=request.seats, options=options)
        return engine_pb2.CreateTableResponse(meta=meta, version=appended.last_version)

    # -- loading --------------------------------------------------------------------

    async def load(self, table_id: str, head: Head | None = None) -> LoadedTable:
        """The state at the current head (``head`` when the caller just read it); raises
        ``TableNotFound``."""
        if head is None:
            head = await self.store.head(table_id)
        cached = self._cache.get(table_id)
        if cached is not None and cached.version == head.version and cached.head == head:
            self._cache.move_to_end(table_id)
            return cached
        if cached is not None and cached.version < head.version:
            later = await self.store.read(table_id, after=cached.version)
            return self._remember(self._advanced(cached, later))
        meta = await self.store.meta(table_id)
        seed = await self.store.seed(table_id)
        version, state = await self._from_snapshot(table_id, head.version)
        later = await self.store.read(table_id, after=version)
        at = head if version == head.version else Head(version, b"")
        base = LoadedTable(meta, seed, at, state)
        return self._remember(self._advanced(base, later))

    async def _from_snapshot(self, table_id: str, head_version: int) -> tuple[int, Any]:
        """The snapshot's (version, state) if it is usable, else the initial state."""
        snapshot = await self.store.load_snapshot(table_id)
        if snapshot is None:
            return 0, self.engine.initial_state()
        version, blob = snapshot
        rules, pickled = blob[: len(self.rules)], blob[len(self.rules) :]
        if rules != self.rules:
            # Written by other rules code (an upgrade): its state may not fit these rules.
            log.info("snapshot.other_rules", table_id=table_id)
        elif not 0 < version <= head_version:
            log.warning("snapshot.ahead_of_head", table_id=table_id, version=version)
        else:
            try:
                return version, pickle.loads(pickled)
            except Exception as broken:
                # A snapshot is a cache: any damage means folding from the start instead.
                log.warning("snapshot.unreadable", table_id=table_id, error=repr(broken))
        return 0, self.engine.initial_state()

    def _advanced(self, base: LoadedTable, later: Sequence[Any]) -> LoadedTable:
        if not later:
            return base
        expected = base.version + 1
        if later[0].version != expected:
            raise RuntimeError(f"log of {base.meta.table_id} skips from {base.version}")
        state = fold_stored(self.engine, base.state, later)
        last = later[-1]
        return LoadedTable(base.meta, base.seed, Head(last.version, last.hash), state)

    def _remember(self, loaded: LoadedTable) -> LoadedTable:
        self._cache[loaded.meta.table_id] = loaded
        self._cache.move_to_end(loaded.meta.table_id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return loaded

    def forget(self, table_id: str) -> None:
        """Drop the cached state (after a conflict, or in tests)."""
        self._cache.pop(table_id, None)

    # -- executing ------------------------------------------------------------------

    async def execute(self, envelope: common_pb2.CommandEnvelope) -> engine_pb2.ExecuteResponse:
        """Decide and append one command; a rejection is a normal reply, not an error."""
        with bind(table_id=envelope.table_id, command_id=envelope.command_id, seat=envelope.seat):
            started = time.perf_counter()
            response = await self._execute(envelope)
            self._log_outcome(response, time.perf_counter() - started)
            return response

    def _log_outcome(self, response: engine_pb2.ExecuteResponse, seconds: float) -> None:
        elapsed_ms = round(seconds * 1000, 3)
        if response.WhichOneof("result") == "accepted":
            accepted = response.accepted
            with bind(version=accepted.version):
                log.info(
                    "command.accepted",
                    events=len(accepted.events),
                    duplicate=accepted.duplicate,
                    elapsed_ms=elapsed_ms,
                )
        else:
            log.info(
                "command.rejected",
                code=response.rejected.code,
                reason=response.rejected.message,
                elapsed_ms=elapsed_ms,
            )

    async def _execute(self, envelope: common_pb2.CommandEnvelope) -> engine_pb2.ExecuteResponse:
        if not _TABLE_ID.match(envelope.table_id):
            return _rejected("table.not_found", "no table has that id")
        if not _COMMAND_ID.match(envelope.command_id):
            return _rejected("command.malformed", "command_id must be 1-128 printable characters")
        seen, head = await self._seen_and_head(envelope.table_id, envelope.command_id)
        if seen:
            previous = await self.store.outcome(envelope.table_id, envelope.command_id)
            if previous is not None:
                return _reply(previous, duplicate=True)
        try:
            command = self._parse_command(envelope.payload)
        except BadRequest as bad:
            return await self._reject(envelope, "command.malformed", str(bad))
        for _ in range(self.conflict_retries):
            try:
                if head is None:
                    raise TableNotFound(envelope.table_id)
                loaded = await self.load(envelope.table_id, head)
            except TableNotFound:
                return _rejected("table.not_found", f"no table {envelope.table_id!r}")
            if not 0 <= envelope.seat < loaded.meta.seats:
                return await self._reject(
                    envelope, "seat.invalid", f"this table has seats 0 to {loaded.meta.seats - 1}"
                )
            if (
                envelope.HasField("expected_version")
                and envelope.expected_version != loaded.version
            ):
                # Not recorded: the client may send the same command again after catching up.
                return _rejected(
                    "version.conflict",
                    f"the table is at version {loaded.version}, not {envelope.expected_version}",
                    details={"version": str(loaded.version)},
                )
            try:
                events = self.engine.decide(
                    loaded.state,
                    command,
                    envelope.seat,
                    Rng(loaded.seed, envelope.table_id, loaded.version),
                )
            except RuleViolation as violation:
                return await self._reject(
                    envelope, violation.code, violation.message, violation.details
                )
            except Exception:
                # A rules bug must not become a server error for the client who found it;
                # not recorded, so the same command id works once the rules are fixed.
                log.exception("command.rules_failed")
                return _rejected("command.invalid", "the rules cannot decide this command")
            try:
                return await self._append(envelope, command, loaded, events)
            except VersionConflict as conflict:
                self.forget(envelope.table_id)
                head = conflict.head
                log.info("command.conflict_retry", at=loaded.version)
        return _rejected(
            "version.conflict", "the table kept changing; send the command again", details={}
        )

    async def _seen_and_head(self, table_id: str, command_id: str) -> tuple[bool, Head | None]:
        """Whether ``command_id`` was decided on this table before, and the table's head
        (``None``: no such table), in one round trip: both keys share the table's slot."""
        keys = self.store.keys(table_id)
        pipe = self.store.redis.pipeline(transaction=False)
        pipe.hexists(keys.cmds, command_id)
        pipe.hmget(keys.meta, ["version", "hash"])
        seen, (version, hash_) = await pipe.execute()
        if version is None or hash_ is None:
            return bool(seen), None
        return bool(seen), Head(int(version), hash_ if isinstance(hash_, bytes) else hash_.encode())

    def _parse_command(self, payload: bytes) -> Message:
        try:
            command: Message = self.engine.command_type.FromString(payload)
        except DecodeError as bad:
            raise BadRequest(
                f"payload is not a {self.engine.command_type.__name__}: {bad}"
            ) from None
        if not command.ListFields():
            raise BadRequest("the command is empty")
        return command

    async def _reject(
        self,
        envelope: common_pb2.CommandEnvelope,
        code: str,
        message: str,
        details: dict[str, str] | None = None,
    ) -> engine_pb2.ExecuteResponse:
        rejection = common_pb2.Rejection(code=code, message=message, details=details or {})
        try:
            first = await self.store.record_rejection(
                envelope.table_id, envelope.command_id, rejection
            )
        except TableNotFound:
            return _rejected("table.not_found", f"no table {envelope.table_id!r}")
        except CommandApplied as applied:
            return _reply(applied.appended, duplicate=True)
        return engine_pb2.ExecuteResponse(rejected=first)

    async def _append(
        self,
        envelope: common_pb2.CommandEnvelope,
        command: Message,
        loaded: LoadedTable,
        events: Sequence[Message],
    ) -> engine_pb2.ExecuteResponse:
        state = loaded.state
        for event in events:
            state = self.engine.evolve(state, event)
        time_ms = now_ms()
        stored = [
            common_pb2.StoredEvent(
                version=loaded.version + i,
                command_id=envelope.command_id,
                seat=envelope.seat,
                time_ms=time_ms,
                payload=message_bytes(event),
            )
            for i, event in enumerate(events, start=1)
        ]
        if stored:
            stored[0].command = message_bytes(command)
        was_finished = self.engine.outcome(loaded.state).finished
        if not was_finished and self.engine.outcome(state).finished:
            stored.append(
                common_pb2.StoredEvent(
                    version=loaded.version + len(stored) + 1,
                    command_id=envelope.command_id,
                    seat=-1,
                    time_ms=time_ms,
                    seed_revealed=common_pb2.SeedRevealed(seed=loaded.seed),
                )
            )
        if not stored:
            return engine_pb2.ExecuteResponse(accepted=engine_pb2.Accepted(version=loaded.version))
        try:
            appended = await self.store.append(
                envelope.table_id, envelope.command_id, loaded.head, stored
            )
        except CommandRejected as rejected:
            return _reply(rejected.rejection, duplicate=True)
        if appended.duplicate:
            self.forget(envelope.table_id)
            return _reply(appended, duplicate=True)
        last = appended.events[-1]
        after = self._remember(
            LoadedTable(loaded.meta, loaded.seed, Head(last.version, last.hash), state)
        )
        await self._maybe_snapshot(after, appended.first_version)
        return _reply(appended, duplicate=False)

    async def _maybe_snapshot(self, loaded: LoadedTable, first_version: int) -> None:
        """Write a snapshot when this batch crossed a multiple of ``snapshot_every``."""
        every = self.snapshot_every
        if (first_version - 1) // every == loaded.version // every:
            return
        blob = self.rules + pickle.dumps(loaded.state, protocol=pickle.HIGHEST_PROTOCOL)
        await self.store.save_snapshot(loaded.meta.table_id, loaded.version, blob)

    # -- reading ----------------------------------------------------------------------

    def _check_seat(self, loaded: LoadedTable, seat: int | None) -> None:
        if seat is not None and not 0 <= seat < loaded.meta.seats:
            raise BadRequest(f"this table has seats 0 to {loaded.meta.seats - 1}")

    async def legal_commands(
        self, request: engine_pb2.LegalCommandsRequest
    ) -> engine_pb2.LegalCommandsResponse:
        loaded = await self.load(request.table_id)
        self._check_seat(loaded, request.seat)
        commands = self.engine.legal_commands(loaded.state, request.seat)
        return engine_pb2.LegalCommandsResponse(
            version=loaded.version,
            commands_json=[canonical_json(to_json(command)) for command in commands],
        )

    async def view(self, request: engine_pb2.ViewRequest) -> engine_pb2.ViewResponse:
        loaded = await self.load(request.table_id)
        seat = _viewer_seat(request.viewer)
        self._check_seat(loaded, seat)
        return self._view_response(loaded.state, seat, loaded.version)

    def _view_response(self, state: Any, seat: int | None, version: int) -> engine_pb2.ViewResponse:
        return engine_pb2.ViewResponse(
            version=version,
            view_json=canonical_json(self.engine.view(state, seat)),
            outcome_json=canonical_json(self.engine.outcome(state).as_dict()),
        )

    async def events_after(
        self, request: engine_pb2.EventsAfterRequest
    ) -> engine_pb2.EventsResponse:
        head = await self.store.head(request.table_id)
        seat = _viewer_seat(request.viewer)
        if seat is not None:
            meta = await self.store.meta(request.table_id)
            if not 0 <= seat < meta.seats:
                raise BadRequest(f"this table has seats 0 to {meta.seats - 1}")
        stored = await self.store.read(
            request.table_id, after=request.after, count=request.limit or None
        )
        return engine_pb2.EventsResponse(
            events=[self.redacted(event, seat) for event in stored], head=head.version
        )

    def redacted(
        self, stored: common_pb2.StoredEvent, seat: int | None
    ) -> engine_pb2.RedactedEvent:
        """One stored event as ``seat`` (``None``: a spectator) may see it."""
        shown = engine_pb2.RedactedEvent(
            version=stored.version,
            command_id=stored.command_id,
            seat=stored.seat,
            time_ms=stored.time_ms,
            hash=stored.hash,
        )
        if stored.WhichOneof("body") == "seed_revealed":
            shown.event_json = canonical_json(
                {"seed_revealed": {"seed": stored.seed_revealed.seed.hex()}}
            )
        else:
            event = self.engine.redact(self.engine.event_type.FromString(stored.payload), seat)
            if event is not None:
                shown.event_json = canonical_json(to_json(event))
        return shown

    async def replay(self, request: engine_pb2.ReplayRequest) -> engine_pb2.ViewResponse:
        """The viewer's view after the first ``at`` events."""
        head = await self.store.head(request.table_id)
        if request.at > head.version:
            raise BadRequest(f"the table has {head.version} events, not {request.at}")
        meta = await self.store.meta(request.table_id)
        seat = _viewer_seat(request.viewer)
        if seat is not None and not 0 <= seat < meta.seats:
            raise BadRequest(f"this table has seats 0 to {meta.seats - 1}")
        stored = (
            await self.store.read(request.table_id, after=0, count=request.at) if request.at else []
        )
        state = fold_stored(self.engine, self.engine.initial_state(), stored)
        return self._view_response(state, seat, request.at)

    async def audit(self, request: engine_pb2.AuditRequest) -> engine_pb2.AuditResponse:
        """Walk the hash chain; once the seed is out, re-run set-up and every command."""
        meta = await self.store.meta(request.table_id)
        stored = await self.store.read(request.table_id)
        chain = verify_chain(stored)
        response = engine_pb2.AuditResponse(
            chain_ok=chain.ok,
            first_bad_version=chain.first_bad_version,
            head_version=chain.head_version,
            head_hash=chain.head_hash,
            detail=chain.reason,
        )
        revealed = [e.seed_revealed.seed for e in stored if e.WhichOneof("body") == "seed_revealed"]
        if not revealed:
            return response
        seed = revealed[-1]
        response.seed = seed
        response.reexecution_checked = True
        ok, detail = self.reexecution_check(meta, seed, stored)
        response.reexecution_ok = ok
        response.detail = "; ".join(part for part in (chain.reason, detail) if part)
        return response

    def reexecution_check(
        self, meta: common_pb2.TableMeta, seed: bytes, stored: Sequence[common_pb2.StoredEvent]
    ) -> tuple[bool, str]:
        """Do set-up and the recorded commands, re-run with ``seed``, give the stored events?"""
        if hashlib.sha256(seed).digest() != meta.seed_commitment:
            return False, "the revealed seed does not match the commitment made at creation"
        options = {name: json.loads(text) for name, text in meta.options.items()}
        config = TableConfig(table_id=meta.table_id, seats=meta.seats, options=options)
        commands: list[tuple[int, Message]] = []
        recorded: list[bytes] = []
        for event in stored:
            if event.WhichOneof("body") != "payload":
                continue
            recorded.append(event.payload)
            if event.command:
                commands.append((event.seat, self.engine.command_type.FromString(event.command)))
        try:
            again = reexecute(self.engine, config, seed, commands)
        except RuleViolation as violation:
            return False, f"a recorded command is refused on re-execution: {violation}"
        if again == recorded:
            return True, ""
        for version, (mine, theirs) in enumerate(zip(again, recorded, strict=False), start=1):
            if mine != theirs:
                return False, f"event {version} differs on re-execution"
        return False, f"re-execution gives {len(again)} events, the log has {len(recorded)}"


def _viewer_seat(viewer: engine_pb2.Viewer) -> int | None:
    return viewer.seat if viewer.HasField("seat") else None


def _rejected(
    code: str, message: str, details: dict[str, str] | None = None
) -> engine_pb2.ExecuteResponse:
    return engine_pb2.ExecuteResponse(
        rejected=common_pb2.Rejection(code=code, message=message, details=details or {})
    )


def _reply(
    outcome: Appended | common_pb2.Rejection, *, duplicate: bool
) -> engine_pb2.ExecuteResponse:
    if isinstance(outcome, common_pb2.Rejection):
        return engine_pb2.ExecuteResponse(rejected=outcome)
    return engine_pb2.ExecuteResponse(
        accepted=engine_pb2.Accepted(
            events=list(outcome.events), version=outcome.last_version, duplicate=duplicate
        )
    )
