"""Moves and events in words (menus of at most 25), and the table drawn as an SVG from a
view: what a set-up shows, and never a square nobody has scratched."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from engines.core.game import MENU_SIZE, menus
from engines.tend.content import Square
from engines.tend.engine import ENGINE
from proto import tend_pb2 as pb
from tests.engines.tend.given import (
    cmd,
    coins,
    crossed,
    farm,
    gained,
    opening,
    position,
    scratched,
    step,
)

SVG = "{http://www.w3.org/2000/svg}"


def _words(history: list[pb.Event], command: pb.Command) -> tuple[str, str]:
    words = ENGINE.describe_command(position(history).state, command, 0)
    return words.group, words.text


def test_moves_are_named_as_the_table_says_them() -> None:
    history = opening()
    assert _words(history, cmd(choose_card=pb.ChooseCard(slot=1))) == (
        "Task cards",
        "Resolve Chop (card 2)",
    )
    chopping = history + step(history, 0, cmd(choose_card=pb.ChooseCard(slot=1)))
    assert _words(chopping, cmd(chop=pb.Chop(square=2))) == (
        "Chop",
        "Chop the woods at row 1, column 3 (1 action)",
    )
    holding = [*opening(), gained(0, "milk")]
    assert _words(holding, cmd(sell=pb.Sell(good="milk"))) == (
        "Use the milk",
        "Sell the milk for 4 coins",
    )
    group, text = _words(holding, cmd(ship=pb.Ship(good="milk", cells=[0, 1, 2, 11])))
    assert (group, text) == (
        "Ship the milk",
        "Ship the milk to rows 1-2, columns 1-3 (4 boxes)",
    )
    paying = [*opening(), coins(0, 1)]
    assert _words(paying, cmd(spend=pb.Spend(good="coin", feature="chicken", space=3))) == (
        "Spend coins",
        "Spend a coin on Chicken (row 2)",
    )


def test_every_listed_move_fits_a_menu_of_at_most_25() -> None:
    """A good in hand lists many placements; the menus split them 25 at a time."""
    holding = position([*opening(), gained(0, "pumpkin")])
    legal = ENGINE.legal_commands(holding.state, 0)
    words = [ENGINE.describe_command(holding.state, c, 0) for c in legal]
    assert len(legal) > MENU_SIZE
    grouped = menus(words)
    assert all(len(members) <= MENU_SIZE for _, members in grouped)
    assert {name for name, _ in grouped} >= {"Use the pumpkin", "Ship the pumpkin (1/3)"}
    assert sorted(i for _, members in grouped for i in members) == list(range(len(legal)))


def test_events_read_as_one_line_each() -> None:
    history = opening()
    chopping = history + step(history, 0, cmd(choose_card=pb.ChooseCard(slot=1)))
    event = pb.Event(
        square_scratched=pb.SquareScratched(
            seat=0, area="woods", square=7, content=pb.Square(good="wood", amount=2, level=True)
        )
    )
    assert ENGINE.describe_event(event, None) == (
        "Seat 0 scratches the woods at row 2, column 2: 2 wood and a level"
    )
    began = next(e for e in chopping if e.WhichOneof("kind") == "task_began")
    assert ENGINE.describe_event(began, 0) == "Seat 0 begins the Chop task with 1 action (card)"
    sold = pb.Event(good_sold=pb.GoodSold(seat=1, good="milk", coins=4))
    assert ENGINE.describe_event(sold, 0) == "Seat 1 sells a milk for 4 coins"
    for event in chopping:
        line = ENGINE.describe_event(event, 0)
        assert line and "\n" not in line and "_" not in line, line


def _titles(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return [t.text or "" for t in root.iter(f"{SVG}title")]


def test_the_picture_of_a_set_up_table_shows_its_known_elements() -> None:
    history = [
        *opening(2),
        *crossed(0, "bridge", [0]),
        scratched(0, "woods", 2, Square(good="wood", amount=2)),
        scratched(1, "mine", 0, Square(good="stone")),
    ]
    state = position(history).state
    view = ENGINE.view(state, 1)
    svg = ENGINE.picture(view)
    root = ET.fromstring(svg)
    assert root.get("width") == "960" and root.get("height") == "640"
    titles = _titles(svg)
    assert "Task card 1: Tend" in titles and "Task card 5: Zenith Coins" in titles
    assert {"Seat 0", "Seat 1", "Seat 0 farm", "Seat 1 farm"} <= set(titles)
    assert "Seat 0 woods row 1, column 3: 2 wood" in titles
    assert "Seat 1 mine row 1, column 1: stone" in titles
    fences = {t for t in titles if t.startswith("Seat 0 fence at ")}
    assert len(fences) == len(view["players"][0]["farm"]["fences"]) > 0
    text = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "Round 1 of 12" in text and "task phase" in text


def test_the_picture_shows_dice_with_their_values() -> None:
    history = opening()
    tending = history + step(history, 0, cmd(choose_card=pb.ChooseCard(slot=0)))
    planted = tending + step(tending, 0, cmd(plant=pb.Plant(crop="berries", cell=farm(1, 1))))
    titles = _titles(ENGINE.picture(ENGINE.view(position(planted).state, None)))
    assert "Seat 0 berries die 1 at row 2, column 2" in titles


def test_no_unscratched_square_of_any_seat_is_drawn() -> None:
    """Every drawn woods or mine square is one the view lists as scratched, for every
    viewer; the rest are blank."""
    history = [
        *opening(2),
        scratched(0, "woods", 0, Square(good="wood")),
        scratched(1, "mine", 5, Square(actions=1, coins=1)),
    ]
    state = position(history).state
    pattern = re.compile(r"Seat (\d) (woods|mine) row (\d+), column (\d+): ")
    for viewer in (None, 0, 1):
        view = ENGINE.view(state, viewer)
        drawn = set()
        for title in _titles(ENGINE.picture(view)):
            found = pattern.match(title)
            if found:
                seat, area, row, col = found.groups()
                drawn.add((int(seat), area, (int(row) - 1) * 6 + int(col) - 1))
        listed = {
            (player["seat"], area, square["square"])
            for player in view["players"]
            for area in ("woods", "mine")
            for square in player[area]["scratched"]
        }
        assert drawn == listed == {(0, "woods", 0), (1, "mine", 5)}
