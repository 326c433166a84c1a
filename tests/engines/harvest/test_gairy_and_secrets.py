"""Mayor Gairy (1-2 players) and what each seat may see."""

from __future__ import annotations

import json

import pytest

from engines.core.errors import RuleViolation
from engines.core.rng import Rng
from engines.harvest.content import content
from engines.harvest.engine import ENGINE
from engines.harvest.gairy import gairy_space, gairy_turn
from proto import harvest_pb2 as pb

from .helpers import (
    gairy_drew,
    gairy_pieces,
    started,
    table,
    with_placements,
    with_workshop,
)


def test_gairy_arrows_pick_highest_lowest_leftmost_rightmost_open_space() -> None:
    """Action Phase (Gairy): up 3-2-1, down 1-2-3, left/right by position; taken spaces skipped."""
    state = with_placements(started(2), ("store_3", 0))
    assert gairy_space(state, "general_store", "up").id == "store_2"  # type: ignore[union-attr]
    assert gairy_space(state, "general_store", "down").id == "store_1"  # type: ignore[union-attr]
    assert gairy_space(state, "workshop", "left").id == "workshop_3"  # type: ignore[union-attr]
    assert gairy_space(state, "workshop", "right").id == "workshop_1"  # type: ignore[union-attr]
    full = with_placements(state, ("fields_3", 0), ("fields_2", 1), ("fields_1", 0))
    assert gairy_space(full, "fields", "up") is None


def test_gairy_redraws_when_his_section_is_full_and_reveals_buildings_at_the_workshop() -> None:
    """A full section means a replacement tile; a Workshop visit reveals a building."""
    taken = tuple((s.id, 0) for s in content().spaces if not s.always_open)
    state = with_placements(started(2), *taken[:-1])
    state = with_workshop(state, "", "", "", "", "", "")
    assert state.gairy_pieces == 3
    for seed in range(6):
        events = gairy_turn(state, Rng(b"g", str(seed), 0))
        placed = [e.worker_placed for e in events if e.HasField("worker_placed")]
        assert len(placed) == 1
        drawn = [e.gairy_tile_drawn for e in events if e.HasField("gairy_tile_drawn")]
        assert all(d.space == "" for d in drawn[:-1])
        if placed[0].space.startswith("workshop"):
            assert any(e.HasField("building_revealed") for e in events)


def test_solo_gairy_places_two_pieces_per_turn() -> None:
    """Solo: two Gairy tiles each turn."""
    state = started(1)
    assert state.gairy_pieces == 6
    events = gairy_turn(state, Rng(b"g", "solo", 0))
    assert sum(1 for e in events if e.HasField("worker_placed")) == 2


def test_dealt_characters_and_farmhouses_are_hidden_from_other_seats() -> None:
    """Hidden information: before the choice, only the seat itself sees its two of each."""
    t = table(3)
    state = t.state
    set_up: pb.Event = t.events[0]  # type: ignore[assignment]
    secret = set(state.players[1].dealt_characters) | set(state.players[1].dealt_farmhouses)
    for seat in (None, 0, 2):
        view = json.dumps(ENGINE.view(state, seat))
        setup = ENGINE.redact(set_up, seat)
        assert setup is not None
        for name in (
            secret
            - set(state.players[seat or 0].dealt_characters)
            - set(state.players[seat or 0].dealt_farmhouses)
        ):
            assert f'"{name}"' not in view
        assert list(setup.game_set_up.deals[1].characters) == ["", ""]
    mine = ENGINE.view(state, 1)["private"]
    assert set(mine["dealt_characters"]) | set(mine["dealt_farmhouses"]) == secret
    own = ENGINE.redact(set_up, 1)
    assert own is not None and list(own.game_set_up.deals[1].characters)


def test_views_show_stack_sizes_never_orders() -> None:
    """Hidden information: the building stack is a count; no stack order exists to leak."""
    view = ENGINE.view(started(2), None)
    assert isinstance(view["board"]["building_stack"], int)
    assert view["board"]["building_stack"] == len(content().buildings) - 4 - 12


def test_sunset_returns_gairys_tiles_and_pieces() -> None:
    """Sunset Phase (Gairy): his pieces come off, his Sunrise and Gairy tiles go back."""
    from engines.harvest.evolve import evolve

    state = with_placements(gairy_drew(started(2), 1, 2), ("store_3", -1))
    state = gairy_pieces(state, 0)
    assert state.gairy_sunrise and state.gairy_revealed == {1, 2}
    ended = pb.Event(round_ended=pb.RoundEnded(next_round=2, market_large="tool_shed"))
    after = evolve(state, ended)
    assert after.gairy_revealed == frozenset() and after.gairy_sunrise == 0
    assert after.gairy_pieces == 3 and after.placements == ()


