"""Reads shared by several routes: a viewer's view with read-your-writes, and whether a
table has finished (asked of the engine, which is never behind)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from gateway.api.deps import Gateway, TableCaller
from gateway.errors import ApiError
from gateway.middleware import ViewsRead
from gateway.store import ReadModel
from proto import engine_pb2
from services.projector.projector import table_status

__all__ = ["ViewAt", "engine_view", "finished", "replayed", "view_for", "viewer", "within_log"]


@dataclass(frozen=True, slots=True)
class ViewAt:
    """A view at a version, as the canonical JSON text it was read as (sent on unparsed
    by the table's view route), and the table's status then."""

    version: int
    view_text: bytes
    status: dict[str, Any]

    @property
    def view(self) -> dict[str, Any]:
        parsed: dict[str, Any] = json.loads(self.view_text)
        return parsed


def viewer(seat: int | None) -> engine_pb2.Viewer:
    return engine_pb2.Viewer() if seat is None else engine_pb2.Viewer(seat=seat)


async def engine_view(gateway: Gateway, caller: TableCaller, seat: int | None) -> ViewAt:
    """The view straight from the engine service: current by construction."""
    reply = await caller.backend.stub.GetView(
        engine_pb2.ViewRequest(table_id=caller.table_id, viewer=viewer(seat)),
        timeout=gateway.backends.timeout,
    )
    outcome = json.loads(reply.outcome_json) if reply.outcome_json else {}
    view = reply.view_json.encode() if reply.view_json else b"{}"
    return ViewAt(reply.version, view, table_status(caller.meta, reply.version, outcome))


async def view_for(
    gateway: Gateway,
    caller: TableCaller,
    min_version: int | None,
    views: ViewsRead | None = None,
) -> ViewAt:
    """The caller's view from the read models, no older than ``min_version``; ``views``:
    the read models read with the rate limits, used when they are the caller's.

    The projector is waited for at most ``read_wait_seconds`` (woken when it writes the
    table: :class:`gateway.live.Projections`); if it is still behind (or
    its view and status disagree on the version), the engine service answers instead,
    so a read never returns anything older than what the caller asked for. A view behind
    its status was lost by Redis (views are not in its AOF): the projector is asked to
    write it again.
    """
    name = "public" if caller.seat is None else f"seat:{caller.seat}"
    store = gateway.store
    read: tuple[ReadModel | None, ReadModel | None] | None = None
    if views is not None and views.table_id == caller.table_id and views.name == name:
        read = (views.view, views.status)
    if min_version is None:
        model, status = read or await store.read_models(caller.table_id, name)
    else:
        model, status = await store.read_models_at_least(
            caller.table_id,
            name,
            min_version,
            gateway.settings.read_wait_seconds,
            gateway.projections,
            read,
        )
    if model is not None and status is not None and status.version == model.version:
        return ViewAt(model.version, model.text, status.data)
    if status is not None and (model is None or model.version < status.version):
        # Written with its status, so never behind it unless Redis lost it.
        gateway.metrics.views_lost.labels(game=caller.meta.game).inc()
        await store.report_lost_view(caller.table_id)
    return await engine_view(gateway, caller, caller.seat)


async def finished(gateway: Gateway, caller: TableCaller) -> tuple[bool, int]:
    """Whether the game has ended, and the table's head version."""
    current = await engine_view(gateway, caller, None)
    return bool(current.status.get("finished")), current.version


async def within_log(gateway: Gateway, caller: TableCaller, at: int) -> tuple[bool, int]:
    """Whether the game has ended, and its head version; 422 ``replay.out_of_range`` when
    ``at`` lies beyond the head."""
    done, head = await finished(gateway, caller)
    if at > head:
        raise ApiError(
            422, "replay.out_of_range", f"The table is at version {head}.", {"head": str(head)}
        )
    return done, head


async def replayed(
    gateway: Gateway, caller: TableCaller, at: int, seat: int | None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The view of ``seat`` (``None``: a spectator) after the first ``at`` events, and the
    outcome then, folded by the engine service from the log (check ``at`` with
    :func:`within_log` first)."""
    reply = await caller.backend.stub.Replay(
        engine_pb2.ReplayRequest(table_id=caller.table_id, viewer=viewer(seat), at=at),
        timeout=gateway.backends.timeout,
    )
    view = json.loads(reply.view_json) if reply.view_json else {}
    outcome = json.loads(reply.outcome_json) if reply.outcome_json else {}
    return view, outcome
