"""Pages a person opens in a browser: the replay page of a table.

The page is plain HTML, CSS and a little JavaScript from ``gateway/static/replay`` (no
build step, nothing loaded from elsewhere, so it works offline); it reads everything
through the public ``/v1`` API as the person's browser, with the seat token it was given
(if any) in a header. Its Content-Security-Policy allows only this gateway's own
scripts, styles and requests, and pictures from blob URLs the page makes itself.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

from gateway.api.deps import TableIdPath

__all__ = ["STATIC", "router"]

STATIC = Path(__file__).resolve().parents[2] / "static"

router = APIRouter(tags=["pages"])

_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self' blob:;"
        " img-src 'self' blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}


@router.get("/replay/{table_id}", include_in_schema=False)
async def replay_page(table_id: TableIdPath) -> FileResponse:
    """The replay page; the table id is read back from the address by its script."""
    return FileResponse(STATIC / "replay" / "index.html", media_type="text/html", headers=_HEADERS)
