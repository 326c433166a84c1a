"""Freunde's table as a picture, drawn from a view (``engines.freunde.view``) alone.

The garden fills the left: each plot a hexagon in its colour, with its improvement
(a lettered disc), its bamboo (one segment per section, up to four), a drop when it is
irrigated and its coordinates; irrigation channels are blue lines on the sides they run
along; the pond is blue, the gardener a "G" disc and the panda a "P" disc. The right
column shows each player: score, eaten bamboo, stored channels and improvements, how
many objectives it holds (their kinds, as the card backs show them) and the ones it has
completed. The viewer's own hand, and the plots it is choosing from, are drawn only in
the picture of its own view, because only its own view holds them.
"""

from __future__ import annotations

from typing import Any

from engines.core.picture import (
    HEIGHT,
    WIDTH,
    HexLayout,
    Svg,
    heading,
    legend,
    seat_colour,
    seat_name,
    text_lines,
)
from engines.freunde.state import COLOURS, IMPROVEMENTS, KINDS

__all__ = ["picture"]

_PLOT_FILL = {"green": "#8bc34a", "yellow": "#fdd835", "pink": "#f48fb1"}
_BAMBOO_FILL = {"green": "#2e7d32", "yellow": "#b28704", "pink": "#ad1457"}
_POND = "#64b5f6"
_WATER = "#1565c0"
_LETTER = {"watershed": "W", "fertilizer": "F", "enclosure": "E"}
_WEATHER = {
    "sun": "Sun",
    "rain": "Rain",
    "wind": "Wind",
    "storm": "Storm",
    "clouds": "Clouds",
    "question": "?",
}
_GARDEN_BOX = (12.0, 80.0, 596.0, 520.0)
_PANEL_X = 620.0


def picture(view: dict[str, Any]) -> str:
    """The garden, the players and (in a seat's own view) its hand, as SVG."""
    board = view.get("board") or {}
    svg = Svg(WIDTH, HEIGHT)
    heading(svg, view, "Freunde", _round_line(board))
    if board:
        _garden(svg, board)
    _players(svg, view)
    legend(
        svg,
        16,
        HEIGHT - 14,
        [(_PLOT_FILL[c], c.capitalize()) for c in COLOURS]
        + [(_POND, "Pond / water")]
        + [("#ffffff", f"{_LETTER[i]} = {i.capitalize()}") for i in IMPROVEMENTS],
        size=14,
    )
    return svg.document()


def _round_line(board: dict[str, Any]) -> str:
    if not board:
        return ""
    parts = [f"Round {board.get('round', 0)}"]
    weather = board.get("weather")
    if weather:
        parts.append(f"Weather: {_WEATHER.get(weather, weather)}")
    parts.append(f"Actions {len(board.get('actions_taken', []))}/{board.get('actions_allowed', 0)}")
    decks = board.get("decks", {})
    parts.append(f"Plots left {decks.get('plots', 0)}")
    return " · ".join(parts)


def _garden(svg: Svg, board: dict[str, Any]) -> None:
    plots = board.get("garden", [])
    pond = board.get("pond", {"q": 0, "r": 0})
    pond_at = (pond["q"], pond["r"])
    cells = [pond_at, *((p["q"], p["r"]) for p in plots)]
    layout = HexLayout(cells, _GARDEN_BOX, max_size=64)
    size = layout.size
    x, y = layout.centre(*pond_at)
    svg.group("The pond", class_="pond")
    svg.hexagon(x, y, size * 0.97, fill=_POND, stroke="#555", stroke_width=1.5)
    svg.end_group()
    for plot in plots:
        _plot(svg, layout, plot)
    for a, b in board.get("channels", []):
        (x1, y1), (x2, y2) = layout.edge(tuple(a), tuple(b))
        svg.line(
            x1,
            y1,
            x2,
            y2,
            stroke=_WATER,
            stroke_width=max(3, size * 0.14),
            stroke_linecap="round",
            class_="channel",
        )
    _figure(svg, layout, board.get("gardener"), "G", "#795548", "#fff", "gardener")
    _figure(svg, layout, board.get("panda"), "P", "#ffffff", "#111", "panda")


def _plot(svg: Svg, layout: HexLayout, plot: dict[str, Any]) -> None:
    q, r, colour = plot["q"], plot["r"], plot.get("colour", "green")
    improvement, bamboo = plot.get("improvement", "none"), int(plot.get("bamboo", 0))
    x, y = layout.centre(q, r)
    size = layout.size
    words = [f"{colour} plot at ({q}, {r})", f"{bamboo} bamboo"]
    if improvement != "none":
        words.append(improvement)
    if plot.get("irrigated"):
        words.append("irrigated")
    svg.group(", ".join(words))
    svg.hexagon(
        x,
        y,
        size * 0.97,
        fill=_PLOT_FILL.get(colour, "#ccc"),
        stroke="#555",
        stroke_width=1.5,
        class_="plot",
    )
    piece_w, piece_h = size * 0.3, size * 0.17
    for height in range(bamboo):
        svg.rect(
            x - piece_w / 2,
            y + size * 0.2 - (height + 1) * (piece_h + 1),
            piece_w,
            piece_h,
            rx=2,
            fill=_BAMBOO_FILL.get(colour, "#333"),
            stroke="#fff",
            stroke_width=0.8,
            class_="bamboo",
        )
    if improvement != "none":
        svg.circle(
            x + size * 0.45,
            y - size * 0.35,
            size * 0.2,
            fill="#fff",
            stroke="#333",
            class_="improvement",
        )
        svg.text(
            x + size * 0.45,
            y - size * 0.35 + size * 0.09,
            _LETTER.get(improvement, "?"),
            size=max(9, int(size * 0.26)),
            text_anchor="middle",
            font_weight="bold",
        )
    if plot.get("irrigated"):
        svg.circle(x - size * 0.45, y - size * 0.35, size * 0.1, fill=_WATER, class_="irrigated")
    svg.text(
        x,
        y + size * 0.62,
        f"{q},{r}",
        size=max(9, int(size * 0.24)),
        text_anchor="middle",
        fill="#333",
    )
    svg.end_group()


