"""Freunde's picture: every plot, bamboo section, channel, chip and figure of a known
garden is drawn, and no seat's hidden objectives or drawn plots reach anyone else's."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from engines.core.play import fold
from engines.freunde.content import OBJECTIVES
from engines.freunde.engine import ENGINE
from proto import freunde_pb2 as pb
from tests.engines.freunde.positions import (
    GREEN,
    GREEN_FERTILIZER,
    GREEN_STRAIGHT,
    GREEN_TRIANGLE,
    PANDA_2_PINK,
    PINK,
    PINK_3_ON_2,
    YELLOW,
    YELLOW_3_ON_3,
    YELLOW_WATERSHED,
    garden,
    gardener_moved,
    panda_moved,
    plots_drawn,
    started,
    turn,
)

SVG = "{http://www.w3.org/2000/svg}"

HANDS = {0: [GREEN_TRIANGLE, YELLOW_3_ON_3, PANDA_2_PINK], 1: [GREEN_STRAIGHT, PINK_3_ON_2]}
PLOTS = {(1, 0): GREEN[0], (0, 1): YELLOW[0], (1, -1): PINK[0], (-1, 1): GREEN_FERTILIZER,
         (2, -1): YELLOW_WATERSHED}  # fmt: skip
BAMBOO = {(1, 0): 2, (0, 1): 3, (1, -1): 1, (-1, 1): 4}
CHANNELS = [((1, 0), (1, -1)), ((1, -1), (2, -1))]


def _position() -> list[pb.Event]:
    return [
        *started(2, hands=HANDS),
        *garden(PLOTS, BAMBOO, CHANNELS, chips={(1, 0): "enclosure"}),
        gardener_moved(0, (0, 1)),
        panda_moved(0, (1, -1)),
        *turn(0),
    ]


def _drawn(events: list[pb.Event], viewer: int | None) -> tuple[str, ET.Element]:
    svg = ENGINE.picture(ENGINE.view(fold(ENGINE, events), viewer))
    return svg, ET.fromstring(svg)


def _names(svg: str, name: str) -> bool:
    """Whether ``name`` is written in ``svg`` as a name (not inside a longer word)."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", svg) is not None


def _count(root: ET.Element, name: str) -> int:
    return sum(1 for e in root.iter() if e.get("class") == name)


def test_every_plot_bamboo_channel_chip_and_figure_of_a_known_garden_is_drawn() -> None:
    _, root = _drawn(_position(), None)
    assert root.tag == f"{SVG}svg" and root.get("width") == "960" and root.get("height") == "640"
    assert _count(root, "plot") == len(PLOTS)
    assert _count(root, "pond") == 1
    assert _count(root, "bamboo") == sum(BAMBOO.values()) == 10
    assert _count(root, "channel") == len(CHANNELS)
    # The enclosure chip, and the improvements printed on two tiles.
    assert _count(root, "improvement") == 3
    assert _count(root, "gardener") == 1 and _count(root, "panda") == 1
    titles = [t.text or "" for t in root.iter(f"{SVG}title")]
    assert "yellow plot at (0, 1), 3 bamboo, irrigated" in titles
    assert "green plot at (-1, 1), 4 bamboo, fertilizer, irrigated" in titles
    # Every plot here touches the pond or is a watershed.
    assert _count(root, "irrigated") == len(PLOTS)
    assert "The panda at (1, -1)" in titles and "The gardener at (0, 1)" in titles
    assert _count(root, "player") == 2


def test_a_seats_objectives_show_only_in_its_own_picture() -> None:
    """Attack: another seat's hand is searched for by every card name, in every picture."""
    events = _position()
    names = {seat: {OBJECTIVES[c].name for c in hand} for seat, hand in HANDS.items()}
    assert not names[0] & names[1]
    spectator, _ = _drawn(events, None)
    seat0, root0 = _drawn(events, 0)
    seat1, _ = _drawn(events, 1)
    for name in names[0]:
        assert _names(seat0, name)
        assert not _names(spectator, name) and not _names(seat1, name)
    for name in names[1]:
        assert _names(seat1, name)
        assert not _names(spectator, name) and not _names(seat0, name)
    assert _count(root0, "own-objective") == len(HANDS[0])


def test_the_plots_a_seat_is_choosing_from_show_only_to_it() -> None:
    events = [*_position(), plots_drawn(0, [YELLOW_WATERSHED + 1, PINK[1], GREEN[1]])]
    _, own = _drawn(events, 0)
    assert _count(own, "drawn-plot") == 1
    for viewer in (None, 1):
        svg, root = _drawn(events, viewer)
        assert _count(root, "drawn-plot") == 0 and "Drawn plots" not in svg


def test_an_empty_view_still_draws() -> None:
    """Version 0 (before set-up) has no garden and no players: a picture all the same."""
    _, root = _drawn([], None)
    assert _count(root, "plot") == 0
