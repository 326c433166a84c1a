"""What a notification is derived from, and the pure parts of webhook delivery: turn and
seat changes, backoff, URL checks, signatures."""

from __future__ import annotations

import hashlib
import hmac
import random

import pytest

from engines.core.contract import Outcome
from services.notifications import (
    GAME_OVER,
    SEAT_JOINED,
    SEAT_LEFT,
    YOUR_TURN,
    WebhookUrlRefused,
    check_url,
    entry_position,
    urls,
)
from services.notifications.signing import signature
from services.notifications.urls import Pinned, address_allowed, pin
from services.notifier import backoff_ms, seat_changes, turn_changes
from services.seating import OPEN, STARTED, Roster, Seat


def roster(*seats: Seat, state: str = STARTED, rev: int = 3) -> Roster:
    return Roster(table_id="t1", game="freunde", seats=seats, state=state, rev=rev)


ANN = Seat(player="guest:a", name="Ann")
BOB = Seat(player="app:0a1b2c3d4e5f:discord:2", name="Bob", app="0a1b2c3d4e5f")
BOT = Seat(name="Bot", bot="greedy")


def outcome(*to_act: int, finished: bool = False, winners: tuple[int, ...] = ()) -> Outcome:
    return Outcome("play", to_act, finished, (10, 12, 3), winners)


def test_the_seat_that_becomes_one_to_act_hears_your_turn_and_only_it() -> None:
    table = roster(ANN, BOB, BOT)
    notes = turn_changes(table, outcome(0), outcome(1), 9, 5)
    assert [(n.kind, n.player, n.seat, n.version) for n in notes] == [(YOUR_TURN, BOB.player, 1, 9)]
    assert turn_changes(table, outcome(0, 1), outcome(1), 9, 5) == []  # Bob was to act already
    assert turn_changes(table, outcome(0), outcome(2), 9, 5) == []  # a bot's turn: nobody's


def test_at_set_up_everyone_to_act_hears_it_and_at_the_end_everyone_hears_the_result() -> None:
    table = roster(ANN, BOB, BOT)
    assert [n.seat for n in turn_changes(table, None, outcome(0, 1, 2), 4, 5)] == [0, 1]
    over = turn_changes(table, outcome(1), outcome(finished=True, winners=(1,)), 80, 5)
    assert [(n.kind, n.seat, n.data["won"]) for n in over] == [
        (GAME_OVER, 0, False),
        (GAME_OVER, 1, True),
    ]
    assert over[0].data["scores"] == [10, 12, 3] and "you lost" in over[0].text
    finished = outcome(finished=True)
    assert turn_changes(table, finished, finished, 81, 5) == []  # the revealed seed after it


def test_ids_depend_on_what_the_notification_is_about_only() -> None:
    table = roster(ANN, BOB)
    once = turn_changes(table, outcome(0), outcome(1), 9, 5)
    again = turn_changes(table, outcome(0), outcome(1), 9, 7)
    later = turn_changes(table, outcome(0), outcome(1), 11, 5)
    assert once[0].id == again[0].id != later[0].id


def test_a_seat_taken_is_told_to_the_others_and_a_seat_freed_to_everyone() -> None:
    empty = Seat()
    before = roster(ANN, empty, empty, state=OPEN, rev=3)
    joined = roster(ANN, BOB, empty, state=OPEN, rev=4)
    notes = seat_changes(before, joined, 5)
    assert [(n.kind, n.player, n.data) for n in notes] == [
        (SEAT_JOINED, ANN.player, {"seat": 1, "name": "Bob", "open_seats": 1})
    ]
    left = roster(ANN, empty, empty, state=OPEN, rev=5)
    notes = seat_changes(joined, left, 5)
    assert sorted((n.kind, n.player) for n in notes) == [
        (SEAT_LEFT, BOB.player),
        (SEAT_LEFT, ANN.player),
    ]
    renamed = roster(ANN, Seat(player=BOB.player, name="Robert"), empty, state=OPEN, rev=6)
    assert seat_changes(joined, renamed, 5) == []
    reserved = Seat(player=BOB.player, reserved=True)
    assert (
        seat_changes(roster(ANN, reserved, state=OPEN), roster(ANN, reserved, state=OPEN), 5) == []
    )
    claimed = seat_changes(roster(ANN, reserved, state=OPEN), roster(ANN, BOB, state=OPEN), 5)
    assert [(n.kind, n.player) for n in claimed] == [(SEAT_JOINED, ANN.player)]


