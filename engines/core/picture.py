"""Board pictures: each game draws its table as SVG, from a view and nothing else.

A picture is drawn from what a viewer may see (the view envelope of
:mod:`engines.core.view`), never from the state, so it cannot show a secret the view
does not. :class:`Svg` is the small writer every game's drawing uses (escaped text,
shapes, hexagons); :func:`plain_picture` is the kit's fallback for a game that draws
nothing of its own: the players, their scores and whose turn it is.

The drawing helpers every game shares live here once: seat colours, a heading (the
game, its stage and whose turn it is), hex cells laid out to fit a box, the edge two
hexes share, labelled boxes and legends. Pictures are drawn at :data:`WIDTH` x
:data:`HEIGHT` (960 x 640), readable at a chat embed's size; shapes a test or a screen
reader looks for carry a ``class`` naming what they are ("plot", "bamboo", "worker").
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

__all__ = [
    "HEIGHT",
    "WIDTH",
    "HexLayout",
    "Svg",
    "heading",
    "label_box",
    "legend",
    "plain_picture",
    "seat_colour",
    "seat_name",
    "text_lines",
    "title_case",
]

WIDTH = 960
HEIGHT = 640


def _attrs(attributes: dict[str, Any]) -> str:
    return "".join(
        f" {name.rstrip('_').replace('_', '-')}={quoteattr(str(value))}"
        for name, value in attributes.items()
        if value is not None
    )


class Svg:
    """An SVG document built shape by shape; :meth:`text` closes and returns it."""

    def __init__(self, width: int, height: int, background: str = "#fbf8f0") -> None:
        self.width = width
        self.height = height
        self._parts: list[str] = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif">',
            f'<rect width="{width}" height="{height}" fill="{background}"/>',
        ]

    def rect(self, x: float, y: float, w: float, h: float, **attributes: Any) -> None:
        self._parts.append(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}"'
                           f"{_attrs(attributes)}/>")  # fmt: skip

    def circle(self, x: float, y: float, r: float, **attributes: Any) -> None:
        self._parts.append(f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}"{_attrs(attributes)}/>')

    def line(self, x1: float, y1: float, x2: float, y2: float, **attributes: Any) -> None:
        self._parts.append(
            f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}"{_attrs(attributes)}/>'
        )

    def polygon(self, points: Sequence[tuple[float, float]], **attributes: Any) -> None:
        joined = " ".join(f"{x:g},{y:g}" for x, y in points)
        self._parts.append(f'<polygon points="{joined}"{_attrs(attributes)}/>')

    def hexagon(self, x: float, y: float, size: float, **attributes: Any) -> None:
        """A pointy-top hexagon centred on (x, y) with corners ``size`` away."""
        corners = [
            (x + size * math.cos(math.radians(60 * i - 30)),
             y + size * math.sin(math.radians(60 * i - 30)))
            for i in range(6)
        ]  # fmt: skip
        self.polygon(corners, **attributes)

    def text(self, x: float, y: float, words: str, size: int = 14, **attributes: Any) -> None:
        self._parts.append(
            f'<text x="{x:g}" y="{y:g}" font-size="{size}"{_attrs(attributes)}>'
            f"{escape(words)}</text>"
        )

    def group(self, title: str, **attributes: Any) -> None:
        """Start a group named ``title`` (tests and screen readers find elements by it)."""
        named = "" if not title else f"<title>{escape(title)}</title>"
        self._parts.append(f"<g{_attrs(attributes)}>{named}")

    def end_group(self) -> None:
        self._parts.append("</g>")

    def document(self) -> str:
        return "\n".join([*self._parts, "</svg>"])


def plain_picture(view: dict[str, Any], title: str) -> str:
    """The players, scores and whose turn it is, for a game without its own drawing."""
    players = view.get("players", [])
    svg = Svg(WIDTH, HEIGHT)
    heading(svg, view, title)
    to_act = set(view.get("to_act", []))
    for row, player in enumerate(players[:12]):
        seat = player.get("seat", row)
        y = 130 + 40 * row
        marker = "▶ " if seat in to_act else ""
        score = player.get("score", "")
        svg.text(24, y, f"{marker}{seat_name(seat, view)}", size=20)
        svg.text(320, y, f"{score}", size=20)
    return svg.document()


# -- shared drawing helpers -----------------------------------------------------------------

# Eight colours told apart by most readers, colour-blind ones included (Okabe-Ito, darkened
# a little so white text on them stays readable).
_SEAT_COLOURS = (
    "#d55e00", "#0072b2", "#009e73", "#cc79a7",
    "#b8860b", "#56b4e9", "#6a3d9a", "#555555",
)  # fmt: skip


def seat_colour(seat: int) -> str:
    """The colour a seat's pieces are drawn in, the same in every game's picture."""
    return _SEAT_COLOURS[seat % len(_SEAT_COLOURS)]


def seat_name(seat: int, view: dict[str, Any]) -> str:
    """``Seat 2``, or ``You (seat 2)`` in the picture of that seat's own view."""
    return f"You (seat {seat})" if view.get("viewer") == seat else f"Seat {seat}"


