"""Tend's table as an SVG picture (960 x 640), drawn from a view and nothing else.

Across the top: the round and phase, the five face-up task cards, the season tops and
the three season objectives. Below, one panel per seat (1, 2, 4 or 8 to a screen):
its farm area (tilled soil, fences, trellises, crop and animal dice with their values),
its woods and mine (rock and the squares scratched, as the view shows them; an
unscratched square is a blank grey square, since the view does not say what it holds
and neither does anything else), its cargo manifest with the three stalls and the
goods shipped, and its score. Elements carry a ``<title>`` (``Seat 0 woods row 1,
column 2: wood``) so tests and screen readers can find them.
"""

from __future__ import annotations

from typing import Any

from engines.core.picture import Svg
from engines.tend.content import content

__all__ = ["HEIGHT", "WIDTH", "picture"]

WIDTH, HEIGHT = 960, 640
_TOP = 96  # the height of the table band above the seats' panels
_TYPE_COLOURS = {
    "farm": "#8cbf4f",
    "mining": "#b08a5a",
    "fish": "#5aa0d8",
    "social": "#d87aa8",
    "badge": "#e0b84a",
}
_DIE_STROKES = {"crop": "#2f7a3a", "animal": "#6b4a2b"}
_PHASES = {
    "start": "start: keep neighbour cards",
    "tasks": "task phase",
    "neighbour": "neighbour phase",
    "final": "last neighbour phase",
    "finished": "game over",
}


def _name(ident: str) -> str:
    return ident.replace("_", " ")


def _rc(cell: int, cols: int) -> str:
    return f"row {cell // cols + 1}, column {cell % cols + 1}"


def _layout(seats: int) -> tuple[int, int]:
    """Columns and rows of panels for ``seats`` players."""
    if seats <= 1:
        return 1, 1
    if seats == 2:
        return 2, 1
    if seats <= 4:
        return 2, 2
    return 4, 2


def _table(svg: Svg, view: dict[str, Any]) -> None:
    board = view["board"]
    cards = content().cards
    svg.group("Table")
    stage = "finished" if view.get("finished") else board.get("phase", "")
    svg.text(12, 24, "Tend", size=20, font_weight="bold")
    svg.text(72, 24, f"Round {board.get('round', 0)} of 12 · {_PHASES.get(stage, stage)}", size=14)
    objectives = [
        content().objectives[o].name if o in content().objectives else _name(o)
        for o in board.get("objectives", [])
    ]
    svg.text(
        420, 24, "Objectives: " + " · ".join(f"S{n + 1} {o}" for n, o in enumerate(objectives)),
        size=12,
    )  # fmt: skip
    svg.end_group()
    row = [*board.get("row", []), *(u["top"] for u in board.get("upcoming", []) if u["top"])]
    width = (WIDTH - 24) / max(5, len(row))
    for slot, card_id in enumerate(board.get("row", [])):
        name = cards[card_id].name if card_id in cards else _name(card_id)
        x = 12 + slot * width
        svg.group(f"Task card {slot + 1}: {name}")
        svg.rect(x, 36, width - 8, 48, fill="#fffdf7", stroke="#7a6a4f", rx=5)
        svg.text(x + 6, 56, f"{slot + 1}. {name}", size=12, font_weight="bold")
        svg.text(x + 6, 74, _card_line(card_id)[: int(width / 6.5)], size=10)
        svg.end_group()
    for n, upcoming in enumerate(board.get("upcoming", [])):
        if upcoming["top"]:
            name = cards[upcoming["top"]].name if upcoming["top"] in cards else upcoming["top"]
            svg.group(f"Season deck {n + 1} top: {name}")
            svg.text(
                12 + (len(board.get("row", [])) + n) * width, 56,
                f"next: {name} (+{upcoming['below']})", size=11, fill="#555",
            )  # fmt: skip
            svg.end_group()


def _card_line(card_id: str) -> str:
    """A task card's halves in a few words ("chop | wood level 2 → 2 wood")."""
    card = content().cards.get(card_id)
    if card is None:
        return ""

    def half(options: Any) -> str:
        return " or ".join(
            "+".join(e.name or e.kind for e in option) for option in options if option
        )

    line = half(card.top)
    if card.condition is not None:
        line += f" | then {half(card.bottom)}"
    return line


