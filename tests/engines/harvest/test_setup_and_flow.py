"""Game Setup, Player Setup, and the round structure (Sunrise, Action, Sunset, Game End)."""

from __future__ import annotations

import pytest

from engines.core.errors import RuleViolation
from engines.core.rng import Rng
from engines.harvest.engine import ENGINE
from engines.harvest.state import Built, HarvestState
from engines.harvest.sunrise import reveal_sunrise
from proto import harvest_pb2 as pb

from .helpers import (
    at_round,
    block,
    command,
    crop,
    pieces_all_placed,
    run,
    started,
    table,
    with_player,
    with_workshop,
)


@pytest.mark.parametrize("seats", [1, 2, 3, 4])
def test_set_up_follows_game_and_player_setup(seats: int) -> None:
    """4 Workshop buildings (2 at 3, 2 at 2), market stacks, Gairy at 1-2, farms, start goods."""
    state = table(seats).state
    assert [bool(b) for b in state.workshop] == [True, True, True, True, False, False]
    assert bool(state.market_large)
    assert bool(state.market_small) == (seats == 4)
    assert state.gairy_tiles_per_turn == {1: 2, 2: 1}.get(seats, 0)
    for player in state.players:
        assert len(player.forests) == 6
        assert (player.coins, player.water, player.bucket, player.fertilizer) == (1, 1, 3, 1)
        assert player.seeds == (1, 0, 0, 0)
        assert len(player.dealt_characters) == 2 and len(player.dealt_farmhouses) == 2
    assert len({p.sunrise for p in state.players}) == seats
    assert ENGINE.outcome(state).to_act == tuple(range(seats))


def test_keep_one_of_two_in_any_order_then_sunrise_reveals_three() -> None:
    """Player Setup 2: both seats choose at once; then Sunrise Phase 1 reveals 3 (+1 Gairy)."""
    t = table(2)
    state = t.state
    p1 = state.players[1]
    keep = pb.KeepStart(character=p1.dealt_characters[1], farmhouse=p1.dealt_farmhouses[0])
    _, state = run(state, 1, command(keep_start=keep))
    assert ENGINE.outcome(state).to_act == (0,)
    with pytest.raises(RuleViolation) as refused:
        run(state, 0, command(keep_start=pb.KeepStart(character="nobody", farmhouse="x")))
    assert refused.value.code == "start.not_dealt"
    p0 = state.players[0]
    keep = pb.KeepStart(character=p0.dealt_characters[0], farmhouse=p0.dealt_farmhouses[1])
    events, state = run(state, 0, command(keep_start=keep))
    revealed = next(e.sunrise_revealed for e in events if e.HasField("sunrise_revealed"))
    assert len(revealed.tiles) == 3 and revealed.gairy_tile > 0
    assert state.phase == "sunrise"
    first = min(range(2), key=lambda s: state.players[s].sunrise)
    assert ENGINE.outcome(state).to_act == (first,)


def test_leland_starts_with_bucket_six() -> None:
    """Leland the Frog: the Bucket starts on the 6 space."""
    state = table(4, seed=3, first_game=True).state
    for player in state.players:
        assert player.bucket == (6 if player.character == "leland" else 3)


def test_first_game_deals_the_four_suggested_combos() -> None:
    """First Time Player: Penny, River, Leland, Floyd with their Farmhouses."""
    state = table(4, first_game=True).state
    combos = {(p.character, p.farmhouse) for p in state.players}
    assert combos == {
        ("penny", "bucket_house"),
        ("river", "lucky_house"),
        ("leland", "coin_house"),
        ("floyd", "clearing_house"),
    }


def test_draft_goes_in_sunrise_order_then_back_and_ends_with_one_of_each() -> None:
    """Draft Variant: players+1 of each revealed; forward then reverse; one of each type."""
    state = table(2, draft=True).state
    assert len(state.draft_characters) == 3 and len(state.draft_farmhouses) == 3
    first = min(range(2), key=lambda s: state.players[s].sunrise)
    second = 1 - first
    assert ENGINE.outcome(state).to_act == (first,)
    _, state = run(
        state, first, command(draft_pick=pb.DraftPick(character=state.draft_characters[0]))
    )
    _, state = run(
        state, second, command(draft_pick=pb.DraftPick(character=state.draft_characters[1]))
    )
    assert ENGINE.outcome(state).to_act == (second,)
    with pytest.raises(RuleViolation) as refused:
        run(state, second, command(draft_pick=pb.DraftPick(character=state.draft_characters[2])))
    assert refused.value.code == "draft.have_character"
    _, state = run(
        state, second, command(draft_pick=pb.DraftPick(farmhouse=state.draft_farmhouses[0]))
    )
    _, state = run(
        state, first, command(draft_pick=pb.DraftPick(farmhouse=state.draft_farmhouses[1]))
    )
    assert state.phase == "sunrise"
    assert all(p.character and p.farmhouse for p in state.players)


