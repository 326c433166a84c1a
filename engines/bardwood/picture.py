"""Bardwood Grove's table as a picture (SVG, 960x640), drawn from a view and nothing else.

What the picture shows is what the view holds: the main board's map (the Locations in
their 4x4 layout, the spaces where four of them meet, each Bard on its space), the
market decks with the boat on the cost track, the Fan deck, the Legends face up (with
their Runes) and the face-down counts, the Perform spots, the Creature piles with the
Badges on them, the Motifs, both Events and the VP pools; and for each seat its board:
VP crystals, Volume, coins and Bardstones, the Badge track, the boat, the Tempo wheel with
the Song tracker, the Runes left, the Song, its Creatures and its card counts. The
viewer's own hand appears only when the view carries it (``private``), so a spectator's
or another seat's picture can never show a hand. Names come from the content files,
which are public.

Every element a reader (or a test) may look for sits in a group titled with what it is
("Bard of seat 1 on Willow Bend", "Market deck Action Stall (east)", "Hand of seat 0").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from engines.bardwood.content import content
from engines.core.picture import Svg

__all__ = ["HEIGHT", "WIDTH", "picture"]

WIDTH, HEIGHT = 960, 640
SEAT_COLOURS = ("#c0392b", "#2e6fb7", "#d4a017", "#2e8b57")
_INK = "#2b2118"
_MUTED = "#6d5f52"
_PAPER = "#fffaf0"

# The map: 4x4 Location cells; a space sits where four cells meet.
_MAP_X, _MAP_Y, _CELL_W, _CELL_H = 12, 46, 104, 82
_KIND_FILL = {
    "creatures": "#dcebd2",
    "market": "#f3e2c4",
    "perform": "#f2d7e2",
    "legends": "#e3dcf0",
    "motifs": "#d9e8f0",
    "boast": "#efe4d6",
    "bank": "#f6efc9",
}


def _name(card: str) -> str:
    cards = content().cards
    return cards[card].name if card in cards else card


def _wrap(words: str, width: int) -> list[str]:
    """``words`` in lines of at most ``width`` characters (broken between words)."""
    lines: list[str] = []
    line = ""
    for word in words.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines


def _seat_colour(seat: int | None) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)] if seat is not None and seat >= 0 else _MUTED


def _title_bar(svg: Svg, view: dict[str, Any]) -> None:
    board = view["board"]
    c = content()
    # After Act II ends (the final scoring) the Act stays at II.
    act = "I" * min(int(board.get("act", 1)), max(len(board.get("events", [])), 1))
    active = board.get("active_event")
    event = c.event(active).name if active else "none"
    pools = board.get("pools", {})
    svg.rect(0, 0, WIDTH, 38, fill="#3b2f2a")
    svg.text(12, 26, "Bardwood Grove", size=18, fill="#fbe9c8", font_weight="bold")
    svg.text(
        190,
        25,
        f"Act {act} · Event: {event} · VP pools: Act I {pools.get('act1', 0)}, "
        f"Act II {pools.get('act2', 0)}",
        size=14,
        fill="#fbe9c8",
    )
    if view.get("finished"):
        status = "Game over"
    else:
        acting = ", ".join(f"seat {seat}" for seat in view.get("to_act", [])) or "nobody"
        status = f"{view.get('stage', '').replace('_', ' ')} · to act: {acting}"
    svg.text(WIDTH - 12, 25, status, size=14, fill="#fbe9c8", text_anchor="end")


_DIRECTIONS = {"north-west": "NW", "north-east": "NE", "south-west": "SW", "south-east": "SE",
               "south": "S", "north": "N", "west": "W", "east": "E"}  # fmt: skip


def _short(name: str) -> str:
    """A Location's name short enough for its cell: "Den (NW)", "Stage", "Action Stall (E)"."""
    name = name.removeprefix("The ").removesuffix(" (Perform)").replace("Creature Den", "Den")
    for long, short in _DIRECTIONS.items():
        name = name.replace(f"({long})", f"({short})")
    return name


