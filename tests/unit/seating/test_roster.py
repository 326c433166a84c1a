"""A table's seating, change by change: claims, leaving, starting with bots, tokens."""

from __future__ import annotations

import pytest

from services.seating import OPEN, STARTING, Refused, Roster, Seat


def roster(seats: int = 3) -> Roster:
    return Roster(table_id="t1", game="freunde", seats=tuple(Seat() for _ in range(seats)))


def test_players_take_the_first_open_seat_or_the_one_they_ask_for() -> None:
    table, first = roster().claim(None, "guest:a", "Ann", token="aa")
    table, third = table.claim(2, "guest:b", "", token="bb")
    assert (first, third) == (0, 2)
    assert table.open_seats == [1]
    assert table.seats[2].name == "Seat 2"  # no name given: the seat's
    assert table.seat_of_token("bb") == 2 and table.seat_of_token("cc") is None
    assert table.seat_of_player("guest:a") == 0


@pytest.mark.parametrize(
    ("seat", "player", "code"),
    [
        (0, "guest:c", "seat.taken"),
        (5, "guest:c", "seat.not_found"),
        (1, "guest:a", "player.seated"),
    ],
)
def test_a_claim_the_seating_cannot_take_is_refused(seat: int, player: str, code: str) -> None:
    table, _ = roster().claim(0, "guest:a", "Ann")
    with pytest.raises(Refused) as refused:
        table.claim(seat, player, "")
    assert refused.value.code == code


def test_a_full_table_refuses_more_players_and_a_started_one_any_change() -> None:
    table = roster(2)
    for player in ("guest:a", "guest:b"):
        table, _ = table.claim(None, player, "")
    with pytest.raises(Refused, match=r"table\.full"):
        table.claim(None, "guest:c", "")
    started = table.starting()
    assert started.state == STARTING and started.complete
    for change in (lambda: started.leave(0), lambda: started.claim(None, "guest:c", "")):
        with pytest.raises(Refused, match=r"table\.started"):
            change()


def test_open_seats_go_to_bots_only_when_the_host_says_so() -> None:
    table, _ = roster().claim(0, "guest:a", "Ann")
    with pytest.raises(Refused, match=r"table\.not_full"):
        table.starting()
    started = table.starting("greedy")
    assert [s.bot for s in started.seats] == ["", "greedy", "greedy"]


def test_leaving_frees_the_seat_and_a_reissued_token_replaces_the_old() -> None:
    table, _ = roster().claim(1, "guest:a", "Ann", token="old")
    renewed = table.reissue(1, "new")
    assert renewed.seat_of_token("old") is None and renewed.seat_of_token("new") == 1
    freed = renewed.leave(1)
    assert freed.open_seats == [0, 1, 2] and freed.seat_of_token("new") is None
    with pytest.raises(Refused, match=r"seat\.open"):
        freed.leave(1)


def test_a_reserved_seat_waits_for_its_player_only() -> None:
    table = Roster(
        table_id="t2",
        game="freunde",
        seats=(Seat(player="guest:a", name="Ann", reserved=True), Seat()),
    )
    with pytest.raises(Refused, match=r"seat\.taken"):
        table.claim(0, "guest:z", "")
    taken, seat = table.claim(None, "guest:a", "")
    assert seat == 0 and taken.seats[0].name == "Ann" and not taken.seats[0].reserved


def test_the_stored_form_reads_back_and_never_shows_a_token_in_public() -> None:
    table, _ = roster().claim(0, "app:abc:discord:1", "Ann", token="secret-hash", app="abc")
    again = Roster.from_json(table.to_json(), rev=3)
    assert again.seats == table.seats and again.rev == 3 and again.state == OPEN
    assert "secret-hash" not in str(table.public()) and "secret-hash" not in str(
        table.lobby_status()
    )