def _through_sunrise(state: HarvestState) -> HarvestState:
    while state.phase == "sunrise":
        seat = ENGINE.outcome(state).to_act[0]
        if state.steps:
            _, state = run(state, seat, command(finish=pb.Finish()))
        else:
            _, state = run(
                state, seat, command(choose_sunrise=pb.ChooseSunrise(tile=state.display[0]))
            )
    return state


def test_sunrise_swaps_tiles_and_actions_follow_in_sunrise_order() -> None:
    """Sunrise Phase 2: the chosen tile replaces your old one in the display; then the
    Action Phase goes lowest tile first (Gairy included)."""
    state = started(3)
    seat = ENGINE.outcome(state).to_act[0]
    old = state.players[seat].sunrise
    tile = state.display[1]
    _, state = run(state, seat, command(choose_sunrise=pb.ChooseSunrise(tile=tile)))
    assert state.players[seat].sunrise == tile and old in state.display
    state = _through_sunrise(state)
    assert state.phase == "actions"
    order = sorted(range(3), key=lambda s: state.players[s].sunrise)
    assert ENGINE.outcome(state).to_act == (order[0],)


def test_sunset_shifts_workshop_discards_market_tile_and_advances_round() -> None:
    """Sunset Phase: pieces back, Workshop one row down (1-cost row discarded), next tile."""
    state = started(3)
    state = with_workshop(state, "barn", "silo", "well", "smithy", "bakery", "cidery")
    market = state.market_large
    state = _through_sunrise(state)
    events: list[pb.Event] = []
    while state.phase in ("actions", "jaime"):
        seat = ENGINE.outcome(state).to_act[0]
        if state.steps or state.phase == "jaime":
            more, state = run(state, seat, command(finish=pb.Finish()))
        else:
            more, state = run(
                state,
                seat,
                command(place_worker=pb.PlaceWorker(space="store_1", payment=pb.Payment())),
            )
        events += more
    assert state.round == 2 and state.phase == "sunrise"
    assert state.workshop == ("", "", "barn", "silo", "well", "smithy")
    shifted = next(e.workshop_shifted for e in events if e.HasField("workshop_shifted"))
    assert list(shifted.workshop) == list(state.workshop)
    assert list(shifted.discarded) == ["bakery", "cidery"]
    assert state.market_large != market
    assert state.placements == ()
    assert all(p.pieces == 3 for p in state.players)


def test_game_end_scores_buildings_crops_bushes_coins_and_resolves_end_game_buildings() -> None:
    """Game End 1-4: end-game buildings in Sunrise order, then 2 per building (B&B 5),
    1 per crop, 2 per Bush, 1 per 2 Coins."""
    state = started(1)
    farm = (
        crop("bush", (0, 0), (0, 1), berry=True),
        crop("strawberry", (1, 0)),
        crop("wheat", (3, 0), (4, 0), (5, 0)),
    )
    built = (
        Built("bed_and_breakfast", frozenset({(0, 2), (0, 3), (1, 2), (1, 3)})),
        Built("outhouse", frozenset({(2, 2), (2, 3), (3, 2), (3, 3)})),
    )
    state = with_player(
        state, 0, crops=farm, buildings=built, forests=(), coins=5, fertilizer=4, points=10
    )
    state = pieces_all_placed(at_round(state, 4))
    from engines.harvest.turns import advance

    events = advance(state, Rng(b"x", "t", 0))
    for event in events:
        state = ENGINE.evolve(state, event)
    assert state.phase == "game_end"
    assert [t.kind for t in state.steps[-1].tasks] == ["end:outhouse"]
    _, state = run(state, 0, command(take_benefit=pb.TakeBenefit(task=0)))
    _, state = run(state, 0, command(finish=pb.Finish()))
    outcome = ENGINE.outcome(state)
    assert outcome.finished and outcome.winners == (0,)
    # 10 track + 4 Outhouse, buildings 5 + 2, crops 3 (berry, strawberry, wheat), bush 2, coins 2
    assert outcome.scores == (10 + 4 + 7 + 3 + 2 + 2,)
    assert outcome.breakdown["0"]["buildings"] == 7


