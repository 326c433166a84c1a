"""Harvest's picture: the crops, buildings, Forests and workers of a known position are
drawn, and the Characters and Farmhouses dealt in secret reach only their own seat."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from engines.core.picture import title_case
from engines.harvest.content import content
from engines.harvest.engine import ENGINE
from engines.harvest.state import Built, HarvestState
from tests.engines.harvest.helpers import (
    block,
    crop,
    started,
    table,
    with_placements,
    with_player,
)

SVG = "{http://www.w3.org/2000/svg}"


def _drawn(state: HarvestState, viewer: int | None) -> tuple[str, ET.Element]:
    svg = ENGINE.picture(ENGINE.view(state, viewer))
    return svg, ET.fromstring(svg)


def _count(root: ET.Element, name: str) -> int:
    return sum(1 for e in root.iter() if e.get("class") == name)


def test_every_crop_building_forest_and_worker_of_a_known_position_is_drawn() -> None:
    state = with_player(
        started(3),
        1,
        crops=(
            crop("wheat", (0, 0), (1, 0), (2, 0)),
            crop("strawberry", (3, 0)),
            crop("bush", (4, 0), (4, 1), berry=True),
        ),
        buildings=(Built("barn", block(0, 2)),),
        forests=tuple(content().forests[1:]),
    )
    state = with_placements(state, ("fields_3", 0), ("store_1", 1), ("store_1", 2))
    svg, root = _drawn(state, None)
    assert root.get("width") == "960" and root.get("height") == "640"
    assert _count(root, "farm") == 3
    assert _count(root, "crop") == 3
    assert _count(root, "crop-cell") == 3 + 1 + 2
    assert _count(root, "berry") == 1
    assert _count(root, "building") == 1 and "Barn" in svg
    # Seat 1 cleared one Forest (the barn stands there); the other seats keep all six.
    assert _count(root, "forest") == 3 * len(content().forests) - 1
    assert _count(root, "worker") == 3
    assert _count(root, "space") == len(content().spaces)
    assert "Sunrise order: " in svg


def test_the_dealt_characters_and_farmhouses_show_only_to_their_seat() -> None:
    """Attack: every name dealt to a seat is searched for in every other picture."""
    state = table(3, seed=11).state
    assert state.phase == "choose_start"
    dealt = {
        seat: [str(content().character(c)["name"]) for c in player.dealt_characters]
        + [title_case(f) for f in player.dealt_farmhouses]
        for seat, player in enumerate(state.players)
    }
    pictures = {viewer: _drawn(state, viewer)[0] for viewer in (None, 0, 1, 2)}
    for seat, names in dealt.items():
        assert len(names) == 4
        for viewer, svg in pictures.items():
            for name in names:
                assert (name in svg) == (viewer == seat), (seat, viewer, name)


def test_an_empty_view_still_draws() -> None:
    _, root = _drawn(ENGINE.initial_state(), None)
    assert _count(root, "farm") == 0
