"""Harvest's table as a picture, drawn from a view (``engines.harvest.view``) alone.

The left shows each farm: its player, Character and Farmhouse (a hidden choice reads
"hidden"), its goods, seeds and Sunrise tile, and the field of squares with its Forest
tiles, buildings and crops (a Blueberry bush carrying a berry has a dot). The right
shows the Town Board: every action space with the workers placed on it in the seat's
colour, the Workshop's buildings, the Farmer's Market tiles, the Sunrise order and the
tiles on offer. A Blueberry seed grows a bush ("Bu"), drawn with a dot while it carries
a berry. The fixed content (the spaces, the field's size, the names) comes from
the game's data files; everything that changes comes from the view. While the seats
choose their start, the viewer's own farm lists what was dealt to it.
"""

from __future__ import annotations

from typing import Any

from engines.core.picture import (
    HEIGHT,
    WIDTH,
    Svg,
    heading,
    label_box,
    legend,
    seat_colour,
    seat_name,
    text_lines,
    title_case,
)
from engines.harvest.content import content

__all__ = ["picture"]

_CROP_FILL = {
    "wheat": "#f2c14e",
    "strawberry": "#e4572e",
    "blueberry": "#3f6fd8",
    "pumpkin": "#f28c28",
    "bush": "#6b8e23",
}
_FOREST = "#2d6a4f"
_BUILDING = "#a47148"
_SOIL = "#e9dcc0"
_SEED_LETTER = {"wheat": "W", "strawberry": "S", "blueberry": "B", "pumpkin": "P", "bush": "Bu"}
_FARM_W, _FARM_H = 310.0, 266.0
_TOWN_X = 640.0


