"""A seat's legal moves as Discord components: select menus and buttons, in words.

The gateway's ``legal-commands`` reply holds every move with its ``group`` and ``text``
and ``menus`` of at most 25 moves each (a select menu holds 25 options). A message
holds at most five rows, each one select menu or up to five buttons. So:

- when every menu fits at once, each menu of several moves is a select (its options
  the moves' words) and each menu of one move a button ("End the turn");
- otherwise the first step is a select of the kinds of move (the menus' titles, 25 to a
  page, "More kinds" leading on), and picking one shows that menu with a Back button.

Each component's custom_id (:mod:`services.discord.custom_ids`) names the table, the
seat and the version it was made for; a select's value is a menu or a move by position.
This module only lays out data; :mod:`services.discord.replies` turns it into hikari's
builders.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from services.discord.custom_ids import CustomId

__all__ = [
    "Button",
    "Option",
    "Row",
    "Select",
    "kinds_rows",
    "menu_rows",
    "move_rows",
    "shorten",
]

MAX_ROWS = 5
MAX_OPTIONS = 25
BUTTONS_PER_ROW = 5
OPTION_LABEL = 100
BUTTON_LABEL = 80
PLACEHOLDER = 150
MORE_KINDS = "More kinds of move…"


@dataclass(frozen=True, slots=True)
class Option:
    label: str
    value: str


@dataclass(frozen=True, slots=True)
class Select:
    custom_id: str
    placeholder: str
    options: tuple[Option, ...]


@dataclass(frozen=True, slots=True)
class Button:
    custom_id: str
    label: str
    primary: bool = True


Row = Select | tuple[Button, ...]


def shorten(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, an ellipsis marking a cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _id(action: str, table_id: str, legal: dict[str, Any], item: int) -> str:
    return str(CustomId(action, table_id, int(legal["seat"]), int(legal["version"]), item))


def _button(legal: dict[str, Any], table_id: str, move: int) -> Button:
    return Button(
        _id("move", table_id, legal, move), shorten(legal["moves"][move]["text"], BUTTON_LABEL)
    )


def _menu_row(legal: dict[str, Any], table_id: str, number: int) -> Row:
    """One menu: a button when it holds one move, else a select of its moves."""
    menu = legal["menus"][number]
    moves = legal["moves"]
    if len(menu["moves"]) == 1:
        return (_button(legal, table_id, menu["moves"][0]),)
    options = tuple(Option(shorten(moves[n]["text"], OPTION_LABEL), str(n)) for n in menu["moves"])
    return Select(
        _id("moves", table_id, legal, number), shorten(menu["title"], PLACEHOLDER), options
    )


def move_rows(legal: dict[str, Any], table_id: str) -> list[Row]:
    """Every move at once when the menus fit in one message, else the kinds of move."""
    menus = legal["menus"]
    singles = [n for n, menu in enumerate(menus) if len(menu["moves"]) == 1]
    selects = [n for n, menu in enumerate(menus) if len(menu["moves"]) > 1]
    button_rows = -(-len(singles) // BUTTONS_PER_ROW)
    if len(selects) + button_rows > MAX_ROWS:
        return kinds_rows(legal, table_id, 0)
    rows: list[Row] = [_menu_row(legal, table_id, n) for n in selects]
    buttons = [_button(legal, table_id, menus[n]["moves"][0]) for n in singles]
    rows += [
        tuple(buttons[i : i + BUTTONS_PER_ROW]) for i in range(0, len(buttons), BUTTONS_PER_ROW)
    ]
    return rows


def kinds_rows(legal: dict[str, Any], table_id: str, page: int) -> list[Row]:
    """Page ``page`` of the kinds of move: a select of menu titles (value ``m<menu>``), with
    ``p<page>`` leading to the next page when they do not fit in one."""
    menus = legal["menus"]
    per_page = MAX_OPTIONS if len(menus) <= MAX_OPTIONS else MAX_OPTIONS - 1
    first = page * per_page
    shown = range(first, min(first + per_page, len(menus)))
    options = [Option(shorten(menus[n]["title"], OPTION_LABEL), f"m{n}") for n in shown]
    if shown and shown[-1] + 1 < len(menus):
        options.append(Option(MORE_KINDS, f"p{page + 1}"))
    if not options:
        return []
    placeholder = "Choose a kind of move" + (f" (page {page + 1})" if page else "")
    return [Select(_id("kinds", table_id, legal, page), placeholder, tuple(options))]


def menu_rows(legal: dict[str, Any], table_id: str, number: int) -> list[Row]:
    """One kind of move, with a button back to every kind."""
    back = (Button(str(CustomId("play", table_id)), "Back", primary=False),)
    if not 0 <= number < len(legal["menus"]):
        return [back]
    return [_menu_row(legal, table_id, number), back]
