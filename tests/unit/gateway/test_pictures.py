"""PNG conversion: the documented width, the drawing's proportions, real PNG bytes."""

from __future__ import annotations

import struct
import time

from engines.core.contract import TableConfig
from engines.core.picture import Svg
from engines.core.play import Table
from gateway.pictures import PNG_WIDTH, png_of
from tests.kit_example.goofspiel.engine import ENGINE as GOOFSPIEL


def _size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def test_a_kit_picture_renders_at_960_by_640() -> None:
    """A game without a drawing of its own gets the kit's plain picture, at the same size."""
    table = Table.create(GOOFSPIEL, TableConfig("pictures", 3, {"cards": 5}), b"seed")
    svg = GOOFSPIEL.picture(GOOFSPIEL.view(table.state, None))
    assert "Seat 2" in svg
    assert _size(png_of(svg)) == (PNG_WIDTH, 640) == (960, 640)


def test_a_drawing_of_other_proportions_keeps_them() -> None:
    square = Svg(300, 300)
    square.hexagon(150, 150, 100, fill="#8bc34a")
    assert _size(png_of(square.document())) == (960, 960)


def test_the_same_picture_is_rendered_once() -> None:
    drawing = Svg(960, 640)
    drawing.text(20, 40, "rendered once", size=30)
    svg = drawing.document()
    started = time.process_time()
    first = png_of(svg)
    rendering = time.process_time() - started
    started = time.process_time()
    again = png_of(svg)
    cached = time.process_time() - started
    assert again == first
    print(f"render {rendering * 1000:.1f} ms CPU, from the cache {cached * 1000:.3f} ms CPU")