def test_end_game_buildings_are_resolved_in_sunrise_order() -> None:
    """Game End 1: "Each player (in Sunrise order) resolves their "End Game" Buildings":
    lowest Sunrise tile first, whatever the seat numbers."""
    from engines.harvest.turns import advance

    state = at_round(started(3), 4)
    library = Built("library", block(0, 0))
    for seat, tile in enumerate((9, 2, 5)):
        state = with_player(state, seat, sunrise=tile, buildings=(library,))
    state = pieces_all_placed(state)
    events = advance(state, Rng(b"x", "t", 0))
    for event in events:
        state = ENGINE.evolve(state, event)
    while not ENGINE.outcome(state).finished:
        more, state = run(state, ENGINE.outcome(state).to_act[0], command(finish=pb.Finish()))
        events += more
    turns = [e.turn_began.seat for e in events if e.HasField("turn_began")]
    assert turns == [1, 2, 0]


def test_ties_go_to_leftover_resources_then_are_shared() -> None:
    """Game End: most points wins; ties by leftover Coins, Water, Fertilizer and Seeds."""
    from engines.harvest.scoring import winners
    from engines.harvest.state import FinalScore

    def score(seat: int, total: int, leftovers: int) -> FinalScore:
        return FinalScore(seat, total, total, 0, 0, 0, 0, leftovers)

    assert winners((score(0, 20, 3), score(1, 20, 5), score(2, 19, 9))) == (1,)
    assert winners((score(0, 20, 5), score(1, 20, 5))) == (0, 1)


def test_round_four_shows_the_market_board_after_three_tiles() -> None:
    """Sunset 3: three tiles cover rounds 1-3; round 4 uses the board's own spaces."""
    from engines.harvest.turns import advance

    state = started(4)
    seen = [state.market_large]
    for _ in range(3):
        state = pieces_all_placed(state, phase="jaime")
        for event in advance(state, Rng(b"m", str(state.round), 0)):
            state = ENGINE.evolve(state, event)
            if event.HasField("round_ended"):
                break
        seen.append(state.market_large)
    assert state.round == 4
    assert len(set(seen[:3])) == 3 and seen[3] == "market_board"
    assert state.market_small == "market_board_small"


def test_gairy_takes_his_turns_in_sunrise_order() -> None:
    """Action Phase (Gairy): he places in Sunrise order among the players."""
    state = _through_sunrise(started(2))
    assert -1 in state.order
    while len(state.placements) < 3:
        seat = ENGINE.outcome(state).to_act[0]
        if state.steps:
            _, state = run(state, seat, command(finish=pb.Finish()))
        else:
            _, state = run(
                state,
                seat,
                command(place_worker=pb.PlaceWorker(space="trading_1", payment=pb.Payment())),
            )
    assert [s for _, s in state.placements[:3]] == list(state.order)


def test_sunrise_benefits_are_taken_in_the_order_chosen() -> None:
    """Sunrise Phase 2: the tile, Farmhouse and Character benefits in any order."""
    state = started(3)
    seat = ENGINE.outcome(state).to_act[0]
    _, state = run(state, seat, command(choose_sunrise=pb.ChooseSunrise(tile=state.display[0])))
    count = len(state.steps[-1].tasks)
    assert count >= 2
    last = count - 1
    _, state = run(state, seat, command(take_benefit=pb.TakeBenefit(task=last)))
    assert len(state.steps[-1].tasks) == count - 1


def test_the_sunrise_display_is_shuffled_back_into_the_deck() -> None:
    """Sunrise Phase 3: last round's display goes back into the deck, so the next reveal
    draws from every tile nobody holds (last round's display included), never a held one."""
    state = at_round(started(4), 1, display=(5, 6, 7))
    state = with_player(state, 0, sunrise=1)
    state = with_player(state, 1, sunrise=2)
    state = with_player(state, 2, sunrise=3)
    state = with_player(state, 3, sunrise=4)
    seen: set[int] = set()
    for version in range(40):
        revealed = reveal_sunrise(state, Rng(b"deck", "harvest", version), 2).sunrise_revealed
        assert len(revealed.tiles) == 3 and revealed.gairy_tile == 0
        seen |= set(revealed.tiles)
    assert seen == {5, 6, 7, 8, 9, 10}
