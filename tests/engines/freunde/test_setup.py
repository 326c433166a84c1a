"""Set-up: the tiles and objectives of the rulebook, shuffled; starting hands; first player."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.core.contract import TableConfig
from engines.core.errors import RuleViolation
from engines.core.play import Table
from engines.core.rng import Rng
from engines.freunde.content import OBJECTIVES, TILES
from engines.freunde.engine import ENGINE


def _table(seats: int = 3, seed: bytes = b"setup") -> Table:
    return Table.create(ENGINE, TableConfig("t-setup", seats), seed)


def test_tile_distribution_is_the_rulebooks() -> None:
    """Tile distribution: 11 green, 9 yellow, 7 pink plots with the printed improvements listed."""
    counts = Counter((t.colour, t.improvement) for t in TILES.values())
    assert counts == {
        ("green", "none"): 5,
        ("green", "watershed"): 2,
        ("green", "fertilizer"): 2,
        ("green", "enclosure"): 2,
        ("yellow", "none"): 6,
        ("yellow", "watershed"): 1,
        ("yellow", "fertilizer"): 1,
        ("yellow", "enclosure"): 1,
        ("pink", "none"): 4,
        ("pink", "watershed"): 1,
        ("pink", "fertilizer"): 1,
        ("pink", "enclosure"): 1,
    }


def test_objective_distribution_is_the_rulebooks() -> None:
    """Objective distribution: 15 + 15 + 15 cards with the listed points."""
    by_kind = Counter(o.kind for o in OBJECTIVES.values())
    assert by_kind == {"plot": 15, "gardener": 15, "panda": 15}
    points = {o.name: o.points for o in OBJECTIVES.values() if o.kind != "panda"}
    assert points["Pink Diamond"] == 5
    assert points["Yellow/Green Diamond"] == 3
    assert points["3 Tall on 4 Greens"] == 8
    assert points["4 Tall on Pink w/ NO Improvements"] == 7
    panda = Counter((o.name, o.points) for o in OBJECTIVES.values() if o.kind == "panda")
    assert panda == {
        ("2 Green", 3): 5,
        ("2 Yellow", 4): 4,
        ("2 Pink", 5): 3,
        ("1 Green 1 Yellow 1 Pink", 6): 3,
    }
    assert sum(o.points for o in OBJECTIVES.values() if o.kind == "plot") == 51


def test_setup_shuffles_everything_and_deals_one_objective_of_each_kind() -> None:
    """Set-up events hold the shuffled stack and decks; each seat gets plot, gardener, panda."""
    events = ENGINE.setup(TableConfig("t", 3), Rng(b"s", "t", 0))
    started = events[0].game_started
    assert sorted(started.plot_stack) == sorted(TILES)
    assert list(started.plot_stack) != sorted(TILES)
    assert len(started.plot_objectives) == len(started.gardener_objectives) == 15
    assert [e.WhichOneof("kind") for e in events] == ["game_started"] + ["objectives_dealt"] * 3
    for seat, event in enumerate(events[1:]):
        dealt = event.objectives_dealt
        assert dealt.seat == seat
        assert [OBJECTIVES[c].kind for c in dealt.cards] == ["plot", "gardener", "panda"]
    assert started.first_player in range(3)


def test_the_first_player_is_drawn_by_the_seed() -> None:
    """Different seeds give different first players (all random set-up is in the events)."""
    firsts = {
        ENGINE.view(_table(4, f"s{i}".encode()).state, None)["board"]["first_player"]
        for i in range(40)
    }
    assert firsts == {0, 1, 2, 3}


def test_the_table_starts_with_the_pond_and_full_supplies() -> None:
    """Pond only; 36/30/24 bamboo, 20 channels, 3 chips of each improvement; no weather yet."""
    view = ENGINE.view(_table().state, None)
    board = view["board"]
    assert board["garden"] == [] and board["channels"] == []
    assert board["gardener"] == [0, 0] and board["panda"] == [0, 0]
    assert board["supply"] == {
        "bamboo": {"green": 36, "yellow": 30, "pink": 24},
        "irrigation": 20,
        "improvements": {"watershed": 3, "fertilizer": 3, "enclosure": 3},
    }
    assert board["decks"] == {"plots": 27, "plot": 12, "gardener": 12, "panda": 12}
    assert view["stage"] == "actions" and board["weather"] == "" and board["round"] == 1
    assert view["to_act"] == [board["first_player"]]
    assert all(len(p["hand"]) == 3 for p in view["players"])


@pytest.mark.parametrize("seats", [1, 5])
def test_freunde_is_for_two_to_four_players(seats: int) -> None:
    """Set-up refuses other player counts."""
    with pytest.raises(RuleViolation) as refused:
        ENGINE.setup(TableConfig("t", seats), Rng(b"s", "t", 0))
    assert refused.value.code == "setup.seats"


def test_the_round_limit_option_must_be_positive() -> None:
    """The safeguard option is validated."""
    with pytest.raises(RuleViolation) as refused:
        ENGINE.setup(TableConfig("t", 2, {"round_limit": 0}), Rng(b"s", "t", 0))
    assert refused.value.code == "setup.round_limit"


def test_the_registry_finds_freunde() -> None:
    """engines.get("freunde") returns this engine."""
    import engines

    assert engines.get("freunde") is ENGINE
    assert ENGINE.info.min_seats == 2 and ENGINE.info.max_seats == 4