def _cell_lines(location: str, kind: str, board: dict[str, Any]) -> list[str]:
    """What a Location's cell shows under its name, line by line."""
    if kind == "creatures":
        pile = next((p for p in board.get("creatures", []) if p["location"] == location), None)
        if pile is None or not pile["cards"]:
            return ["exhausted:", "5 Melody → 1 VP"]
        creature = content().card(pile["cards"][-1])
        return [creature.name, f"Soothe {creature.soothe}/Assist {creature.assist}",
                f"{len(pile['cards'])} in the pile"]  # fmt: skip
    if kind == "market":
        deck = next((d for d in board.get("market", []) if d["location"] == location), None)
        cards = deck["cards"] if deck else []
        if not cards:
            return ["exhausted:", "cost → 1 VP"]
        return [_name(cards[0]), f"{len(cards)} cards"]
    if kind == "perform":
        free = sum(1 for spot in board.get("perform", []) if spot["rune"] is None)
        return [f"{free} spots free"]
    if kind == "legends":
        return ["Tiers I-III"]
    if kind == "motifs":
        cost = " ".join(f"{n} {name.capitalize()}" for name, n in content().motif_cost)
        return [f"cost {cost}"]
    if kind == "bank":
        count = len(board.get("bank", []))
        return [f"{count} Badge{'' if count == 1 else 's'} here"]
    return []


def _map(svg: Svg, view: dict[str, Any]) -> None:
    """The 4x4 Locations; the top 24 and bottom 12 pixels of each cell are left for the
    spaces at its corners and their names."""
    c = content()
    board = view["board"]
    for row, cells in enumerate(c.layout):
        for col, location in enumerate(cells):
            x, y = _MAP_X + col * _CELL_W, _MAP_Y + row * _CELL_H
            middle = x + _CELL_W / 2
            loc = c.location_index.get(location)
            if loc is None:
                svg.rect(x, y, _CELL_W, _CELL_H, fill="#cfdcc3", stroke="#ffffff", stroke_width=2)
                svg.text(middle, y + _CELL_H / 2 + 4, location.replace("_", " ").title(),
                         size=10, fill=_MUTED, text_anchor="middle")  # fmt: skip
                continue
            svg.group(f"Location {loc.name}")
            svg.rect(x, y, _CELL_W, _CELL_H, fill=_KIND_FILL.get(loc.kind, _PAPER),
                     stroke="#ffffff", stroke_width=2)  # fmt: skip
            svg.text(middle, y + 34, _short(loc.name), size=11, fill=_INK, font_weight="bold",
                     text_anchor="middle")  # fmt: skip
            for n, text in enumerate(_cell_lines(location, loc.kind, board)):
                svg.text(middle, y + 45 + 11 * n, _clip(text, 17), size=10,
                         fill=_INK if n == 0 else _MUTED, text_anchor="middle")  # fmt: skip
            if loc.kind == "creatures":
                pile = next(p for p in board.get("creatures", []) if p["location"] == location)
                badges = pile["badges"]
                for n, owner in enumerate(badges):
                    svg.group(f"Badge of seat {owner} on {loc.name}")
                    svg.circle(middle + 11 * (n - (len(badges) - 1) / 2), y + 75, 4.5,
                               fill=_seat_colour(owner), stroke="#ffffff")  # fmt: skip
                    svg.end_group()
            svg.end_group()
    _spaces_and_bards(svg, view)


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _space_xy(row: int, col: int) -> tuple[float, float]:
    return _MAP_X + (col + 1) * _CELL_W, _MAP_Y + (row + 1) * _CELL_H