def _panel(svg: Svg, player: dict[str, Any], x: float, y: float, w: float, h: float) -> None:
    seat = player["seat"]
    scale = min(w / 480, h / 264)
    svg.rect(x + 2, y + 2, w - 4, h - 4, fill="#fffdf7", stroke="#b7a888", rx=6)
    score = player.get("score", {})
    svg.group(f"Seat {seat}")
    svg.text(x + 10, y + 20, f"Seat {seat}", size=14, font_weight="bold")
    levels = player["sheets"]["levels"]
    status = f"{score.get('total', 0)} points · chop {levels['chop']} · mine {levels['mine']}"
    if w >= 320:
        status += f" · step {player.get('step', '')}"
    svg.text(x + 70, y + 20, status, size=11 if w >= 320 else 9)
    svg.end_group()
    if w < 320:
        _narrow(svg, player, x, y, w)
        return
    cell = 13 * scale
    _farm(svg, player, x + 10, y + 30, cell)
    small = 10 * scale
    farm_w = content().farm.cols * cell
    _scratch(svg, player, "woods", x + 20 + farm_w, y + 30, small)
    _scratch(svg, player, "mine", x + 30 + farm_w + content().scratch.cols * small, y + 30, small)
    farm_h = content().farm.rows * cell
    _manifest(svg, player, x + 10, y + 40 + farm_h, small)
    grid = content().manifest.grid
    _sheet_notes(svg, player, x + 20 + grid.cols * small, y + 48 + farm_h, 10 * scale)


def _narrow(svg: Svg, player: dict[str, Any], x: float, y: float, w: float) -> None:
    """A panel for 5 to 8 seats: the farm above, woods, mine and manifest below it, then
    a few lines of notes (a farm square of 13 leaves them room)."""
    cell = min((w - 24) / content().farm.cols, 13.0)
    _farm(svg, player, x + 12, y + 28, cell)
    below = y + 36 + content().farm.rows * cell
    small = 9.0
    _scratch(svg, player, "woods", x + 12, below, small)
    _scratch(svg, player, "mine", x + 20 + content().scratch.cols * small, below, small)
    _manifest(svg, player, x + 28 + 2 * content().scratch.cols * small, below, small * 0.9)
    notes = below + 22 + content().scratch.rows * small
    _sheet_notes(svg, player, x + 12, notes, 7.0, short=True)