def test_kept_choices_stay_hidden_until_everyone_has_chosen() -> None:
    """Player Setup 2 is simultaneous: a kept pair is shown once every seat has chosen."""
    from .helpers import command, run

    state = table(2).state
    mine = state.players[0]
    keep = pb.KeepStart(character=mine.dealt_characters[0], farmhouse=mine.dealt_farmhouses[0])
    events, state = run(state, 0, command(keep_start=keep))
    hidden = ENGINE.redact(events[0], 1)
    assert hidden is not None and hidden.start_kept.seat == 0
    assert hidden.start_kept.character == "" and hidden.start_kept.farmhouse == ""
    assert ENGINE.view(state, 1)["players"][0]["character"] is None
    assert ENGINE.view(state, 0)["players"][0]["character"] == keep.character
    theirs = state.players[1]
    keep1 = pb.KeepStart(character=theirs.dealt_characters[1], farmhouse=theirs.dealt_farmhouses[1])
    events, state = run(state, 1, command(keep_start=keep1))
    shown = next(e.starts_revealed for e in events if e.HasField("starts_revealed"))
    assert list(shown.characters) == [keep.character, keep1.character]
    assert ENGINE.view(state, 1)["players"][0]["character"] == keep.character


def test_gairy_at_a_full_workshop_reveals_a_building_that_is_discarded() -> None:
    """Action Phase (Gairy): the building he reveals comes "as if it had just been cleared",
    and a cleared building with no empty Workshop space is discarded: one building leaves
    the stacks even when the Workshop is full."""
    from engines.harvest.evolve import evolve
    from engines.harvest.rules import stack_count

    workshop_tiles = {t for t, section, _ in content().gairy_tiles if section == "workshop"}
    others = frozenset(t for t, _, _ in content().gairy_tiles) - workshop_tiles
    full = ("mercantile", "silo", "barn", "well", "smithy", "bakery")
    state = with_workshop(gairy_drew(started(2), *others), *full)
    before = stack_count(state)
    events = gairy_turn(state, Rng(b"g", "full", 0))
    revealed = [e.building_revealed for e in events if e.HasField("building_revealed")]
    assert len(revealed) == 1 and revealed[0].slot == -1
    assert revealed[0].building and revealed[0].building not in full
    for event in events:
        state = evolve(state, event)
    assert state.workshop == full
    assert revealed[0].building in state.revealed_buildings
    assert stack_count(state) == before - 1


def test_gairys_sunrise_tile_is_his_own_and_not_in_the_display() -> None:
    """Sunrise Phase (Gairy): one more tile is revealed for Gairy's order; it is not part
    of the display and no player may choose it."""
    from .helpers import command, run

    for seed in range(12):
        state = started(2, seed=seed)
        assert state.gairy_sunrise and state.gairy_sunrise not in state.display
        held = {p.sunrise for p in state.players}
        assert state.gairy_sunrise not in held and len(set(state.display) | held) == 5
        seat = ENGINE.outcome(state).to_act[0]
        listed = {c.choose_sunrise.tile for c in ENGINE.legal_commands(state, seat)}
        assert listed == set(state.display)
        try:
            run(state, seat, command(choose_sunrise=pb.ChooseSunrise(tile=state.gairy_sunrise)))
        except RuleViolation as refused:
            assert refused.code == "sunrise.not_in_display"
        else:
            raise AssertionError("a player took Gairy's Sunrise tile")


@pytest.mark.parametrize(("seats", "pieces"), [(1, 6), (2, 3), (3, 0), (4, 0)])
def test_gairy_gets_two_sets_of_pieces_solo_and_one_with_two_players(
    seats: int, pieces: int
) -> None:
    """Game Setup 8: a set of 3 Player Pieces for Gairy at 2 players, 2 sets solo; each
    round he places all of them."""
    from .helpers import command, run

    state = started(seats)
    assert state.gairy_pieces == pieces
    gairy_placed = 0
    while state.round == 1:
        seat = ENGINE.outcome(state).to_act[0]
        if state.steps or state.phase == "jaime":
            cmd = command(finish=pb.Finish())
        elif state.phase == "sunrise":
            cmd = command(choose_sunrise=pb.ChooseSunrise(tile=state.display[0]))
        else:
            cmd = command(place_worker=pb.PlaceWorker(space="trading_1", payment=pb.Payment()))
        events, state = run(state, seat, cmd)
        gairy_placed += sum(
            1 for e in events if e.HasField("worker_placed") and e.worker_placed.seat == -1
        )
    assert gairy_placed == pieces
    assert state.gairy_pieces == pieces


def test_the_eight_gairy_tiles_have_eight_different_effects() -> None:
    """1-2 players: no two Gairy tiles send him to the same space in every position
    (each tile's space over every way of closing its section's spaces)."""
    from itertools import combinations

    state = started(4)
    effects = {}
    for tile, section, arrow in content().gairy_tiles:
        spaces = [s.id for s in content().spaces if s.section == section and not s.always_open]
        effect = []
        for size in range(len(spaces) + 1):
            for closed in combinations(spaces, size):
                position = with_placements(state, *((s, 0) for s in closed))
                space = gairy_space(position, section, arrow)
                effect.append(space.id if space else "")
        effects[tile] = tuple(effect)
    assert len(set(effects.values())) == len(effects) == 8


def test_every_seat_can_view_the_table_before_set_up() -> None:
    """A replay of version 0 shows the empty table to a seat as to a spectator."""
    empty = ENGINE.initial_state()
    assert ENGINE.view(empty, 0)["private"] == {"dealt_characters": [], "dealt_farmhouses": []}
    assert ENGINE.view(empty, None)["players"] == []