def _spaces_and_bards(svg: Svg, view: dict[str, Any]) -> None:
    c = content()
    for space in c.spaces:
        x, y = _space_xy(space.row, space.col)
        start = space.id in c.starting_spaces
        svg.group(f"Space {space.name}" + (" (a starting space)" if start else ""))
        svg.circle(x, y, 11, fill="#fffdf5", stroke="#3b2f2a" if start else "#8a7a66",
                   stroke_width=2.5 if start else 1.2)  # fmt: skip
        width = 5.2 * len(space.name) + 6
        svg.rect(x - width / 2, y + 12, width, 11, fill="#fffdf5", rx=3, opacity=0.9)
        svg.text(x, y + 21, space.name, size=9, fill=_INK, text_anchor="middle")
        svg.end_group()
    by_space: dict[str, list[int]] = {}
    for player in view.get("players", []):
        if player.get("space"):
            by_space.setdefault(player["space"], []).append(player["seat"])
    for space_id, seats in by_space.items():
        if space_id not in c.space_index:
            continue
        space = c.space(space_id)
        x, y = _space_xy(space.row, space.col)
        for n, seat in enumerate(seats):
            angle = 2 * math.pi * n / len(seats) - math.pi / 2
            dx, dy = (0.0, 0.0) if len(seats) == 1 else (7 * math.cos(angle), 7 * math.sin(angle))
            svg.group(f"Bard of seat {seat} on {space.name}")
            svg.circle(x + dx, y + dy, 7, fill=_seat_colour(seat), stroke="#ffffff")
            svg.text(x + dx, y + dy + 3.5, str(seat), size=9, fill="#ffffff",
                     text_anchor="middle", font_weight="bold")  # fmt: skip
            svg.end_group()


_PANEL_X = 440


def _heading(svg: Svg, x: float, y: float, words: str) -> None:
    svg.text(x, y, words, size=12, fill=_MUTED, font_weight="bold")


def _market(svg: Svg, view: dict[str, Any], y: float) -> float:
    c = content()
    board = view["board"]
    _heading(svg, _PANEL_X, y, "Market")
    costs = c.market_costs
    boat = int(board.get("market_boat", 0))
    svg.group(f"Market boat at {costs[boat] if 0 <= boat < len(costs) else '?'} coins")
    for n, cost in enumerate(costs):
        x = _PANEL_X + 60 + 24 * n
        here = n == boat
        svg.rect(x, y - 11, 20, 15, fill="#3b2f2a" if here else _PAPER, stroke="#8a7a66")
        svg.text(x + 10, y, str(cost), size=11, fill="#ffffff" if here else _INK,
                 text_anchor="middle")  # fmt: skip
    svg.text(_PANEL_X + 60 + 24 * len(costs) + 4, y, "← boat (market cost)", size=10, fill=_MUTED)
    svg.end_group()
    for n, deck in enumerate(board.get("market", [])):
        name = c.location(deck["location"]).name if deck["location"] in c.location_index else ""
        names = [_name(card) for card in deck["cards"]]
        row_y = y + 16 + 14 * n
        # The title lists the whole deck (public: anyone may look through it); the line
        # shows as much as fits.
        svg.group(f"Market deck {name}: {', '.join(names) or 'empty'}")
        svg.text(_PANEL_X, row_y, f"{name}:", size=10, fill=_INK, font_weight="bold")
        shown = ", ".join(names) if names else "empty"
        svg.text(_PANEL_X + 118, row_y, _clip(shown, 66), size=10, fill=_INK)
        svg.end_group()
    fans = [_name(fan) for fan in board.get("fans", [])]
    fan_y = y + 16 + 14 * len(board.get("market", []))
    svg.group(f"Fan deck of {len(fans)}: {', '.join(fans) or 'empty'}")
    svg.text(_PANEL_X, fan_y, f"Fans ({len(fans)}):", size=10, fill=_INK, font_weight="bold")
    svg.text(_PANEL_X + 118, fan_y, _clip(", ".join(fans) or "none left", 66), size=10, fill=_INK)
    svg.end_group()
    return fan_y + 20