def picture(view: dict[str, Any]) -> str:
    """Every farm, and the Town Board with its workers, as SVG."""
    board = view.get("board") or {}
    svg = Svg(WIDTH, HEIGHT)
    heading(svg, view, "Harvest", _round_line(board))
    for index, player in enumerate(view.get("players", [])[:4]):
        x = 10 + (index % 2) * (_FARM_W + 6)
        y = 76 + (index // 2) * (_FARM_H + 6)
        _farm(svg, view, player, x, y)
    if board:
        _town(svg, board, view)
    legend(
        svg,
        16,
        HEIGHT - 12,
        [(_CROP_FILL[c], c.capitalize()) for c in _CROP_FILL]
        + [(_FOREST, "Forest"), (_BUILDING, "Building"), (_SOIL, "Open land")],
        size=13,
    )
    return svg.document()


def _round_line(board: dict[str, Any]) -> str:
    if not board:
        return ""
    parts = [f"Round {board.get('round', 0)} of {content().rounds}"]
    phase = board.get("phase", "")
    if phase:
        parts.append(title_case(phase))
    return " · ".join(parts)


def _farm(svg: Svg, view: dict[str, Any], player: dict[str, Any], x: float, y: float) -> None:
    seat = int(player.get("seat", 0))
    svg.group(f"The farm of {seat_name(seat, view)}", class_="farm")
    svg.rect(x, y, _FARM_W, _FARM_H, rx=6, fill="#fffdf7", stroke="#999")
    svg.rect(x, y, _FARM_W, 22, rx=6, fill=seat_colour(seat))
    acting = "▶ " if seat in view.get("to_act", []) else ""
    svg.text(
        x + 6, y + 16, f"{acting}{seat_name(seat, view)}", size=15, fill="#fff", font_weight="bold"
    )
    svg.text(
        x + _FARM_W - 6,
        y + 16,
        f"{player.get('points', 0)} pts",
        size=15,
        fill="#fff",
        text_anchor="end",
        font_weight="bold",
        class_="points",
    )
    character = _character(player.get("character"))
    farmhouse = title_case(player.get("farmhouse") or "") or "hidden Farmhouse"
    text_lines(svg, x + 6, y + 40, f"{character} · {farmhouse}", 40, 1, size=13)
    goods = (
        f"Coins {player.get('coins', 0)} · Water {player.get('water', 0)}/"
        f"{player.get('bucket', 0)} · Fertilizer {player.get('fertilizer', 0)}"
    )
    svg.text(x + 6, y + 58, goods, size=13, class_="goods")
    seeds = player.get("seeds", {})
    held = " ".join(f"{_SEED_LETTER.get(k, k[:1].upper())}{v}" for k, v in seeds.items())
    svg.text(x + 6, y + 76, f"Seeds {held} · Workers {player.get('pieces', 0)}", size=13)
    _field(svg, player, x + 6, y + 86)
    side = x + 6 + 6 * 28 + 10
    svg.text(side, y + 100, f"Sunrise tile {player.get('sunrise', 0)}", size=13)
    if player.get("rerolls"):
        svg.text(side, y + 118, f"Re-rolls {player['rerolls']}", size=13)
    names = [_building_name(b.get("building", "")) for b in player.get("buildings", [])]
    svg.text(side, y + 140, "Buildings", size=13, font_weight="bold")
    text_lines(svg, side, y + 158, ", ".join(names) or "none", 16, 6, size=12)
    dealt = _dealt(view) if seat == view.get("viewer") else []
    for row, words in enumerate(dealt):
        svg.text(side, y + 190 + row * 14, words, size=10, class_="dealt")
    svg.end_group()


def _field(svg: Svg, player: dict[str, Any], x: float, y: float) -> None:
    """The farm's field: Forest tiles and buildings cover 2x2 squares, crops their own."""
    grid = content().grid
    cell = min(28.0, 168.0 / max(grid.cols, grid.rows))
    for r in range(grid.rows):
        for c in range(grid.cols):
            svg.rect(x + c * cell, y + r * cell, cell - 1, cell - 1, fill=_SOIL)
    for number in player.get("forests", []):
        r, c = divmod(int(number), grid.cols)
        svg.rect(
            x + c * cell,
            y + r * cell,
            2 * cell - 1,
            2 * cell - 1,
            rx=3,
            fill=_FOREST,
            class_="forest",
        )
    for building in player.get("buildings", []):
        numbers = [int(n) for n in building.get("cells", [])]
        if not numbers:
            continue
        rows = [n // grid.cols for n in numbers]
        cols = [n % grid.cols for n in numbers]
        left, top = x + min(cols) * cell, y + min(rows) * cell
        w = (max(cols) - min(cols) + 1) * cell - 1
        h = (max(rows) - min(rows) + 1) * cell - 1
        name = _building_name(building.get("building", ""))
        svg.group(name, class_="building")
        svg.rect(left, top, w, h, rx=3, fill=_BUILDING, stroke="#5c3d1e")
        text_lines(svg, left + 3, top + 14, name, max(4, int(w / 6)), 2, size=10, fill="#fff")
        svg.end_group()
    for crop in player.get("crops", []):
        kind = crop.get("crop", "")
        svg.group(f"{kind} crop", class_="crop")
        for number in crop.get("cells", []):
            r, c = divmod(int(number), grid.cols)
            cx, cy = x + c * cell, y + r * cell
            svg.rect(
                cx + 1,
                cy + 1,
                cell - 3,
                cell - 3,
                rx=4,
                fill=_CROP_FILL.get(kind, "#999"),
                class_="crop-cell",
            )
            svg.text(
                cx + cell / 2,
                cy + cell / 2 + 4,
                _SEED_LETTER.get(kind, "?"),
                size=11,
                fill="#fff",
                text_anchor="middle",
                font_weight="bold",
            )
        if crop.get("berry"):
            r, c = divmod(int(crop["cells"][0]), grid.cols)
            svg.circle(
                x + c * cell + cell - 7,
                y + r * cell + 7,
                4,
                fill="#1b2a6b",
                stroke="#fff",
                class_="berry",
            )
        svg.end_group()


def _town(svg: Svg, board: dict[str, Any], view: dict[str, Any]) -> None:
    x, y = _TOWN_X, 76.0
    svg.group("The Town Board", class_="town")
    svg.rect(x, y, WIDTH - x - 10, HEIGHT - y - 30, rx=6, fill="#fffdf7", stroke="#999")
    svg.text(x + 8, y + 20, "Town Board", size=16, font_weight="bold")
    workers: dict[str, list[int]] = {}
    for placed in board.get("placements", []):
        workers.setdefault(placed.get("space", ""), []).append(int(placed.get("seat", 0)))
    row_y = y + 30
    for section in content().sections:
        spaces = [s for s in content().spaces if s.section == section]
        svg.text(x + 8, row_y + 14, title_case(section), size=12, fill="#444")
        row_y += 18
        width = (WIDTH - x - 28) / max(1, len(spaces))
        for index, space in enumerate(spaces):
            bx = x + 8 + index * (width + 2)
            label_box(
                svg,
                bx,
                row_y,
                width - 2,
                30,
                _space_label(space.id, space.value, space.market, space.market_space),
                size=11,
                class_="space",
            )
            for n, seat in enumerate(workers.get(space.id, [])):
                svg.circle(
                    bx + 10 + n * 14,
                    row_y + 30,
                    7,
                    fill=seat_colour(seat),
                    stroke="#111",
                    class_="worker",
                )
        row_y += 46
    workshop = ", ".join(_building_name(b) if b else "—" for b in board.get("workshop", []))
    row_y += 4
    lines = text_lines(svg, x + 8, row_y, f"Workshop: {workshop}", 40, 3, size=12)
    row_y += lines * 16 + 2
    market = board.get("market", {})
    stall = ", ".join(title_case(t) for t in (market.get("large"), market.get("small")) if t)
    lines = text_lines(svg, x + 8, row_y, f"Market: {stall or 'none'}", 40, 2, size=12)
    row_y += lines * 16 + 2
    svg.text(
        x + 8, row_y, f"Buildings left in the stacks: {board.get('building_stack', 0)}", size=12
    )
    row_y += 20
    order = " → ".join(seat_name(int(s), view) for s in board.get("order", []))
    lines = text_lines(
        svg, x + 8, row_y, f"Sunrise order: {order or '—'}", 40, 2, size=13, class_="sunrise-order"
    )
    row_y += lines * 17
    offer = ", ".join(str(t) for t in board.get("display", []))
    svg.text(x + 8, row_y, f"Sunrise tiles on offer: {offer or 'none'}", size=12)
    gairy = board.get("gairy")
    if gairy:
        row_y += 18
        svg.text(
            x + 8,
            row_y,
            f"Gairy: Sunrise {gairy.get('sunrise', 0)}, {gairy.get('pieces', 0)} workers",
            size=12,
        )
    final = board.get("final", [])
    if final:
        row_y += 20
        totals = ", ".join(f"{seat_name(int(f['seat']), view)} {f['total']}" for f in final)
        text_lines(svg, x + 8, row_y, f"Final: {totals}", 40, 2, size=13, font_weight="bold")
    svg.end_group()


def _dealt(view: dict[str, Any]) -> list[str]:
    """While the seats choose, the Characters and Farmhouses dealt to the viewer (its own
    view holds them; no other does), one to a line."""
    private = view.get("private") or {}
    if (view.get("board") or {}).get("phase") != "choose_start":
        return []
    characters = [_character(c) for c in private.get("dealt_characters", [])]
    farmhouses = [title_case(f) for f in private.get("dealt_farmhouses", [])]
    return ["Dealt to you:", *characters, *farmhouses] if characters or farmhouses else []


def _space_label(ident: str, value: int, market: str, market_space: int) -> str:
    if market:
        return f"Market {market} {market_space + 1}"
    section = ident.rsplit("_", 1)[0]
    return f"{title_case(section)} {value}"


def _character(ident: str | None) -> str:
    if not ident:
        return "hidden Character"
    return str(content().character(ident).get("name") or title_case(ident))


def _building_name(ident: str) -> str:
    return title_case(ident)
