"""The command side of an engine host: create a table, execute a command.

Execute, after ARCHITECTURE.md › "One command, end to end":

0. a table this process holds is decided on the held state and appended against its
   head straight away (one round trip): the append script checks the head and the
   command id, so a stale state is a conflict, after which the steps below run; so does
   anything that is not an append (a refusal must be decided on the current state);
1. what the command path needs is read in one round trip (:meth:`EventStore.lookup`):
   the head, the table's game (another game's table is refused, and nothing is written
   to it), and the first outcome of this seat's command id: the same command gets that
   outcome again; a different command under the same id is refused
   (``command.id_reused``);
2. the state at the head is loaded (:class:`~services.engine.tables.TableLoader`);
3. ``decide`` runs with ``Rng(seed, table_id, head.version)``;
4. each event gets its public form and commitments (``engines.core.disclosure``), and
   the batch is appended against the head; if another replica appended first the state
   is reloaded and the command decided again, a bounded number of times;
5. when the game ends with this command, the revealed seed is appended in the same batch.

The reply carries the stored events (for trusted callers) and the same events as the
acting seat may see them, with its salts.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import time
from collections.abc import Sequence
from typing import Any

from google.protobuf.message import DecodeError, Message

from engines.core import codes
from engines.core import control as table_control
from engines.core.canonical import canonical_json
from engines.core.clock import ON_TIMEOUT
from engines.core.contract import Engine, OptionSpec, TableConfig
from engines.core.control import CONTROL_PREFIX, fold_table, table_to_act
from engines.core.disclosure import control_batch, render, seed_event, stored_batch
from engines.core.errors import RuleViolation
from engines.core.hashchain import Salts
from engines.core.options import OptionError, resolve_options
from engines.core.rng import Rng
from proto import common_pb2, engine_pb2
from services.engine.refusals import BadRequest, WrongGame, ensure_game, seat_refusal
from services.engine.tables import LoadedTable, TableIdentity, TableLoader
from services.eventstore import (
    Appended,
    CommandApplied,
    CommandIdReused,
    CommandKey,
    CommandRejected,
    EventStore,
    TableNotFound,
    VersionConflict,
)
from services.logs import bind, get_logger

__all__ = ["SETUP_COMMAND_ID", "ClockEarly", "CommandHandler", "table_options"]

SETUP_COMMAND_ID = "setup"
_TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_COMMAND_ID = re.compile(r"^[\x21-\x7e]{1,128}$")
_COMMAND_ID_RULE = "command_id must be 1-128 printable characters"
_CONTROL_ID_RULE = f"command ids starting {CONTROL_PREFIX!r} are the service's own"
_MAX_SEED = 64

log = get_logger("engine")


def now_ms() -> int:
    return time.time_ns() // 1_000_000


class ClockEarly(RuntimeError):
    """A timeout arrived before its deadline by this host's clock (the scheduler's clock is
    ahead): raised, not refused, so the async path tries it again a moment later."""


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


class CommandHandler:
    """Creates tables and executes commands for one game."""

    def __init__(
        self, store: EventStore, tables: TableLoader, *, conflict_retries: int = 16
    ) -> None:
        self.store = store
        self.tables = tables
        self.engine: Engine[Any, Any, Any] = tables.engine
        self.conflict_retries = conflict_retries

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
        _check_seat_bots(request, getattr(self.engine, "bots", {}))
        _check_clock(request, getattr(self.engine, "bots", {}))
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
            game=info.game,
            seats=request.seats,
            options={name: canonical_json(value) for name, value in options.items()},
            token_hashes=list(request.token_hashes),
            seed_commitment=hashlib.sha256(seed).digest(),
            created_ms=created,
            seat_bots=list(request.seat_bots),
            unlisted=request.unlisted,
        )
        if request.HasField("clock"):
            meta.clock.CopyFrom(request.clock)
        stored = stored_batch(
            self.engine,
            Salts(seed, table_id),
            request.seats,
            after=0,
            command_id=SETUP_COMMAND_ID,
            seat=-1,
            time_ms=created,
            events=setup,
        )
        appended = await self.store.create_table(meta, seed, stored)
        # The first command then needs no read of meta, seed, snapshot or log.
        self.tables.remember_created(TableIdentity(meta, seed), appended)
        with bind(table_id=table_id, version=appended.last_version):
            log.info("table.created", game=info.game, seats=request.seats, options=options)
        return engine_pb2.CreateTableResponse(meta=meta, version=appended.last_version)

    # -- executing ------------------------------------------------------------------

    async def execute(self, envelope: common_pb2.CommandEnvelope) -> engine_pb2.ExecuteResponse:
        """Decide and append one command; a refusal is a normal reply, not an error."""
        with bind(table_id=envelope.table_id, command_id=envelope.command_id, seat=envelope.seat):
            started = time.perf_counter()
            response = await self._execute(envelope)
            self._log_outcome(response, time.perf_counter() - started)
            return response

    def _log_outcome(self, response: engine_pb2.ExecuteResponse, seconds: float) -> None:
        elapsed_ms = round(seconds * 1000, 3)
        if response.WhichOneof("result") == "accepted":
            if not log.is_enabled_for(logging.DEBUG):
                return  # nothing to bind for a line nobody keeps
            accepted = response.accepted
            with bind(version=accepted.version):
                # At debug: one line per command is the service's busiest output.
                log.debug(
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
        table_id = envelope.table_id
        if not _TABLE_ID.match(table_id):
            return _refused(codes.TABLE_NOT_FOUND())
        if not _COMMAND_ID.match(envelope.command_id):
            return _refused(codes.COMMAND_MALFORMED(reason=_COMMAND_ID_RULE))
        key = CommandKey.of(envelope)
        cached = self.tables.cached(table_id)
        if cached is not None:
            settled = await self._on_cached(envelope, key, cached)
            if settled is not None:
                return settled
        try:
            found = await self.store.lookup(table_id, key)
            if found.head is None:
                return _refused(codes.TABLE_NOT_FOUND())
            ensure_game(found.game, self.tables.game)
        except CommandIdReused:
            return _refused(codes.COMMAND_ID_REUSED())
        except WrongGame as wrong:
            return _rejected(wrong.code, wrong.message)
        is_control = envelope.HasField("control")
        if is_control != envelope.command_id.startswith(CONTROL_PREFIX):
            # Not recorded: the prefix keeps the scheduler's ids out of every client's reach.
            return _refused(codes.COMMAND_MALFORMED(reason=_CONTROL_ID_RULE))
        if found.prior is not None:
            return await self._again(envelope, found.prior)
        command: Message | None = None
        if not is_control:
            try:
                command = self._parse_command(envelope.payload)
            except BadRequest as bad:
                violation = codes.COMMAND_MALFORMED(reason=bad.message)
                return await self._reject(envelope, key, violation)
        head = found.head
        for _ in range(self.conflict_retries):
            try:
                loaded = await self.tables.load(table_id, head)
            except TableNotFound:
                return _refused(codes.TABLE_NOT_FOUND())
            # Not recorded: no such seat has command ids to keep.
            unseated = seat_refusal(loaded.meta.seats, envelope.seat)
            if unseated is not None:
                return _refused(unseated)
            if is_control:
                # Decided again after every conflict: a timeout or a bot's turn goes stale.
                try:
                    command, controls = self._control(envelope, loaded)
                except RuleViolation as violation:
                    return await self._reject(envelope, key, violation)
                except ClockEarly:
                    raise
                except Exception:
                    # A bot's bug: not recorded, so the same turn can be sent again.
                    log.exception("command.bot_failed")
                    return _refused(codes.COMMAND_INVALID())
                if command is None:
                    try:
                        return await self._append(envelope, key, None, loaded, [], controls)
                    except VersionConflict as conflict:
                        self.tables.forget(table_id)
                        head = conflict.head
                        continue
            else:
                refused = table_control.refuse_command(loaded.control, envelope.seat)
                if refused is not None:
                    return await self._reject(envelope, key, refused)
            if (
                envelope.HasField("expected_version")
                and envelope.expected_version != loaded.version
            ):
                # Not recorded: the client may send the same command again after catching up.
                return _refused(
                    codes.VERSION_CONFLICT(
                        version=loaded.version, expected=envelope.expected_version
                    ),
                    version=str(loaded.version),
                )
            try:
                events, after = self.engine.decided(
                    loaded.state,
                    command,
                    envelope.seat,
                    Rng(loaded.identity.seed, table_id, loaded.version),
                )
            except RuleViolation as violation:
                return await self._reject(envelope, key, violation)
            except Exception:
                # A rules bug must not become a server error for the client who found it;
                # not recorded, so the same command id works once the rules are fixed.
                log.exception("command.rules_failed")
                return _refused(codes.COMMAND_INVALID())
            try:
                return await self._append(envelope, key, command, loaded, events, [], after)
            except VersionConflict as conflict:
                self.tables.forget(table_id)
                head = conflict.head
                log.info("command.conflict_retry", at=loaded.version)
        return _rejected(
            codes.VERSION_CONFLICT.code, "The table kept changing; send the command again."
        )

    def _control(
        self, envelope: common_pb2.CommandEnvelope, loaded: LoadedTable
    ) -> tuple[Message | None, list[common_pb2.TableControlEvent]]:
        """A control command at the loaded table: the control events it records, or the
        game command a bot chose for the seat (decided as the seat's own); raises
        ``RuleViolation`` (recorded) for a resignation too late or a stale timeout."""
        seat, rules, control = envelope.seat, loaded.identity.rules, loaded.control
        kind = envelope.control.WhichOneof("kind")
        to_act = table_to_act(self.engine, loaded.state, control)
        if kind == "resign":
            finished = self.engine.finished(loaded.state)
            return None, table_control.resign(rules, control, seat, finished)
        if kind == "time_out":
            timeout = envelope.control.time_out
            if timeout.version != loaded.version:
                raise table_control.CLOCK_STALE()
            events = table_control.time_out(rules, control, seat, to_act, timeout.deadline_ms)
            if now_ms() < timeout.deadline_ms:
                raise ClockEarly(f"{timeout.deadline_ms - now_ms()} ms before the deadline")
            return None, events
        if kind == "play_bot":
            bot_turn = envelope.control.play_bot
            bots = getattr(self.engine, "bots", {})
            if (
                bot_turn.version != loaded.version
                or seat not in to_act
                or not table_control.plays_bot(rules, control, seat)
                or not bots
            ):
                raise table_control.CLOCK_STALE()
            name = table_control.bot_for(rules, seat, bots)
            bot = bots[name](
                table_control.bot_seed(
                    loaded.identity.seed, loaded.meta.table_id, loaded.version, seat
                )
            )
            return bot.choose(self.engine, loaded.state, seat), []
        raise codes.COMMAND_EMPTY()

    async def _on_cached(
        self, envelope: common_pb2.CommandEnvelope, key: CommandKey, cached: LoadedTable
    ) -> engine_pb2.ExecuteResponse | None:
        """The common case in one round trip: decide on the cached state and append against
        its head, skipping the lookup. The append script checks the head and the command id
        itself, so a stale cache is a conflict (nothing written) and a command id seen
        before gets its first outcome. Anything but an append is left to the full path
        (``None``): a refusal must be decided on the current state and recorded there."""
        if envelope.HasField("expected_version") and envelope.expected_version != cached.version:
            return None
        if seat_refusal(cached.meta.seats, envelope.seat) is not None:
            return None
        if envelope.HasField("control") or envelope.command_id.startswith(CONTROL_PREFIX):
            return None
        if table_control.refuse_command(cached.control, envelope.seat) is not None:
            return None
        try:
            command = self._parse_command(envelope.payload)
            events, after = self.engine.decided(
                cached.state,
                command,
                envelope.seat,
                Rng(cached.identity.seed, envelope.table_id, cached.version),
            )
        except Exception:
            # Malformed, refused by the rules, or a rules bug: the full path decides again
            # on the current state, records the refusal or reports the bug.
            return None
        try:
            return await self._append(envelope, key, command, cached, events, [], after)
        except VersionConflict:
            self.tables.forget(envelope.table_id)
            return None
        except TableNotFound:
            return _refused(codes.TABLE_NOT_FOUND())

    def _parse_command(self, payload: bytes) -> Message:
        """The game's command in ``payload``. Fields the game does not know are dropped, so
        the command recorded in the log is exactly a command of this game (the audit
        refuses anything else)."""
        try:
            command: Message = self.engine.command_type.FromString(payload)
        except DecodeError as bad:
            raise BadRequest(
                f"payload is not a {self.engine.command_type.__name__}: {bad}"
            ) from None
        command.DiscardUnknownFields()
        if not command.ListFields():
            raise BadRequest("the command is empty")
        return command

    async def _reject(
        self, envelope: common_pb2.CommandEnvelope, key: CommandKey, violation: RuleViolation
    ) -> engine_pb2.ExecuteResponse:
        """Record the refusal under the seat's command id; the first outcome stands."""
        rejection = common_pb2.Rejection(
            code=violation.code, message=violation.message, details=violation.details
        )
        try:
            first = await self.store.record_rejection(envelope.table_id, key, rejection)
        except TableNotFound:
            return _refused(codes.TABLE_NOT_FOUND())
        except CommandIdReused:
            return _refused(codes.COMMAND_ID_REUSED())
        except CommandApplied as applied:
            return await self._again(envelope, applied.appended)
        return engine_pb2.ExecuteResponse(rejected=first)

    async def _again(
        self, envelope: common_pb2.CommandEnvelope, outcome: Appended | common_pb2.Rejection
    ) -> engine_pb2.ExecuteResponse:
        """The first outcome of a command sent again."""
        if isinstance(outcome, common_pb2.Rejection):
            return engine_pb2.ExecuteResponse(rejected=outcome)
        identity = await self.tables.identity(envelope.table_id)
        return self._accepted(outcome, envelope.seat, identity.salts, duplicate=True)

    async def _append(
        self,
        envelope: common_pb2.CommandEnvelope,
        key: CommandKey,
        command: Message | None,
        loaded: LoadedTable,
        events: Sequence[Message],
        controls: Sequence[common_pb2.TableControlEvent],
        after: Any = None,
    ) -> engine_pb2.ExecuteResponse:
        """Append a game command's ``events`` (or a control command's ``controls``), and the
        revealed seed when the table ends with them. ``after``: the game's state after
        ``events``, as ``decided`` returned it (not folded again)."""
        salts = loaded.identity.salts
        time_ms = now_ms()
        at, command_id, seat = loaded.version, envelope.command_id, envelope.seat
        if controls:
            stored = control_batch(
                after=at, command_id=command_id, seat=seat, time_ms=time_ms, events=controls
            )
        else:
            stored = stored_batch(
                self.engine,
                salts,
                loaded.meta.seats,
                after=at,
                command_id=command_id,
                seat=seat,
                time_ms=time_ms,
                events=events,
                command=command,
            )
        state, control = fold_table(
            self.engine, loaded.identity.rules, loaded.state, loaded.control, stored, after
        )
        if not self._over(loaded.state, loaded.control) and self._over(state, control):
            version = loaded.version + len(stored) + 1
            stored.append(seed_event(salts, version, envelope.command_id, time_ms))
        if not stored:
            return engine_pb2.ExecuteResponse(accepted=engine_pb2.Accepted(version=loaded.version))
        try:
            appended = await self.store.append(envelope.table_id, key, loaded.head, stored)
        except CommandRejected as rejected:
            return engine_pb2.ExecuteResponse(rejected=rejected.rejection)
        except CommandIdReused:
            return _refused(codes.COMMAND_ID_REUSED())
        if appended.duplicate:
            self.tables.forget(envelope.table_id)
            return self._accepted(appended, envelope.seat, salts, duplicate=True)
        after = self.tables.remember(LoadedTable(loaded.identity, appended.head, state, control))
        await self.tables.maybe_snapshot(after, appended.first_version)
        decided = dict(enumerate(events, start=at + 1))
        return self._accepted(appended, envelope.seat, salts, duplicate=False, decided=decided)

    def _over(self, state: Any, control: table_control.Control) -> bool:
        return control.end is not None or self.engine.finished(state)

    def _accepted(
        self,
        appended: Appended,
        seat: int,
        salts: Salts,
        *,
        duplicate: bool,
        decided: dict[int, Message] | None = None,
    ) -> engine_pb2.ExecuteResponse:
        """The reply; ``decided`` holds the game events just decided, by version, so the
        seat's view of them is rendered without decoding their payloads again."""
        decided = decided or {}
        seen = [
            render(self.engine, event, seat, salts, decided.get(event.version))
            for event in appended.events
        ]
        return engine_pb2.ExecuteResponse(
            accepted=engine_pb2.Accepted(
                events=appended.events,
                version=appended.last_version,
                duplicate=duplicate,
                seen=seen,
            )
        )


def _check_seat_bots(request: engine_pb2.CreateTableRequest, bots: Any) -> None:
    """``seat_bots`` names one entry per seat (or none), each "" or one of the game's bots."""
    if not request.seat_bots:
        return
    if len(request.seat_bots) != request.seats:
        raise BadRequest("give one seat_bots entry per seat, or none")
    unknown = sorted({bot for bot in request.seat_bots if bot and bot not in bots})
    if unknown:
        raise BadRequest(f"no bot {unknown[0]!r} here; the game's bots: {', '.join(sorted(bots))}")


def _check_clock(request: engine_pb2.CreateTableRequest, bots: Any) -> None:
    """A clock says what a timeout does; "bot" needs a game with bots."""
    if not request.HasField("clock"):
        return
    clock = request.clock
    if clock.on_timeout not in ON_TIMEOUT:
        raise BadRequest(f"on_timeout is one of {', '.join(ON_TIMEOUT)}, not {clock.on_timeout!r}")
    if clock.on_timeout == "bot" and not bots:
        raise BadRequest("this game has no bot to play a turn that timed out")


def _rejected(code: str, message: str, **details: str) -> engine_pb2.ExecuteResponse:
    return engine_pb2.ExecuteResponse(
        rejected=common_pb2.Rejection(code=code, message=message, details=details)
    )


def _refused(violation: RuleViolation, **details: str) -> engine_pb2.ExecuteResponse:
    """A refusal that is not recorded under the command id."""
    return _rejected(violation.code, violation.message, **(violation.details | details))