def _legends(svg: Svg, view: dict[str, Any], y: float) -> float:
    """Each Tier: its cost and VP, its face-up Legends (a Rune in its owner's colour), the
    face-down count; a Tier with many face up goes on over two lines."""
    c = content()
    _heading(svg, _PANEL_X, y, "Legends (Rune = scored by everyone)")
    row_y = y + 15
    for tier in view["board"].get("legends", []):
        cost = " ".join(f"{v} {k.capitalize()}" for k, v in tier.get("cost", {}).items())
        svg.text(_PANEL_X, row_y, f"Tier {tier['tier']}: {cost}, {tier['vp']} VP", size=10,
                 fill=_INK, font_weight="bold")  # fmt: skip
        x: float = _PANEL_X + 128
        for up in tier.get("face_up", []):
            legend = c.legend(up["legend"]).name
            shown = legend.removeprefix("The ")
            width = 6.0 * len(shown) + (10 if up.get("rune") is not None else 0)
            if x + width > WIDTH - 8:
                x, row_y = _PANEL_X + 128, row_y + 13
            svg.group(f"Legend {legend}")
            svg.text(x, row_y, shown, size=10, fill=_INK)
            if up.get("rune") is not None:
                svg.circle(x + width - 4, row_y - 4, 4, fill=_seat_colour(up["rune"]))
            svg.end_group()
            x += width + 10
        down = f"+{tier.get('face_down', 0)} face down"
        if x + 6.0 * len(down) > WIDTH - 8:
            x, row_y = _PANEL_X + 128, row_y + 13
        svg.text(x, row_y, down, size=10, fill=_MUTED)
        row_y += 15
    return row_y + 4


def _perform_and_motifs(svg: Svg, view: dict[str, Any], y: float) -> float:
    c = content()
    board = view["board"]
    _heading(svg, _PANEL_X, y, "Perform spots (Lyric → VP)")
    for n, spot in enumerate(board.get("perform", [])):
        x = _PANEL_X + 46 * n
        rune = spot.get("rune")
        svg.group(f"Perform spot {n + 1}")
        svg.rect(x, y + 5, 42, 18, fill=_PAPER if rune is None else _seat_colour(rune),
                 stroke="#8a7a66")  # fmt: skip
        svg.text(x + 21, y + 18, f"{spot['lyric']}→{spot['vp']}", size=10,
                 fill=_INK if rune is None else "#ffffff", text_anchor="middle")  # fmt: skip
        svg.end_group()
    y += 40
    _heading(svg, _PANEL_X, y, "Motifs")
    x = _PANEL_X + 48
    for slot in board.get("motifs", []):
        if not slot.get("motif"):
            continue
        name = c.motif(slot["motif"]).name.removeprefix("Motif of ").removeprefix("the ")
        side = " (VP)" if slot.get("vp_side") else ""
        svg.group(f"Motif {c.motif(slot['motif']).name}")
        svg.text(x, y, f"{name}{side}", size=10, fill=_INK)
        svg.end_group()
        x += 6 * len(name + side) + 14
    y += 16
    events = [c.event(e).name for e in board.get("events", [])]
    active = board.get("active_event")
    act_names = " · ".join(
        f"Act {'I' * (n + 1)}: {name}{' (now)' if board.get('events', [])[n] == active else ''}"
        for n, name in enumerate(events)
    )
    svg.group("Events")
    svg.text(_PANEL_X, y, f"Events — {act_names}", size=10, fill=_INK)
    svg.end_group()
    bank = board.get("bank", [])
    y += 15
    svg.group(f"High Note Bank with {len(bank)} Badges")
    svg.text(_PANEL_X, y, "High Note Bank:", size=10, fill=_INK)
    for n, owner in enumerate(bank):
        svg.circle(_PANEL_X + 90 + 12 * n, y - 4, 5, fill=_seat_colour(owner))
    svg.end_group()
    return y + 8