def _figure(
    svg: Svg, layout: HexLayout, at: Any, letter: str, fill: str, ink: str, name: str
) -> None:
    if not at:
        return
    x, y = layout.centre(at[0], at[1])
    size = layout.size
    dx = -0.42 if name == "gardener" else 0.42
    svg.group(f"The {name} at ({at[0]}, {at[1]})")
    svg.circle(
        x + dx * size,
        y + size * 0.12,
        size * 0.22,
        fill=fill,
        stroke="#111",
        stroke_width=1.5,
        class_=name,
    )
    svg.text(
        x + dx * size,
        y + size * 0.21,
        letter,
        size=max(10, int(size * 0.28)),
        text_anchor="middle",
        font_weight="bold",
        fill=ink,
    )
    svg.end_group()


def _players(svg: Svg, view: dict[str, Any]) -> None:
    players = view.get("players", [])
    private = view.get("private") or {}
    own = view.get("viewer")
    mine = bool(private.get("hand") or private.get("drawn_plots"))
    room = (HEIGHT - 120) - (150 if mine else 0)
    step = min(150.0, room / max(1, len(players)))
    to_act = set(view.get("to_act", []))
    for row, player in enumerate(players):
        acting = player.get("seat", row) in to_act
        _player(svg, view, player, 84 + row * step, step, acting)
    if mine and own is not None:
        _own_hand(svg, private, 84 + len(players) * step + 4)


def _player(
    svg: Svg, view: dict[str, Any], player: dict[str, Any], top: float, room: float, acting: bool
) -> None:
    seat = int(player.get("seat", 0))
    x = _PANEL_X
    svg.group(f"{seat_name(seat, view)}", class_="player")
    svg.rect(x, top, WIDTH - x - 10, 20, rx=3, fill=seat_colour(seat))
    marker = "▶ " if acting else ""
    emperor = "  · Emperor" if player.get("emperor") else ""
    svg.text(
        x + 6,
        top + 15,
        f"{marker}{seat_name(seat, view)}{emperor}",
        size=15,
        fill="#fff",
        font_weight="bold",
    )
    svg.text(
        WIDTH - 16,
        top + 15,
        f"{player.get('score', 0)} pts",
        size=15,
        fill="#fff",
        text_anchor="end",
        font_weight="bold",
    )
    line = top + 37
    bamboo = player.get("bamboo", {})
    bx = x + 4
    svg.text(bx, line, "Bamboo", size=13)
    bx += 58
    for colour in COLOURS:
        svg.rect(bx, line - 11, 9, 13, rx=2, fill=_BAMBOO_FILL[colour])
        svg.text(bx + 12, line, str(bamboo.get(colour, 0)), size=13, class_="eaten")
        bx += 36
    svg.text(bx + 4, line, f"Channels {player.get('irrigation', 0)}", size=13)
    improvements = player.get("improvements", {})
    held = " ".join(f"{_LETTER[i]}{improvements.get(i, 0)}" for i in IMPROVEMENTS)
    kinds = player.get("hand_kinds", {})
    backs = " · ".join(f"{kinds.get(k, 0)} {k}" for k in KINDS)
    svg.text(x + 4, line + 17, f"Chips {held}", size=13)
    svg.text(x + 4, line + 34, f"Holds {len(player.get('hand', []))}: {backs}", size=13)
    claimed = player.get("claimed", [])
    done = ", ".join(f"{c.get('name', '?')} ({c.get('points', 0)})" for c in claimed)
    most = max(1, int((room - 74) // 17))
    text_lines(
        svg, x + 4, line + 51, f"Completed: {done or 'none'}", 44, most, size=13, class_="claimed"
    )
    svg.end_group()


def _own_hand(svg: Svg, private: dict[str, Any], top: float) -> None:
    x = _PANEL_X
    svg.group("Your hand", class_="own-hand")
    svg.rect(x, top, WIDTH - x - 10, 20, rx=3, fill="#333")
    svg.text(x + 6, top + 15, "Your objectives (only you see these)", size=14, fill="#fff")
    line = top + 38
    for card in private.get("hand", []):
        words = f"{card.get('name', '?')} · {card.get('kind', '')} · {card.get('points', 0)}"
        svg.text(x + 6, line, _clip(words, 40), size=14, class_="own-objective")
        line += 18
    drawn = private.get("drawn_plots", [])
    if drawn:
        chosen = ", ".join(
            f"{t.get('colour', '')}"
            + (f" {t.get('improvement')}" if t.get("improvement") not in (None, "none") else "")
            for t in drawn
        )
        svg.text(x + 6, line, _clip(f"Drawn plots: {chosen}", 40), size=14, class_="drawn-plot")
    svg.end_group()


def _clip(words: str, most: int) -> str:
    """One line of the side panel: longer text is cut with an ellipsis."""
    return words if len(words) <= most else words[: most - 1] + "…"
