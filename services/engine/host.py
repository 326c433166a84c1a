"""One game's engine host: the command side, the table loader and the read side, together.

The gRPC servicer and the async command consumer talk to a :class:`TableHost`; each of
its jobs lives in its own module: :mod:`~services.engine.commands` (create and execute),
:mod:`~services.engine.tables` (state: cache, snapshots, the log) and
:mod:`~services.engine.queries` (views, legal commands, events, replay, audit).
"""

from __future__ import annotations

from typing import Any

from engines.core.contract import Engine
from proto import common_pb2, engine_pb2
from services.config import TABLES_HELD
from services.engine.commands import CommandHandler
from services.engine.queries import TableQueries
from services.engine.tables import LoadedTable, TableLoader
from services.eventstore import EventStore

__all__ = ["TableHost"]


class TableHost:
    """Everything one engine service does, for one game on one event store."""

    def __init__(
        self,
        store: EventStore,
        engine: Engine[Any, Any, Any],
        *,
        snapshot_every: int = 64,
        conflict_retries: int = 16,
        cache_size: int = TABLES_HELD,
    ) -> None:
        self.store = store
        self.engine = engine
        self.tables = TableLoader(
            store, engine, snapshot_every=snapshot_every, cache_size=cache_size
        )
        self.commands = CommandHandler(store, self.tables, conflict_retries=conflict_retries)
        self.queries = TableQueries(store, self.tables)

    @property
    def game(self) -> str:
        return self.engine.info.game

    async def create_table(
        self, request: engine_pb2.CreateTableRequest
    ) -> engine_pb2.CreateTableResponse:
        return await self.commands.create_table(request)

    async def execute(self, envelope: common_pb2.CommandEnvelope) -> engine_pb2.ExecuteResponse:
        return await self.commands.execute(envelope)

    async def legal_commands(
        self, request: engine_pb2.LegalCommandsRequest
    ) -> engine_pb2.LegalCommandsResponse:
        return await self.queries.legal_commands(request)

    async def view(self, request: engine_pb2.ViewRequest) -> engine_pb2.ViewResponse:
        return await self.queries.view(request)

    async def events_after(
        self, request: engine_pb2.EventsAfterRequest
    ) -> engine_pb2.EventsResponse:
        return await self.queries.events_after(request)

    async def replay(self, request: engine_pb2.ReplayRequest) -> engine_pb2.ViewResponse:
        return await self.queries.replay(request)

    async def audit(self, request: engine_pb2.AuditRequest) -> engine_pb2.AuditResponse:
        return await self.queries.audit(request)

    async def load(self, table_id: str) -> LoadedTable:
        """The table's current state (tests and tools)."""
        return await self.tables.load(table_id)

    def forget(self, table_id: str) -> None:
        """Drop the cached state of a table."""
        self.tables.forget(table_id)