def test_backoff_doubles_to_its_cap_and_keeps_at_least_half() -> None:
    rng = random.Random(1)
    for attempts, ceiling in ((1, 100), (2, 200), (3, 400), (4, 500), (30, 500)):
        waits = [backoff_ms(attempts, 100, 500, rng) for _ in range(200)]
        assert ceiling // 2 <= min(waits) and max(waits) <= ceiling
        assert len(set(waits)) > 1  # jittered


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.com/hook",
        "file:///etc/passwd",
        "javascript:alert(1)",
        "http:///nohost",
        "http://user:pass@example.com/",
        "http://10.0.0.1/",
        "http://192.168.1.1/",
        "http://172.16.0.1/",
        "http://169.254.169.254/latest/meta-data",
        "http://[::1]/",
        "http://[fd00::1]/",
        "http://[::ffff:10.0.0.1]/",
        "http://0.0.0.0/",
        "http://localhost:8000/",
        "http://127.0.0.1:6379/",
        "http://224.0.0.1/",
        "http://example.com:99999/",
        "http://example.com/" + "a" * 2000,
    ],
)
def test_webhook_urls_that_are_not_public_http_are_refused(url: str) -> None:
    with pytest.raises(WebhookUrlRefused):
        check_url(url, allow_loopback=False)


def test_public_urls_pass_and_loopback_only_when_the_operator_allows_it() -> None:
    assert check_url("https://bot.example.com/hook", False) == "https://bot.example.com/hook"
    assert check_url("http://93.184.216.34:8080/x", False)
    assert check_url("http://127.0.0.1:9000/hook", True)
    assert check_url("http://localhost/hook", True)
    assert address_allowed("::1", True) and not address_allowed("::1", False)
    with pytest.raises(WebhookUrlRefused):
        check_url("http://10.0.0.1/", allow_loopback=True)  # private stays refused


def test_the_signature_is_hmac_sha256_of_timestamp_dot_body() -> None:
    body = b'{"a":1}'
    expected = hmac.new(b"whsec_k", b"1764483600." + body, hashlib.sha256).hexdigest()
    assert signature("whsec_k", 1764483600, body) == f"v1={expected}"
    assert signature("whsec_k", 1764483601, body) != signature("whsec_k", 1764483600, body)


def test_entry_positions_order_like_stream_ids() -> None:
    ids = ["0-0", "1764483600000-0", "1764483600000-1", "1764483600000-9", "1764483600001-0"]
    assert [entry_position(i) for i in ids] == sorted(entry_position(i) for i in ids)
    assert len({entry_position(i) for i in ids}) == len(ids)


def _resolving(monkeypatch: pytest.MonkeyPatch, *addresses: str) -> None:
    async def resolve(_host: str, _port: int) -> list[str]:
        return list(addresses)

    monkeypatch.setattr(urls, "_addresses", resolve)


@pytest.mark.anyio
async def test_a_webhook_url_is_pinned_to_the_address_that_was_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _resolving(monkeypatch, "93.184.216.34", "93.184.216.35")
    assert await pin("https://bot.example.com/hook?a=1#x", False) == Pinned(
        "https://93.184.216.34/hook?a=1", "bot.example.com", "bot.example.com"
    )
    _resolving(monkeypatch, "2606:2800:220:1:248:1893:25c8:1946")
    assert await pin("http://bot.example.com:8080/x", False) == Pinned(
        "http://[2606:2800:220:1:248:1893:25c8:1946]:8080/x", "bot.example.com:8080", None
    )


@pytest.mark.anyio
async def test_a_name_with_any_internal_address_is_refused_before_the_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _resolving(monkeypatch, "93.184.216.34", "10.0.0.5")
    refusal = await pin("https://bot.example.com/hook", False)
    assert isinstance(refusal, str) and "10.0.0.5" in refusal
    _resolving(monkeypatch)
    assert await pin("https://bot.example.com/hook", False) == (
        "cannot resolve bot.example.com: no address"
    )
    assert isinstance(await pin("ftp://bot.example.com/", False), str)
