"""Board pictures as PNG, for chat platforms that show no SVG.

The games draw SVG (``engines.core.picture``); resvg (the ``resvg-py`` wheel: a Rust
renderer with no system library to install) turns it into a PNG :data:`PNG_WIDTH`
pixels wide, its height following the drawing's proportions: 960 x 640 for every game
drawn at the kit's size. Text uses the machine's fonts (DejaVu Sans on Debian).
"""

from __future__ import annotations

import re

import resvg_py

__all__ = ["PNG_WIDTH", "png_of"]

PNG_WIDTH = 960

_VIEWBOX = re.compile(r'viewBox="0 0 ([0-9.]+) ([0-9.]+)"')


def png_of(svg: str) -> bytes:
    """``svg`` rendered as a PNG :data:`PNG_WIDTH` pixels wide."""
    found = _VIEWBOX.search(svg[:400])
    width, height = (float(found[1]), float(found[2])) if found else (960.0, 640.0)
    png = resvg_py.svg_to_bytes(
        svg_string=svg, width=PNG_WIDTH, height=round(PNG_WIDTH * height / width)
    )
    return bytes(png)
