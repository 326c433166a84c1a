"""Board pictures: each game draws its table as SVG, from a view and nothing else.

A picture is drawn from what a viewer may see (the view envelope of
:mod:`engines.core.view`), never from the state, so it cannot show a secret the view
does not. :class:`Svg` is the small writer every game's drawing uses (escaped text,
shapes, hexagons); :func:`plain_picture` is the kit's fallback for a game that draws
nothing of its own: the players, their scores and whose turn it is.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

__all__ = ["Svg", "plain_picture"]


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

    def group(self, title: str) -> None:
        """Start a group named ``title`` (tests and screen readers find elements by it)."""
        self._parts.append(f"<g>{'' if not title else f'<title>{escape(title)}</title>'}")

    def end_group(self) -> None:
        self._parts.append("</g>")

    def document(self) -> str:
        return "\n".join([*self._parts, "</svg>"])


def plain_picture(view: dict[str, Any], title: str) -> str:
    """The players, scores and whose turn it is, for a game without its own drawing."""
    players = view.get("players", [])
    svg = Svg(640, 120 + 40 * len(players))
    svg.text(24, 44, title, size=26, font_weight="bold")
    status = "Game over" if view.get("finished") else f"Stage: {view.get('stage', '')}"
    svg.text(24, 76, status, size=16)
    to_act = set(view.get("to_act", []))
    for row, player in enumerate(players):
        seat = player.get("seat", row)
        y = 120 + 40 * row
        marker = "▶ " if seat in to_act else ""
        score = player.get("score", "")
        svg.text(24, y, f"{marker}Seat {seat}", size=18)
        svg.text(320, y, f"{score}", size=18)
    return svg.document()
