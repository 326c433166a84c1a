"""Board pictures as PNG, for chat platforms that show no SVG.

The games draw SVG (``engines.core.picture``); resvg (the ``resvg-py`` wheel: a Rust
renderer with no system library to install) turns it into a PNG :data:`PNG_WIDTH`
pixels wide, its height following the drawing's proportions: 960 x 640 for every game
drawn at the kit's size. Text uses the machine's fonts (DejaVu Sans on Debian).

Rendering costs about 70 ms of CPU for a 960 x 640 board, so the last few PNGs are kept,
keyed by a digest of the SVG they were drawn from: the same picture asked for again (a
chat bot and its users fetching one board) is rendered once, and two viewers share an
entry only when their pictures are the same document.
"""

from __future__ import annotations

import hashlib
import re
import threading

import resvg_py
from cachetools import LRUCache

__all__ = ["PNG_WIDTH", "png_of"]

PNG_WIDTH = 960

_VIEWBOX = re.compile(r'viewBox="0 0 ([0-9.]+) ([0-9.]+)"')
# About 100 kB each.
_RENDERED: LRUCache[bytes, bytes] = LRUCache(maxsize=64)
# png_of runs on worker threads (off the event loop); the cache is not thread-safe.
_LOCK = threading.Lock()


def png_of(svg: str) -> bytes:
    """``svg`` rendered as a PNG :data:`PNG_WIDTH` pixels wide."""
    key = hashlib.sha256(svg.encode()).digest()
    with _LOCK:
        kept = _RENDERED.get(key)
    if kept is not None:
        return kept
    found = _VIEWBOX.search(svg[:400])
    width, height = (float(found[1]), float(found[2])) if found else (960.0, 640.0)
    png = bytes(
        resvg_py.svg_to_bytes(
            svg_string=svg, width=PNG_WIDTH, height=round(PNG_WIDTH * height / width)
        )
    )
    with _LOCK:
        _RENDERED[key] = png
    return png
