"""Board pictures: the caller's view drawn as SVG or PNG, now or at any version.

A picture is drawn by the game (``Engine.picture``) from the view the caller may read
(a spectator the public one, a seat its own), never from the state, so it shows nothing
that view does not. Without ``at`` it is the current view (the read models, as
``GET /v1/tables/{id}``); with ``at=N`` the view after the first N events (as
``/replay``). Each answer carries an ETag naming the version and the viewer: a client
that sends it back in ``If-None-Match`` gets 304 until the table moves on; a picture at a
version never changes, so it may be cached for good.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

import structlog
from fastapi import APIRouter, Query, Request, Response

from gateway.api.deps import Gateway, GatewayDep, TableCaller, TableCallerDep
from gateway.api.reads import replayed, view_for, within_log
from gateway.pictures import PNG_WIDTH, png_of
from gateway.schemas.responses import ErrorOut

__all__ = ["router"]

router = APIRouter(prefix="/v1", tags=["pictures"])
log = structlog.get_logger("gateway")

_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (403, 404, 409, 422, 429, 503)
}
At = Annotated[
    int | None,
    Query(ge=0, le=2**63 - 1, description="Draw the view after this many events (a replay)."),
]
# A picture depends on who asks: caches must key it by the credentials too.
_VARY = "Authorization, X-App-Key, X-App-User"
_FOREVER = 365 * 24 * 3600


async def _picture(
    request: Request, caller: TableCaller, gateway: Gateway, at: int | None, kind: str
) -> Response:
    if at is None:
        current = await view_for(gateway, caller, None)
        version, view = current.version, current.view
    else:
        await within_log(gateway, caller, at)
        version = at
        view, _ = await replayed(gateway, caller, at, caller.seat)
    viewer = "public" if caller.seat is None else f"seat-{caller.seat}"
    etag = f'"{version}-{viewer}-{kind}"'
    scope = "public" if caller.seat is None else "private"
    cache = f"{scope}, max-age={_FOREVER}, immutable" if at is not None else f"{scope}, no-cache"
    headers = {"ETag": etag, "Cache-Control": cache, "Vary": _VARY}
    if _matches(request.headers.get("if-none-match", ""), etag):
        return Response(status_code=304, headers=headers)
    svg = caller.backend.engine.picture(view)
    if kind == "svg":
        return Response(svg, media_type="image/svg+xml", headers=headers)
    # resvg is CPU-bound for tens of milliseconds: off the event loop.
    png = await asyncio.to_thread(png_of, svg)
    log.debug("picture.png", version=version, bytes=len(png))
    return Response(png, media_type="image/png", headers=headers)


def _matches(if_none_match: str, etag: str) -> bool:
    """RFC 9110 If-None-Match: ``*`` or a list of tags, weak ones compared weakly."""
    tags = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
    return "*" in tags or etag in tags


_SVG_EXAMPLE = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="960" height="640" viewBox="0 0 960 640"'
    ' font-family="DejaVu Sans, Arial, sans-serif">…</svg>'
)


def _image(media_type: str, what: str, example: str) -> dict[int | str, dict[str, Any]]:
    media = {"schema": {"type": "string", "format": "binary"}, "example": example}
    return {
        200: {"description": what, "content": {media_type: media}},
        304: {"description": "Not modified: the `If-None-Match` ETag is still current"},
        **_ERRORS,
    }


@router.get(
    "/tables/{table_id}/board.svg",
    response_class=Response,
    responses=_image(
        "image/svg+xml", "The board as SVG (960 x 640 for the kit's games)", _SVG_EXAMPLE
    ),
    summary="The board as the caller may see it, drawn as SVG",
    description=(
        "Drawn from the caller's view (a seat token: that seat's view; none: the public one)"
        " at the current version, or after the first `at` events. ETag by version and"
        " viewer; `If-None-Match` answers 304."
    ),
)
async def board_svg(
    request: Request, caller: TableCallerDep, gateway: GatewayDep, at: At = None
) -> Response:
    return await _picture(request, caller, gateway, at, "svg")


@router.get(
    "/tables/{table_id}/board.png",
    response_class=Response,
    responses=_image(
        "image/png", f"The board as a PNG {PNG_WIDTH} pixels wide", "(PNG bytes: 960 x 640)"
    ),
    summary="The board as the caller may see it, drawn as PNG (for chat platforms)",
    description=(
        f"The same picture as `board.svg`, rendered {PNG_WIDTH} pixels wide (960 x 640 for"
        " the kit's games), readable at a chat embed's size."
    ),
)
async def board_png(
    request: Request, caller: TableCallerDep, gateway: GatewayDep, at: At = None
) -> Response:
    return await _picture(request, caller, gateway, at, "png")
