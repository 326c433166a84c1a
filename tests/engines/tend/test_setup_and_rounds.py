"""Setup, Round Structure, Setup Phase, Scoring Phase and the end of the game."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.core.contract import TableConfig
from engines.core.play import Table
from engines.core.rng import Rng
from engines.tend.content import content
from engines.tend.engine import ENGINE
from engines.tend.rounds import ROUNDS
from engines.tend.setup import UPCOMING, set_up
from engines.tend.setup_phase import deal_row
from engines.tend.state import TendState
from proto import tend_pb2 as pb
from tests.engines.tend.given import cmd, e, logged, opening, position, step


def _table(seats: int, **options: object) -> Table:
    config = TableConfig(f"setup-{seats}", seats, {"advanced_cards": True, **options})
    return Table.create(ENGINE, config, bytes([seats]))


@pytest.mark.parametrize("seats", [1, 2, 5, 8])
def test_set_up_deals_the_table_and_each_player(seats: int) -> None:
    """Table Setup a-g, Player Components i: one objective per season, 5 starter cards
    face up (4 left in the task deck), the two upcoming season decks with a face-up
    season-1 top and 3 + 4 + 3 cards under it, and 4 neighbour cards drawn per player,
    2 of them kept."""
    table = _table(seats)
    (setup,) = [ev.game_set_up for ev in logged(table) if ev.HasField("game_set_up")]
    c = content()
    assert [c.objectives[o].season for o in setup.objectives] == [1, 2, 3]
    assert len(setup.row) == 5 and all(c.cards[i].deck == "starter" for i in setup.row)
    assert [c.cards[t].deck for t in setup.tops] == ["season_1", "season_1"]
    assert tuple(setup.upcoming) == UPCOMING and Counter(UPCOMING) == {1: 3, 2: 4, 3: 3}
    state: TendState = table.state
    assert len(state.task_deck) == 4 and state.phase == "start"
    drawn = [card for p in setup.players for card in p.neighbours]
    assert len(drawn) == 4 * seats == len(set(drawn))
    assert len(state.neighbour_deck) == 36 - 4 * seats
    for player in state.players:
        assert player.mine_level == player.chop_level == 1
        assert len(player.tilled) == len(c.start_tilled)
    keep = ENGINE.legal_commands(state, 0)
    assert len(keep) == 12, "2 of 4, one a side: 4 x 3 ways"


def test_set_up_refuses_more_than_eight_players() -> None:
    with pytest.raises(Exception, match="1 to 8"):
        set_up(TableConfig("too-many", 9, {}), Rng(b"s", "t", 0))


def test_the_advanced_cards_are_left_out_of_a_first_game() -> None:
    """Table Setup e: 'we recommend removing the task cards marked as advanced'."""
    seen: set[str] = set()
    for seed in range(4):
        config = TableConfig(f"first-{seed}", 1, {"advanced_cards": False})
        table = Table.create(ENGINE, config, bytes([seed]))
        state = table.state
        while not ENGINE.outcome(state).finished and state.round < 12:
            seen |= {u.top for u in state.upcoming if u.top}
            state = _finish_round(table)
    assert seen and not any(content().cards[c].advanced for c in seen)


def _hurry(table: Table) -> None:
    """One command: finish when the seat may, else its first legal command."""
    seat = ENGINE.outcome(table.state).to_act[0]
    legal = ENGINE.legal_commands(table.state, seat)
    finish = [c for c in legal if c.WhichOneof("kind") == "finish"]
    table.execute(seat, finish[0] if finish else legal[0])


def _finish_round(table: Table) -> TendState:
    """Seats do as little as they may until a new round begins (or the game ends)."""
    start = table.state.round
    while table.state.round == start and not ENGINE.outcome(table.state).finished:
        _hurry(table)
    state: TendState = table.state
    return state


def _play_until(table: Table, round_: int, phase: str) -> None:
    while (table.state.round, table.state.phase) != (round_, phase):
        _hurry(table)


def test_twelve_rounds_of_five_phases_then_a_last_neighbour_phase_and_final_scoring() -> None:
    """Round 1 has no neighbour or set-up phase; rounds 2-12 each begin with a neighbour
    phase, rounds 6 and 10 score seasons 1 and 2, and after round 12 one more neighbour
    phase comes before season 3 is scored and the game ends. Each round's row holds 3
    task-deck cards and the 2 season tops; the season decks run out after round 12."""
    table = _table(2)
    phases = []
    rows = []
    while not ENGINE.outcome(table.state).finished:
        before = len(table.events)
        _finish_round(table)
        for event in logged(table)[before:]:
            if event.HasField("phase_began"):
                phases.append((event.phase_began.round, event.phase_began.phase))
            if event.HasField("task_row_dealt"):
                rows.append(event.task_row_dealt)
    kinds = [ev.WhichOneof("kind") for ev in logged(table)]
    assert phases[0] == (1, "tasks")
    assert phases[1:-1] == [(r, p) for r in range(2, ROUNDS + 1) for p in ("neighbour", "tasks")]
    assert phases[-1] == (12, "final")
    assert [r.round for r in rows] == list(range(2, 13))
    for row in rows:
        assert len(row.row) == 5 and len(set(row.row)) == 5
        decks = [content().cards[c].deck for c in row.row[3:]]
        season = 1 if row.round <= 5 else 2 if row.round <= 9 else 3
        assert decks == [f"season_{season}"] * 2, row.round
    assert list(rows[-1].tops) == ["", ""], "no season card left: round 12 was the last"
    scored = [ev.objective_scored.season for ev in logged(table) if ev.HasField("objective_scored")]
    assert scored == [1, 2, 3]
    assert kinds[-1] == "game_finished" and table.state.phase == "finished"
    assert len(table.state.final) == 2


def test_the_setup_phase_reshuffles_the_discard_and_season_cards_come_back() -> None:
    """Setup Phase: face-up cards, season cards included, go to the task discard; when the
    task deck runs out the discard is reshuffled into it, so season cards return."""
    table = _table(1)
    _play_until(table, 4, "tasks")
    state = table.state
    dealt = [ev.task_row_dealt for ev in logged(table) if ev.HasField("task_row_dealt")]
    assert [d.reshuffled for d in dealt] == [False, True, False]
    back = {c for c in state.task_deck + state.row[:3] if content().cards[c].deck != "starter"}
    assert back, "season cards of earlier rows are back in the task deck"
    pool = sorted(state.task_deck)
    again = deal_row(state, Rng(b"x", "y", 1)).task_row_dealt
    assert set(again.row[:3]) <= set(pool) | set(state.task_discard) | set(state.row)


def test_the_season_tops_are_public_and_become_the_next_rows_season_cards() -> None:
    table = _table(1)
    tops = [u.top for u in table.state.upcoming]
    assert ENGINE.view(table.state, None)["board"]["upcoming"] == [
        {"top": tops[0], "below": 10},
        {"top": tops[1], "below": 10},
    ]
    _play_until(table, 2, "tasks")
    assert list(table.state.row[3:]) == tops


def test_a_phase_ends_only_when_every_seat_is_done() -> None:
    """Each seat finishes its own task phase; the next phase waits for the last one."""
    history = opening(seats=3)
    history += step(history, 0, cmd(finish=pb.Finish()))
    history += step(history, 2, cmd(finish=pb.Finish()))
    waiting = position(history)
    assert waiting.state.phase == "tasks" and ENGINE.outcome(waiting.state).to_act == (1,)
    waiting.when(0, cmd(finish=pb.Finish())).refused("turn.not_yours")
    last = waiting.when(1, cmd(finish=pb.Finish())).accepted()
    assert (last.state.round, last.state.phase) == (2, "neighbour")
    assert e(phase_began=pb.PhaseBegan(round=2, phase="neighbour")) in last.events
