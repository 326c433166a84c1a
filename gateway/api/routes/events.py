"""The table's log as the caller may see it: a page at a time, or live over SSE."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from sse_starlette import EventSourceResponse

from gateway.api.deps import Gateway, GatewayDep, TableCaller, TableCallerDep, still_seated
from gateway.api.reads import engine_view, viewer
from gateway.api.streams import slot_stream
from gateway.rendering import render_redacted
from gateway.schemas.responses import ErrorOut, EventOut, EventsOut
from proto import engine_pb2

__all__ = ["router"]

router = APIRouter(prefix="/v1", tags=["events"])

_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (403, 404, 422, 429, 503)
}
_PAGE = 500
After = Annotated[int, Query(ge=0, le=2**63 - 1, description="Only events after this version.")]


async def _page(
    gateway: Gateway, caller: TableCaller, after: int, limit: int
) -> engine_pb2.EventsResponse:
    """The caller's redacted events after ``after``; callers that ask for the same page at
    the same time (SSE subscribers woken by one event) share one engine call."""

    async def fetch() -> engine_pb2.EventsResponse:
        reply: engine_pb2.EventsResponse = await caller.backend.stub.EventsAfter(
            engine_pb2.EventsAfterRequest(
                table_id=caller.table_id, viewer=viewer(caller.seat), after=after, limit=limit
            ),
            timeout=gateway.backends.timeout,
        )
        return reply

    return await gateway.shared.run(("events", caller.table_id, caller.seat, after, limit), fetch)


@router.get(
    "/tables/{table_id}/events",
    response_model=EventsOut,
    responses=_ERRORS,
    summary="The log after a version, redacted for the caller",
)
async def events(
    caller: TableCallerDep,
    gateway: GatewayDep,
    after: After = 0,
    limit: Annotated[int, Query(ge=1, le=_PAGE)] = _PAGE,
) -> EventsOut:
    reply = await _page(gateway, caller, after, limit)
    return EventsOut(
        table_id=caller.table_id,
        head=reply.head,
        events=[EventOut(**render_redacted(e)) for e in reply.events],
    )


_MAX_VERSION = 2**63 - 1


def _resume_point(after: int, last_event_id: str | None) -> int:
    """Where a (re)connecting subscriber resumes: ``Last-Event-ID`` wins over ``after``.

    The stream's ids are versions; a header that is not one (not ASCII digits, or beyond
    any version) is ignored, as an id this stream never sent.
    """
    text = (last_event_id or "").strip()
    if text.isascii() and text.isdigit() and int(text) <= _MAX_VERSION:
        return int(text)
    return after


async def _stream(
    gateway: Gateway, caller: TableCaller, after: int
) -> AsyncIterator[dict[str, Any]]:
    """Every event after ``after``, then each new one as it is appended, then ``end``.

    The process's live reader (:mod:`gateway.live`) says when the table has a new event;
    the redacted form always comes from the engine service, so the subscriber sees exactly
    what the events endpoint would show it. A quiet table keeps the stream open for as long
    as the client stays: the only traffic is the heartbeat comment. A seat's stream is
    checked against its credential before each new page, so a token re-issued meanwhile
    (or a seat left) ends it with ``revoked`` instead of sending that seat's next events.
    """
    async with gateway.live.watch(caller.table_id) as watch:
        first = True
        while True:
            if not first and not await still_seated(gateway, caller):
                yield {"event": "revoked", "data": json.dumps(_REVOKED)}
                return
            first = False
            reply = await _page(gateway, caller, after, _PAGE)
            seed_seen = False
            for event in reply.events:
                rendered = EventOut(**render_redacted(event))
                seed_seen = seed_seen or rendered.seed_revealed is not None
                after = event.version
                yield {"id": str(after), "event": "event", "data": rendered.model_dump_json()}
            if len(reply.events) == _PAGE:
                continue
            if seed_seen or (not reply.events and await _ended(gateway, caller, after)):
                yield {"event": "end", "data": json.dumps({"version": after})}
                return
            await watch.wait_past(after)


_REVOKED = {
    "code": "auth.invalid",
    "message": "The credential this stream was opened with no longer names its seat.",
}


async def _ended(gateway: Gateway, caller: TableCaller, after: int) -> bool:
    async def ask() -> bool:
        current = await engine_view(gateway, caller, None)
        return bool(current.status.get("finished")) and current.version <= after

    return await gateway.shared.run(("ended", caller.table_id, after), ask)


_STREAM_EXAMPLE = (
    "id: 2\nevent: event\ndata: "
    '{"command_id":"seat0-0001","event":{"start_kept":{"seat":0}},'
    '"hash":"9f2c...","seat":0,"time_ms":1764483600123,"version":2}\n\n'
    'event: end\ndata: {"version":241}\n\n'
)


@router.get(
    "/tables/{table_id}/events/stream",
    response_class=EventSourceResponse,
    responses={
        200: {
            "description": "An endless text/event-stream until the game has ended",
            "content": {
                "text/event-stream": {
                    "schema": {"type": "string"},
                    "example": _STREAM_EXAMPLE,
                }
            },
        },
        **_ERRORS,
    },
    summary="Server-Sent Events: each new event, redacted for the subscriber",
    description=(
        "Each SSE message has `id` = the event's version, `event: event` and the event as"
        " JSON in `data` (the same shape as `/events`). Reconnecting with `Last-Event-ID`"
        " resumes after that version. Once the game has ended and everything was sent, one"
        " `event: end` message closes the stream. A seat whose token is re-issued (or"
        " whose app user leaves the seat) gets one `event: revoked` message instead of its"
        " next events, and the stream closes. A quiet table's stream stays open: a"
        " `: ping` comment every `BW_STREAM_PING_SECONDS` keeps proxies from closing it."
    ),
)
async def event_stream(
    request: Request,
    caller: TableCallerDep,
    gateway: GatewayDep,
    after: After = 0,
    last_event_id: Annotated[str | None, Header(max_length=32)] = None,
) -> EventSourceResponse:
    start = _resume_point(after, last_event_id)
    return slot_stream(request, gateway, _stream(gateway, caller, start))
