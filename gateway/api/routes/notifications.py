"""``/v1/me/notifications``: what concerns a player across all its tables (its turn, a
game's end, a seat taken or freed), as a page or live over SSE.

The player is an app's user (``X-App-Key`` + ``X-App-User``) or the player of any of its
seat tokens (:func:`gateway.api.deps.player_of`), so an app reads only its own users'
notifications. The notifier process writes them to the player's stream
(:mod:`services.notifications`), which keeps the newest ``BW_NOTIFICATIONS_KEPT``; the
stream's entry ids are the SSE ids, so ``Last-Event-ID`` resumes after the last one seen.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.security import HTTPAuthorizationCredentials
from sse_starlette import EventSourceResponse

from gateway.api.deps import (
    Gateway,
    GatewayDep,
    app_key_scheme,
    bearer_scheme,
    player_of,
    still_player,
)
from gateway.api.streams import slot_stream
from gateway.identity import Caller, caller_of
from gateway.schemas.responses import ErrorOut, NotificationOut, NotificationsOut
from services.notifications import Notification, entry_position

__all__ = ["router"]

router = APIRouter(prefix="/v1", tags=["players"])

_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (401, 403, 422, 429, 503)
}
_PAGE = 100
STREAM_ID = r"^[0-9]{1,20}(-[0-9]{1,20})?$"
_STREAM_ID = re.compile(STREAM_ID)
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer_scheme)]
AppKey = Annotated[str | None, Depends(app_key_scheme)]


def _out(entry: str, note: Notification) -> NotificationOut:
    return NotificationOut(
        event_id=entry,
        id=note.id,
        kind=note.kind,
        player=note.player,
        table_id=note.table_id,
        game=note.game,
        seat=note.seat,
        version=note.version,
        time_ms=note.time_ms,
        text=note.text,
        data=note.data,
    )


@router.get(
    "/me/notifications",
    response_model=NotificationsOut,
    responses=_ERRORS,
    summary="Your notifications across all your tables, oldest first",
    description=(
        "As an app's user (`X-App-Key` + `X-App-User`) or with any of your seat tokens."
        " `kind` is `your_turn`, `game_over`, `seat_joined` or `seat_left`. Pages through"
        " what your stream keeps (`BW_NOTIFICATIONS_KEPT`): pass `last_event_id` as"
        " `?after=`."
    ),
)
async def notifications(
    request: Request,
    gateway: GatewayDep,
    _bearer_scheme: Credentials,
    _app_scheme: AppKey,
    after: Annotated[
        str, Query(pattern=STREAM_ID, description="Only notifications after this event id.")
    ] = "0",
    limit: Annotated[int, Query(ge=1, le=_PAGE)] = _PAGE,
) -> NotificationsOut:
    player = await player_of(gateway, await caller_of(request, gateway.store.apps))
    found = await gateway.store.inbox.after(player, after, limit)
    return NotificationsOut(
        player=player,
        notifications=[_out(entry, note) for entry, note in found],
        last_event_id=found[-1][0] if found else after,
    )


async def _stream(
    gateway: Gateway, who: Caller, player: str, after: str | None
) -> AsyncIterator[dict[str, Any]]:
    """The player's notifications after ``after`` (or from now on), then each new one.

    The process's player reader (:func:`gateway.live.live_players`) wakes the stream when
    the notifier adds one; it is armed before the first read, so none is missed. The
    credentials are checked again before each later page: a stream opened by an app
    revoked since, or with a seat token re-issued since, ends with ``revoked`` instead of
    sending the player's next notifications."""
    async with gateway.players_live.watch(player) as watch:
        if after is None:
            after = await gateway.store.inbox.newest(player)
        first = True
        while True:
            if not first and not await still_player(gateway, who, player):
                yield {"event": "revoked", "data": json.dumps(_REVOKED)}
                return
            first = False
            found = await gateway.store.inbox.after(player, after, _PAGE)
            for entry, note in found:
                after = entry
                yield {"id": entry, "event": note.kind, "data": _out(entry, note).model_dump_json()}
            if len(found) < _PAGE:
                await watch.wait_past(entry_position(after))


_REVOKED = {
    "code": "auth.invalid",
    "message": "The credentials this stream was opened with no longer speak for its player.",
}

_STREAM_EXAMPLE = (
    "id: 1764483600123-0\nevent: your_turn\ndata: "
    '{"event_id":"1764483600123-0","id":"n_4d1f…","kind":"your_turn","table_id":"5f0c…",'
    '"game":"freunde","seat":1,"version":7,"text":"Your turn in the freunde game (play).",…}\n\n'
)


@router.get(
    "/me/notifications/stream",
    response_class=EventSourceResponse,
    responses={
        200: {
            "description": "An endless text/event-stream of your notifications",
            "content": {
                "text/event-stream": {"schema": {"type": "string"}, "example": _STREAM_EXAMPLE}
            },
        },
        **_ERRORS,
    },
    summary="Server-Sent Events: each new notification of yours, across all your tables",
    description=(
        "Each SSE message has `id` = the notification's event id, `event` = its kind and the"
        " notification as JSON in `data` (the shape of `/v1/me/notifications`). Without"
        " `after` or `Last-Event-ID` it starts with the next notification; reconnecting with"
        " `Last-Event-ID` resumes after that one (`?after=0`: everything kept). A `: ping`"
        " comment every `BW_STREAM_PING_SECONDS` keeps a quiet stream open. The same stream"
        " bounds as a table's stream apply (`stream.too_many`, `stream.capacity`). Once the"
        " credentials no longer speak for the player (the app revoked, the seat token"
        " re-issued), the next wake-up sends one `event: revoked` message and the stream"
        " ends."
    ),
)
async def notification_stream(
    request: Request,
    gateway: GatewayDep,
    _bearer_scheme: Credentials,
    _app_scheme: AppKey,
    after: Annotated[
        str | None, Query(pattern=STREAM_ID, description="Start after this event id.")
    ] = None,
    last_event_id: Annotated[str | None, Header(max_length=48)] = None,
) -> EventSourceResponse:
    who = await caller_of(request, gateway.store.apps)
    player = await player_of(gateway, who)
    resume = (last_event_id or "").strip()
    start = resume if _STREAM_ID.match(resume) else after
    return slot_stream(request, gateway, _stream(gateway, who, player, start))
