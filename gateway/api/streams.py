"""Server-Sent Events responses that hold one of the gateway's stream slots
(:class:`gateway.live.StreamSlots`) for as long as they are open: the table streams and the
per-player notification streams share the same bounds."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import Request
from sse_starlette import EventSourceResponse
from starlette.types import Receive, Scope, Send

from gateway.api.deps import Gateway
from gateway.errors import RETRY_AFTER_UNAVAILABLE, ApiError

__all__ = ["slot_stream"]


def slot_stream(
    request: Request, gateway: Gateway, content: AsyncIterator[dict[str, Any]]
) -> EventSourceResponse:
    """``content`` as an SSE response, once a slot is free for the client's address:
    429 ``stream.too_many`` past ``BW_STREAMS_PER_ADDRESS``, 503 ``stream.capacity`` past
    ``BW_MAX_STREAMS``."""
    address = request.client.host if request.client else "unknown"
    bound = gateway.streams.take(address)
    if bound == "address":
        raise ApiError(
            429,
            "stream.too_many",
            f"This address has {gateway.streams.per_address} streams open here already.",
            {"max_streams": str(gateway.streams.per_address)},
        )
    if bound == "total":
        raise ApiError(
            503,
            "stream.capacity",
            "This gateway holds as many streams as it can; retry later.",
            headers={"Retry-After": str(RETRY_AFTER_UNAVAILABLE)},
        )
    return _SlotStream(
        content,
        release=lambda: gateway.streams.give_back(address),
        ping=gateway.settings.stream_ping_seconds,
    )


class _SlotStream(EventSourceResponse):
    """An SSE response that gives its stream slot back however it ends (the generator
    alone would not, when the client leaves before the first message)."""

    def __init__(
        self, content: AsyncIterator[dict[str, Any]], release: Callable[[], None], ping: float
    ) -> None:
        super().__init__(content, ping=ping)
        self._release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._release()