def _tempo_wheel(svg: Svg, x: float, y: float, player: dict[str, Any]) -> None:
    """The Tempo wheel: four areas clockwise from noon with their movement points, the
    icon's area filled, and the Song tracker at noon or on the Song."""
    c = content()
    areas = c.tempo_areas
    r = 20
    area_now = int(player.get("tempo_area", 0))
    svg.group(f"Tempo wheel in the {areas[area_now].move}-movement area")
    for n, area in enumerate(areas):
        # Quarter n spans 90n..90(n+1) degrees clockwise from noon.
        a0, a1 = math.radians(90 * n - 90), math.radians(90 * (n + 1) - 90)
        points = [(x, y)] + [
            (x + r * math.cos(a0 + (a1 - a0) * k / 6), y + r * math.sin(a0 + (a1 - a0) * k / 6))
            for k in range(7)
        ]
        fill = _seat_colour(player["seat"]) if n == area_now else "#f4ecdc"
        svg.polygon(points, fill=fill, stroke="#8a7a66", stroke_width=0.8)
        mid = (a0 + a1) / 2
        svg.text(x + 12 * math.cos(mid), y + 12 * math.sin(mid) + 3, str(area.move), size=9,
                 fill="#ffffff" if n == area_now else _INK, text_anchor="middle")  # fmt: skip
    svg.end_group()
    triggered = bool(player.get("song_triggered"))
    svg.group("Song tracker on the Song" if triggered else "Song tracker at noon")
    if triggered:
        svg.text(x, y + r + 12, "♪ Song!", size=10, fill=_INK, font_weight="bold",
                 text_anchor="middle")  # fmt: skip
    else:
        svg.text(x, y - r - 2, "♪", size=10, fill=_INK, text_anchor="middle")
    svg.end_group()


def _badge_track(svg: Svg, x: float, y: float, player: dict[str, Any]) -> None:
    c = content()
    left = int(player.get("badges", 0))
    gone = c.badges - left
    svg.group(f"Badge track of seat {player['seat']} with {left} Badges")
    for n, spot in enumerate(c.badge_spots):
        cx = x + 14 * n
        if n >= gone:
            svg.circle(cx, y, 5.5, fill=_seat_colour(player["seat"]), stroke="#ffffff")
        else:
            blue = spot.blue_halves / 2
            label = f"{blue:g}" if blue else str(spot.melody) + "♫"
            svg.circle(cx, y, 5.5, fill="#dfe8f5" if blue else "#f4ecdc", stroke="#8a7a66")
            svg.text(cx, y + 3, label, size=7, fill="#2e4f8a" if blue else _INK,
                     text_anchor="middle")  # fmt: skip
    svg.end_group()