def title_case(ident: str) -> str:
    """A content id as a person reads it: ``well_house`` -> ``Well House``."""
    return " ".join(word.capitalize() for word in ident.split("_") if word)


def heading(svg: Svg, view: dict[str, Any], title: str, detail: str = "") -> None:
    """The game's name and ``detail`` on the first line; whose turn it is (or that the
    game is over) on the second, named the same way in every game."""
    svg.text(20, 36, title, size=26, font_weight="bold")
    if detail:
        svg.text(32 + 17 * len(title), 36, detail, size=18, fill="#444")
    to_act = view.get("to_act", [])
    if view.get("finished"):
        status = "Game over"
    elif to_act:
        status = "To act: " + ", ".join(seat_name(seat, view) for seat in to_act)
    else:
        status = f"Stage: {title_case(str(view.get('stage', '')))}"
    svg.text(20, 62, status, size=18, class_="to-act")


def label_box(
    svg: Svg,
    x: float,
    y: float,
    w: float,
    h: float,
    label: str,
    fill: str = "#ffffff",
    size: int = 13,
    **attributes: Any,
) -> None:
    """A rounded box with ``label`` centred in it (a card, a space, a building)."""
    svg.rect(x, y, w, h, rx=4, fill=fill, stroke="#333", stroke_width=1, **attributes)
    svg.text(x + w / 2, y + h / 2 + size * 0.35, label, size=size, text_anchor="middle")


def legend(
    svg: Svg, x: float, y: float, entries: Sequence[tuple[str, str]], size: int = 13
) -> None:
    """Colour swatches with what they mean, one entry after another on a row."""
    for colour, meaning in entries:
        svg.rect(x, y - size + 2, size, size, fill=colour, stroke="#333", stroke_width=0.5)
        svg.text(x + size + 4, y, meaning, size=size)
        x += size + 12 + 0.6 * size * len(meaning)


def text_lines(
    svg: Svg,
    x: float,
    y: float,
    words: str,
    width: int,
    most: int,
    size: int = 14,
    **attributes: Any,
) -> int:
    """``words`` wrapped at ``width`` characters, on ``most`` lines at most (the last one
    cut with an ellipsis); returns the number of lines written."""
    lines = textwrap.wrap(words, width) or [""]
    if len(lines) > most:
        lines = lines[:most]
        lines[-1] = lines[-1][: width - 1] + "…"
    for row, line in enumerate(lines):
        svg.text(x, y + row * (size + 4), line, size=size, **attributes)
    return len(lines)


_SQRT3 = math.sqrt(3)


class HexLayout:
    """Pointy-top axial hexes (``engines.core.hexgrid``: ``r`` grows downwards) scaled
    and centred to fit a box, never larger than ``max_size``."""

    def __init__(
        self,
        cells: Sequence[tuple[int, int]],
        box: tuple[float, float, float, float],
        max_size: float = 48,
    ) -> None:
        x, y, w, h = box
        points = [(_SQRT3 * (q + r / 2), 1.5 * r) for q, r in cells] or [(0.0, 0.0)]
        left = min(p[0] for p in points) - _SQRT3 / 2
        right = max(p[0] for p in points) + _SQRT3 / 2
        top = min(p[1] for p in points) - 1
        bottom = max(p[1] for p in points) + 1
        self.size = min(max_size, w / (right - left), h / (bottom - top))
        self._x = x + (w - (right - left) * self.size) / 2 - left * self.size
        self._y = y + (h - (bottom - top) * self.size) / 2 - top * self.size

    def centre(self, q: int, r: int) -> tuple[float, float]:
        return (
            self._x + self.size * _SQRT3 * (q + r / 2),
            self._y + self.size * 1.5 * r,
        )

    def edge(
        self, a: tuple[int, int], b: tuple[int, int]
    ) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two ends of the side neighbours ``a`` and ``b`` share."""
        (ax, ay), (bx, by) = self.centre(*a), self.centre(*b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        dx, dy = bx - ax, by - ay
        length = math.hypot(dx, dy) or 1.0
        # The shared side is perpendicular to the line between the centres, one side long.
        px, py = -dy / length * self.size / 2, dx / length * self.size / 2
        return (mx - px, my - py), (mx + px, my + py)
