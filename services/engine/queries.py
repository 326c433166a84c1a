"""The read side of an engine host: legal commands, views, the log, replays and the audit.

Nothing here writes. Every query checks the table's game and the viewer's seat with the
shared checks of :mod:`services.engine.refusals`, renders events with the one
``engines.core.disclosure.render`` and audits with the one ``engines.core.audit``.
"""

from __future__ import annotations

import json
from typing import Any

from engines.core.audit import TableFacts, audit_log
from engines.core.canonical import canonical_json
from engines.core.contract import Engine
from engines.core.control import Control, TableRules, fold_table, refuse_command, table_outcome
from engines.core.disclosure import render
from engines.core.messages import to_json
from proto import engine_pb2
from services.engine.refusals import BadRequest, seat_refusal
from services.engine.tables import TableLoader
from services.eventstore import EventStore

__all__ = ["TableQueries", "viewer_seat"]


def viewer_seat(viewer: engine_pb2.Viewer) -> int | None:
    """The seat a viewer names; ``None`` for a spectator."""
    return viewer.seat if viewer.HasField("seat") else None


class TableQueries:
    """Answers every read about one game's tables."""

    def __init__(self, store: EventStore, tables: TableLoader) -> None:
        self.store = store
        self.tables = tables
        self.engine: Engine[Any, Any, Any] = tables.engine

    async def legal_commands(
        self, request: engine_pb2.LegalCommandsRequest
    ) -> engine_pb2.LegalCommandsResponse:
        loaded = await self.tables.load(request.table_id)
        _check_seat(loaded.meta.seats, request.seat)
        state = loaded.state
        left_or_over = refuse_command(loaded.control, request.seat) is not None
        commands = [] if left_or_over else self.engine.legal_commands(state, request.seat)
        words = [self.engine.describe_command(state, c, request.seat) for c in commands]
        return engine_pb2.LegalCommandsResponse(
            version=loaded.version,
            commands_json=[canonical_json(to_json(command)) for command in commands],
            words=[engine_pb2.MoveWords(group=w.group, text=w.text) for w in words],
        )

    async def view(self, request: engine_pb2.ViewRequest) -> engine_pb2.ViewResponse:
        loaded = await self.tables.load(request.table_id)
        seat = viewer_seat(request.viewer)
        _check_seat(loaded.meta.seats, seat)
        rules = loaded.identity.rules
        return self._view_response(rules, loaded.state, loaded.control, seat, loaded.version)

    def _view_response(
        self, rules: TableRules, state: Any, control: Control, seat: int | None, version: int
    ) -> engine_pb2.ViewResponse:
        outcome = table_outcome(rules, control, self.engine.outcome(state).as_dict())
        return engine_pb2.ViewResponse(
            version=version,
            view_json=canonical_json(self.engine.view(state, seat)),
            outcome_json=canonical_json(outcome),
        )

    async def events_after(
        self, request: engine_pb2.EventsAfterRequest
    ) -> engine_pb2.EventsResponse:
        """The log after a version as the viewer may see it, with what the chain covers."""
        identity = await self.tables.identity(request.table_id)
        seat = viewer_seat(request.viewer)
        _check_seat(identity.meta.seats, seat)
        head = await self.store.head(request.table_id)
        stored = await self.store.read(
            request.table_id, after=request.after, count=request.limit or None
        )
        salts = identity.salts
        return engine_pb2.EventsResponse(
            events=[render(self.engine, event, seat, salts) for event in stored],
            head=head.version,
        )

    async def replay(self, request: engine_pb2.ReplayRequest) -> engine_pb2.ViewResponse:
        """The viewer's view after the first ``at`` events."""
        identity = await self.tables.identity(request.table_id)
        head = await self.store.head(request.table_id)
        if request.at > head.version:
            raise BadRequest(f"the table has {head.version} events, not {request.at}")
        seat = viewer_seat(request.viewer)
        _check_seat(identity.meta.seats, seat)
        stored = (
            await self.store.read(request.table_id, after=0, count=request.at) if request.at else []
        )
        rules = TableRules.of(identity.meta)
        state, control = fold_table(
            self.engine, rules, self.engine.initial_state(), Control.start(rules.seats), stored
        )
        return self._view_response(rules, state, control, seat, request.at)

    async def audit(self, request: engine_pb2.AuditRequest) -> engine_pb2.AuditResponse:
        """Every check of ``engines.core.audit`` over the whole log."""
        identity = await self.tables.identity(request.table_id)
        meta = identity.meta
        stored = await self.store.read(request.table_id)
        options = {name: json.loads(text) for name, text in meta.options.items()}
        audit = audit_log(self.engine, TableFacts.of(meta, options), stored)
        reexecution = audit.check("re-execution")
        return engine_pb2.AuditResponse(
            ok=audit.ok,
            checks=[
                engine_pb2.AuditCheck(name=check.name, ok=check.ok, detail=check.detail)
                for check in audit.checks
            ],
            chain_ok=audit.chain.ok,
            first_bad_version=audit.chain.first_bad_version,
            head_version=audit.chain.head_version,
            head_hash=audit.chain.head_hash,
            reexecution_checked=reexecution is not None,
            reexecution_ok=reexecution is not None and reexecution.ok,
            detail=audit.detail,
            seed=audit.seed or b"",
        )


def _check_seat(seats: int, seat: int | None) -> None:
    refusal = seat_refusal(seats, seat)
    if refusal is not None:
        raise BadRequest.because(refusal)