def _player_board(svg: Svg, view: dict[str, Any], player: dict[str, Any], x: float, y: float,
                  w: float, h: float) -> None:  # fmt: skip
    c = content()
    seat = player["seat"]
    colour = _seat_colour(seat)
    character = c.character(player["character"]).name if player.get("character") else "—"
    to_act = seat in view.get("to_act", [])
    svg.group(f"Board of seat {seat}")
    svg.rect(x, y, w, h, fill=_PAPER, stroke=colour, stroke_width=3 if to_act else 1.5, rx=6)
    svg.rect(x, y, w, 20, fill=colour, rx=6)
    marker = "▶ " if to_act else ""
    you = " (you)" if view.get("viewer") == seat else ""
    svg.text(x + 6, y + 15, f"{marker}Seat {seat}{you}: {character}", size=12, fill="#ffffff",
             font_weight="bold")  # fmt: skip
    if not player.get("character"):
        # Set-up: the seat has no board yet, only its place in the Character choice.
        svg.text(x + 6, y + 38, "choosing a Character…", size=11, fill=_MUTED)
        svg.end_group()
        return
    line = y + 36
    svg.text(x + 6, line, f"VP {player.get('crystals', 0)}", size=13, fill="#2e7d32",
             font_weight="bold")  # fmt: skip
    svg.text(x + 60, line, f"Volume {player.get('volume', 0)}/{c.volume_max}", size=11, fill=_INK)
    _tempo_wheel(svg, x + w - 28, y + 48, player)
    line += 15
    stones = [
        f"{player.get('coins', 0)} coins",
        f"{player.get('songstones', 0)} Song",
        f"{player.get('rangestones', 0)} Range",
    ]
    if player.get("loudstones") or view["board"].get("options", {}).get("loudstones"):
        stones.append(f"{player.get('loudstones', 0)} Loud")
    svg.text(x + 6, line, " · ".join(stones), size=10, fill=_INK)
    line += 15
    discount = int(player.get("discount", 0))
    boat = f"-{discount} Lyric" if discount else "no discount"
    svg.text(x + 6, line, f"Boat: {boat} · held Badges {player.get('held_badges', 0)}",
             size=10, fill=_INK)  # fmt: skip
    line += 14
    _badge_track(svg, x + 12, line, player)
    line += 17
    runes = "/".join(str(r) for r in player.get("runes", []))
    svg.text(x + 6, line, f"Runes {runes} · hand {player.get('hand_size', 0)} · deck "
             f"{player.get('deck_size', 0)} · discard {len(player.get('discard', []))}",
             size=10, fill=_MUTED)  # fmt: skip
    top = player.get("deck_top", [])
    if top:
        line += 13
        known = ", ".join(_name(card) for card in top)
        svg.text(x + 6, line, _clip(f"Deck top: {known}", int((w - 12) / 5.8)), size=10,
                 fill=_MUTED)  # fmt: skip
    line += 15
    song = [
        _name(held["card"]) + (" ✓" if held.get("paid") else "") for held in player.get("song", [])
    ]
    chars = int((w - 12) / 5.8)
    svg.group(f"Song of seat {seat}: {', '.join(song) or 'empty'}")
    sung = _wrap("Song: " + (", ".join(song) or "—"), chars)[:4]
    for n, text in enumerate(sung):
        svg.text(x + 6, line + 12 * n, text, size=10, fill=_INK)
    svg.end_group()
    line += 12 * len(sung) + 2
    creatures = [_name(spot[-1]) + (f" (+{len(spot) - 1})" if len(spot) > 1 else "")
                 for spot in player.get("creatures", []) if spot]  # fmt: skip
    if creatures:
        svg.group(f"Creatures of seat {seat}: {', '.join(creatures)}")
        for n, text in enumerate(_wrap(f"Creatures: {', '.join(creatures)}", chars)[:2]):
            svg.text(x + 6, line + 12 * n, text, size=10, fill=_INK)
        svg.end_group()
    svg.end_group()


def _hand(svg: Svg, view: dict[str, Any], x: float, y: float, w: float) -> None:
    private = view.get("private")
    if not private or view.get("viewer") is None:
        return
    hand = [_name(card) for card in private.get("hand", [])]
    svg.group(f"Hand of seat {view['viewer']}")
    svg.rect(x, y, w, 22, fill="#fbe9c8", stroke=_seat_colour(view["viewer"]), rx=4)
    svg.text(x + 6, y + 15, f"Your hand: {', '.join(hand) or 'empty'}"[:110], size=12, fill=_INK,
             font_weight="bold")  # fmt: skip
    svg.end_group()


def picture(view: dict[str, Any]) -> str:
    """The table as ``view`` shows it, as an SVG document of 960x640."""
    svg = Svg(WIDTH, HEIGHT, background="#f7f1e3")
    _title_bar(svg, view)
    _map(svg, view)
    y = _market(svg, view, 58)
    y = _legends(svg, view, y + 4)
    _perform_and_motifs(svg, view, y + 6)
    players: Sequence[dict[str, Any]] = view.get("players", [])
    hand_shown = bool(view.get("private")) and view.get("viewer") is not None
    top = 384
    bottom = HEIGHT - (34 if hand_shown else 8)
    count = max(len(players), 1)
    w = (WIDTH - 12 - 8 * (count - 1) - 12) / count
    for n, player in enumerate(players):
        _player_board(svg, view, player, 12 + n * (w + 8), top, w, bottom - top)
    _hand(svg, view, 12, HEIGHT - 28, WIDTH - 24)
    return svg.document()