def _farm(svg: Svg, player: dict[str, Any], x: float, y: float, cell: float) -> None:
    """The farm area: soil, fences, trellises, then the dice over them."""
    grid = content().farm
    farm = player["farm"]
    seat = player["seat"]
    tilled = set(farm["tilled"])
    fences = set(farm["fences"])
    trellises = set(farm["trellises"])
    svg.group(f"Seat {seat} farm")
    for n in range(grid.rows * grid.cols):
        cx, cy = x + (n % grid.cols) * cell, y + (n // grid.cols) * cell
        fill = "#a9805a" if n in tilled else "#e9f0d8"
        svg.rect(cx, cy, cell, cell, fill=fill, stroke="#c8c2a8", stroke_width=0.5)
        if n in fences:
            svg.group(f"Seat {seat} fence at {_rc(n, grid.cols)}")
            svg.rect(cx + 1, cy + 1, cell - 2, cell - 2, fill="#6b4a2b")
            svg.end_group()
        if n in trellises:
            svg.group(f"Seat {seat} trellis at {_rc(n, grid.cols)}")
            svg.line(cx, cy, cx + cell, cy + cell, stroke="#2f7a3a", stroke_width=1.5)
            svg.line(cx + cell, cy, cx, cy + cell, stroke="#2f7a3a", stroke_width=1.5)
            svg.end_group()
    for die in farm["dice"]:
        kind = content().dice[die["die"]]
        size = _die_size(die["die"])
        cx, cy = x + (die["cell"] % grid.cols) * cell, y + (die["cell"] // grid.cols) * cell
        svg.group(
            f"Seat {seat} {_name(die['die'])} die {die['value']} at {_rc(die['cell'], grid.cols)}"
        )
        svg.rect(
            cx + 2, cy + 2, size * cell - 4, size * cell - 4,
            fill=kind.colour, fill_opacity=0.55, stroke=_DIE_STROKES.get(kind.kind, "#333"),
            stroke_width=2, rx=3,
        )  # fmt: skip
        svg.text(cx + 4, cy + cell, f"{die['value']}", size=max(8, int(cell)), font_weight="bold")
        svg.text(cx + 4, cy + size * cell - 4, _name(die["die"])[:6], size=max(6, int(cell * 0.6)))
        svg.end_group()
    svg.end_group()


def _die_size(die: str) -> int:
    """How many squares a side the crop or animal of a die covers."""
    sizes = {crop.die: crop.size for crop in content().crops.values()}
    sizes.update({animal.die: animal.size for animal in content().animals.values()})
    return sizes.get(die, 2)


def _scratch(svg: Svg, player: dict[str, Any], area: str, x: float, y: float, cell: float) -> None:
    """The woods or the mine as the view shows them: rock, and the squares scratched."""
    grid = content().scratch
    seat = player["seat"]
    shown = player[area]
    rocks = set(shown["rocks"])
    scratched = {s["square"]: s for s in shown["scratched"]}
    svg.text(x, y + 8, area, size=max(7, int(cell)))
    top = y + 12
    for n in range(grid.rows * grid.cols):
        cx, cy = x + (n % grid.cols) * cell, top + (n // grid.cols) * cell
        if n in rocks:
            svg.rect(cx, cy, cell, cell, fill="#555", stroke="#999", stroke_width=0.5)
        elif n in scratched:
            found = scratched[n]
            words = _found(found)
            svg.group(f"Seat {seat} {area} {_rc(n, grid.cols)}: {words}")
            svg.rect(cx, cy, cell, cell, fill="#f7ecd0", stroke="#999", stroke_width=0.5)
            svg.text(cx + 1, cy + cell - 2, words[:2], size=max(5, int(cell * 0.6)))
            svg.end_group()
        else:
            # An unscratched square: the view holds nothing about it, so neither does this.
            svg.rect(cx, cy, cell, cell, fill="#c9c9c9", stroke="#999", stroke_width=0.5)
    divide = top + content().top_rows * cell
    svg.line(x, divide, x + grid.cols * cell, divide, stroke="#333", stroke_width=1.5)


def _found(square: dict[str, Any]) -> str:
    parts = []
    if square.get("good"):
        amount = square.get("amount", 1)
        parts.append(f"{amount} {_name(square['good'])}" if amount > 1 else _name(square["good"]))
    if square.get("level"):
        parts.append("level")
    if square.get("actions"):
        parts.append(f"+{square['actions']} action")
    if square.get("coins"):
        parts.append(f"{square['coins']} coin")
    return ", ".join(parts) or "empty"


def _manifest(svg: Svg, player: dict[str, Any], x: float, y: float, cell: float) -> None:
    """The cargo manifest: its stalls, and each good shipped in its type's colour."""
    manifest = content().manifest
    grid = manifest.grid
    seat = player["seat"]
    svg.text(x, y + 8, "cargo manifest", size=max(7, int(cell)))
    top = y + 12
    for n in range(grid.rows * grid.cols):
        cx, cy = x + (n % grid.cols) * cell, top + (n // grid.cols) * cell
        svg.rect(cx, cy, cell, cell, fill="#ffffff", stroke="#bbb", stroke_width=0.5)
    for stall in manifest.stalls[1:]:
        sx = x + stall.first_col * cell
        svg.line(sx, top, sx, top + grid.rows * cell, stroke="#333", stroke_width=1.5)
    for shipped in player["manifest"]:
        good = shipped["good"]
        colour = _TYPE_COLOURS.get(content().good(good).type, "#999")
        svg.group(f"Seat {seat} shipped {_name(good)}")
        for n in shipped["cells"]:
            cx, cy = x + (n % grid.cols) * cell, top + (n // grid.cols) * cell
            svg.rect(cx + 0.5, cy + 0.5, cell - 1, cell - 1, fill=colour)
        svg.end_group()


def _neighbour(card: str) -> str:
    info = content().neighbour_cards.get(card)
    if info is None:
        return "-"
    return f"{'/'.join(_name(g) for g in info.goods)} +{info.bonus}"


def _sheet_notes(
    svg: Svg, player: dict[str, Any], x: float, y: float, size: float, short: bool = False
) -> None:
    """What the sheets unlocked, the neighbour tracks and the turn in hand, in words."""
    sheets = player["sheets"]
    neighbours = player["neighbours"]
    turn = player["turn"]
    score = player["score"]
    energy = ", ".join(f"{_name(e['bar'])} {e['charges']}" for e in sheets["energy"])
    lines = [
        f"areas: {', '.join(sheets['areas'])}",
        f"tools: {', '.join(sheets['tools']) or '-'} · rods: {', '.join(sheets['rods']) or '-'}",
        f"energy: {energy or '-'}",
        f"badges: {', '.join(_name(b) for b in sheets['badges']) or '-'}",
        f"tracks: left {neighbours['track_left']}, right {neighbours['track_right']}",
        f"cards: {_neighbour(neighbours['left'])} | {_neighbour(neighbours['right'])}",
        f"coins {turn['coins']} · holding {', '.join(_name(g) for g in turn['holding']) or '-'}",
        f"stalls {score['stalls']} · objectives {score['objectives']}",
    ]
    if short:
        lines = [f"{lines[0]} · {lines[4]}", lines[5], lines[2], lines[7]]
    svg.group(f"Seat {player['seat']} sheets")
    for n, line in enumerate(lines):
        svg.text(x, y + n * (size + 3), line, size=max(6, int(size)))
    svg.end_group()


def picture(view: dict[str, Any]) -> str:
    """The table and every seat's sheets, from ``view`` (what one viewer may see)."""
    svg = Svg(WIDTH, HEIGHT)
    _table(svg, view)
    players = view.get("players", [])
    cols, rows = _layout(len(players))
    w = WIDTH / cols
    h = (HEIGHT - _TOP) / rows
    for n, player in enumerate(players):
        _panel(svg, player, (n % cols) * w, _TOP + (n // cols) * h, w, h)
    return svg.document()
