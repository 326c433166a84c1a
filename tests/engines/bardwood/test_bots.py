"""The bots: random (the kit's) and greedy (Bardwood's own)."""

from __future__ import annotations

from engines.bardwood.bots import worth
from engines.bardwood.engine import ENGINE
from engines.core.contract import TableConfig
from engines.core.play import Table
from tests.engines.bardwood.given import ev, opening, position


def test_greedy_beats_random_and_plays_only_legal_commands() -> None:
    """Greedy seats win most games against random ones; every command either bot sends is
    accepted (``Table.execute`` raises on a refusal)."""
    greedy_wins = 0.0
    games = 4
    for game in range(games):
        greedy_seat = game % 2
        bots = [ENGINE.bots["greedy" if s == greedy_seat else "random"](game) for s in (0, 1)]
        table = Table.create(
            ENGINE, TableConfig(f"bots-{game}", 2, {"short_game": True}), bytes([game]) * 8
        )
        for _ in range(20_000):
            if ENGINE.outcome(table.state).finished:
                break
            seat = ENGINE.outcome(table.state).to_act[0]
            table.execute(seat, bots[seat].choose(ENGINE, table.state, seat))
        winners = ENGINE.outcome(table.state).winners
        if greedy_seat in winners:
            greedy_wins += 1 / len(winners)
    assert greedy_wins >= 3


def test_worth_counts_points_first() -> None:
    """A VP crystal is worth more to the greedy bot than the coins that could buy one."""
    base = position(opening()).state
    richer = position(opening(), ev("resources_changed", seat=0, reason="test", coins=2)).state
    scored = position(opening(), ev("crystals_taken", seat=0, reason="test", act1=1)).state
    assert worth(scored, 0) > worth(richer, 0) > worth(base, 0)
