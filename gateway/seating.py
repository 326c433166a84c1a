"""Opening tables, taking and leaving seats, starting, rematches: the lobby's side of a
table, over the seating records of :mod:`services.seating`.

A table opened with open seats has no game yet: players claim seats (each gets its seat
token; an app's user gets none, its app acts for it), leave them, the host removes one.
When the last seat is taken, or when the host starts it with bots in the empty seats,
the seats become final (``starting``), the lobby entry is taken down, and the engine is
asked to create the game with the same table id and ``seat_bots``; then the seating says
``started`` and the projector lists the table again from its first events. If the gateway
stops between two of these steps, the next request about the table finishes the start
(creating a table that exists already is taken as done).

Every seating change is a compare-and-set on the table's record, so two players taking the
last seat at once cannot both get it; the loser is told the seat is taken.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

import grpc
import structlog

from engines.core.canonical import canonical_json
from gateway.errors import ApiError
from gateway.identity import Caller
from gateway.seats import new_invite, new_token, new_tokens, token_digest
from proto import common_pb2, engine_pb2
from services.players import new_guest
from services.seating import OPEN, STARTING, Refused, Roster, Seat

if TYPE_CHECKING:
    from gateway.api.deps import Gateway, TableAt

__all__ = [
    "Claimed",
    "claim",
    "create_full",
    "ensure_started",
    "leave",
    "open_table",
    "reissue",
    "rematch",
    "rematch_id",
    "rename",
    "start",
]

log = structlog.get_logger("gateway.seating")

T = TypeVar("T")


def now_ms() -> int:
    return time.time_ns() // 1_000_000


class Claimed:
    """A seat just taken: where, its token (``None`` for an app's user), the table's state."""

    def __init__(self, roster: Roster, seat: int, token: str | None) -> None:
        self.roster = roster
        self.seat = seat
        self.token = token


def _person(who: Caller) -> str | None:
    """Who takes a seat for this caller: an app's user, or a new guest (``None``: an app
    alone, which takes no seat)."""
    if who.app is not None:
        return who.player if who.user else None
    return new_guest()


# -- the engine's side of a start --------------------------------------------------------


async def _create_game(gateway: Gateway, roster: Roster, seed: bytes = b"") -> int:
    """Create the game on the engine (taken as done when it exists); its version."""
    backend = gateway.backends.get(roster.game)
    bots = [seat.bot for seat in roster.seats]
    request = engine_pb2.CreateTableRequest(
        table_id=roster.table_id,
        seats=len(roster.seats),
        options=dict(roster.options),
        seed=seed,
        seat_bots=bots if any(bots) else [],
        unlisted=not roster.listed,
        clock=turn_clock(roster.clock),
    )
    try:
        reply = await backend.stub.CreateTable(request, timeout=gateway.backends.timeout)
    except grpc.aio.AioRpcError as failed:
        if failed.code() == grpc.StatusCode.ALREADY_EXISTS:
            return 0
        raise
    return int(reply.version)


def turn_clock(clock: Mapping[str, Any]) -> common_pb2.TurnClock | None:
    """The engine's ``TurnClock`` of a seating's clock (``None``: no time limit)."""
    return common_pb2.TurnClock(**clock) if clock else None


async def _list(gateway: Gateway, roster: Roster) -> None:
    """Write the lobby entry of a table that has no events yet; while it waits for players
    the entry leaves the lobby when its seating record expires."""
    expiry = now_ms() + gateway.store.seating.open_ttl_ms if roster.state == OPEN else None
    await gateway.store.lobby.record(
        roster.game, canonical_json(roster.lobby_status()), expire_at_ms=expiry
    )


async def _started(gateway: Gateway, roster: Roster, seed: bytes = b"") -> Roster:
    """From ``starting``: delist the open entry, create the game, mark it started."""
    await _list(gateway, roster)
    await _create_game(gateway, roster, seed)

    def mark(current: Roster) -> tuple[Roster, None]:
        return (current.started() if current.state == STARTING else current), None

    after, _ = await gateway.store.seating.change(roster.table_id, mark)
    log.info("table.started", table_id=roster.table_id, bots=[s.bot for s in roster.seats])
    return after


async def ensure_started(gateway: Gateway, roster: Roster) -> Roster:
    """Finish a start an earlier request began (see the module docstring)."""
    return await _started(gateway, roster)


# -- opening --------------------------------------------------------------------------------


async def create_full(
    gateway: Gateway,
    who: Caller,
    game: str,
    seats: int,
    options: dict[str, str],
    seed: bytes,
    listed: bool,
    clock: Mapping[str, Any],
) -> tuple[Roster, list[str], int, bytes]:
    """A table whose every seat goes to the caller at once (one token each), started now.
    Returns the roster, the tokens, the version and the seed commitment."""
    table_id = new_table_id()
    tokens = new_tokens(table_id, seats)
    players = tuple(
        Seat(player=new_guest(), name=f"Seat {n}", token=token_digest(t))
        for n, t in enumerate(tokens)
    )
    roster = Roster(
        table_id=table_id,
        game=game,
        seats=players,
        options=options,
        host=players[0].player,
        app=who.app.app_id if who.app else "",
        listed=listed,
        state=STARTING,
        created_ms=now_ms(),
        clock=clock,
    )
    await gateway.store.seating.create(roster)
    backend = gateway.backends.get(game)
    request = engine_pb2.CreateTableRequest(
        table_id=table_id,
        seats=seats,
        options=options,
        seed=seed,
        unlisted=not listed,
        clock=turn_clock(clock),
    )
    try:
        reply = await backend.stub.CreateTable(request, timeout=gateway.backends.timeout)
    except grpc.aio.AioRpcError as failed:
        if failed.code() in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION):
            # The rules refused the set-up: no game, so no seating either.
            await gateway.store.redis.delete(gateway.store.seating.keys(table_id).seating)
        raise

    def mark(current: Roster) -> tuple[Roster, None]:
        return current.started(), None

    roster, _ = await gateway.store.seating.change(table_id, mark)
    for seat in roster.seats:
        await gateway.store.players.add(seat.player, table_id, roster.created_ms)
    return roster, tokens, int(reply.version), bytes(reply.meta.seed_commitment)


def new_table_id() -> str:
    return secrets.token_hex(8)


async def open_table(
    gateway: Gateway,
    who: Caller,
    game: str,
    seats: int,
    options: dict[str, str],
    listed: bool,
    take_seat: bool,
    name: str | None,
    clock: Mapping[str, Any],
) -> tuple[Roster, Claimed | None, str | None]:
    """A table with open seats; the caller takes seat 0 unless it is an app alone or says
    ``take_seat: false`` (an anonymous caller always takes it: it is the host). Returns the
    seating, the caller's seat (if any) and the invite code of an unlisted table."""
    table_id = new_table_id()
    person = _person(who)
    if person is not None and who.app is None:
        take_seat = True
    invite = None if listed else new_invite()
    roster = Roster(
        table_id=table_id,
        game=game,
        seats=tuple(Seat() for _ in range(seats)),
        options=options,
        host=person or who.player or "",
        app=who.app.app_id if who.app else "",
        listed=listed,
        invite=token_digest(invite) if invite else "",
        state=OPEN,
        created_ms=now_ms(),
        clock=clock,
    )
    claimed: Claimed | None = None
    if take_seat and person is not None:
        token = None if who.app else new_token(table_id)
        roster, seat = roster.claim(
            0,
            person,
            name or "",
            token=token_digest(token) if token else "",
            app=who.app.app_id if who.app else "",
        )
        claimed = Claimed(roster, seat, token)
    roster = await gateway.store.seating.create(roster)
    if claimed is not None:
        await gateway.store.players.add(person or "", table_id, roster.created_ms)
    await _list(gateway, roster)
    if roster.complete:
        roster = await _begin(gateway, table_id, None)
    if claimed is not None:
        claimed.roster = roster
    log.info("table.opened", table_id=table_id, game=game, seats=seats, listed=listed)
    return roster, claimed, invite


# -- taking, leaving, naming ----------------------------------------------------------------


def _check_invite(roster: Roster, invite: str | None) -> None:
    if not roster.invite:
        return
    if invite is None or not hmac.compare_digest(token_digest(invite), roster.invite):
        raise ApiError(
            403, "invite.invalid", "This table is joined only with its invite code (invite_code)."
        )


async def claim(
    gateway: Gateway, at: TableAt, seat: int | None, name: str | None, invite: str | None
) -> Claimed:
    """The caller takes ``seat`` (or the first open one); the game starts when it was the
    last."""
    who = at.who
    if at.roster is None or at.roster.state != OPEN:
        raise ApiError(409, "table.started", "The game has started: its seats are final.")
    if who.token is not None:
        raise ApiError(409, "player.seated", "You already have a seat at this table.")
    person = _person(who)
    if person is None:
        raise ApiError(
            401, "auth.missing", "An app takes a seat for one of its users: send X-App-User."
        )
    reserved = any(s.reserved and s.player == person for s in at.roster.seats)
    if not reserved:
        _check_invite(at.roster, invite)
    token = None if who.app else new_token(at.table_id)
    app = who.app.app_id if who.app else ""

    def take(current: Roster) -> tuple[Roster, int]:
        return current.claim(
            seat, person, name or "", token=token_digest(token) if token else "", app=app
        )

    roster, taken = await _change(gateway, at.table_id, take)
    await gateway.store.players.add(person, at.table_id, now_ms())
    await _list(gateway, roster)
    log.info("seat.claimed", table_id=at.table_id, seat=taken)
    if roster.complete:
        roster = await _begin(gateway, at.table_id, None)
    return Claimed(roster, taken, token)


def _is_host(at: TableAt) -> bool:
    roster = at.roster
    if roster is None:
        return False
    if at.who.app is not None and roster.app and at.who.app.app_id == roster.app:
        return True
    return bool(roster.host) and at.player == roster.host


def _owns(at: TableAt, seat: int) -> bool:
    """The caller is ``seat``'s player, or the app that seated that player."""
    if at.seat == seat:
        return True
    if at.roster is None or at.who.app is None or not 0 <= seat < len(at.roster.seats):
        return False
    return at.roster.seats[seat].app == at.who.app.app_id and bool(at.roster.seats[seat].app)


async def leave(gateway: Gateway, at: TableAt, seat: int) -> Roster:
    """Free ``seat`` before the start: its player leaves, or the host removes it."""
    roster = _roster(at)
    player = roster.seat(seat).player
    if not (_owns(at, seat) or _is_host(at)):
        raise ApiError(
            403, "seat.not_yours", "Only the seat's player or the table's host may free it."
        )

    def free(current: Roster) -> tuple[Roster, None]:
        return current.leave(seat), None

    after, _ = await _change(gateway, at.table_id, free)
    if player:
        await gateway.store.players.remove(player, at.table_id)
    await _list(gateway, after)
    log.info("seat.freed", table_id=at.table_id, seat=seat)
    return after


async def rename(gateway: Gateway, at: TableAt, seat: int, name: str) -> Roster:
    """Change ``seat``'s display name (its player, or the app that seated it)."""
    roster = _roster(at)
    roster.seat(seat)
    if not _owns(at, seat):
        raise ApiError(403, "seat.not_yours", "Only the seat's player may rename it.")

    def named(current: Roster) -> tuple[Roster, None]:
        return current.rename(seat, name), None

    after, _ = await _change(gateway, at.table_id, named)
    if after.state == OPEN:
        await _list(gateway, after)
    return after


async def reissue(gateway: Gateway, at: TableAt, seat: int) -> str:
    """A new token for ``seat``; the old one is refused from now on. Its player may ask
    (with the old token, or through its app), or the app that seated it."""
    roster = _roster(at)
    roster.seat(seat)
    if not _owns(at, seat):
        raise ApiError(
            403,
            "seat.not_yours",
            "Only the seat's player, or the app that seated it, may re-issue its token.",
        )
    token = new_token(at.table_id)

    def renewed(current: Roster) -> tuple[Roster, None]:
        return current.reissue(seat, token_digest(token)), None

    await _change(gateway, at.table_id, renewed)
    log.info("seat.token_reissued", table_id=at.table_id, seat=seat)
    return token


# -- starting -------------------------------------------------------------------------------


async def _begin(gateway: Gateway, table_id: str, bots: str | None) -> Roster:
    def final(current: Roster) -> tuple[Roster, None]:
        return current.starting(bots), None

    roster, _ = await _change(gateway, table_id, final)
    return await _started(gateway, roster)


async def start(gateway: Gateway, at: TableAt, bots: str | None) -> Roster:
    """The host starts the table now, ``bots`` in the seats still open."""
    roster = _roster(at)
    if not _is_host(at):
        raise ApiError(403, "host.only", "Only the table's host may start it.")
    if roster.state != OPEN:
        raise ApiError(409, "table.started", "The game has started already.")
    offered = at.backend.engine.bots if hasattr(at.backend.engine, "bots") else {}
    if bots is not None and bots not in offered:
        raise ApiError(
            422,
            "bots.unknown",
            f"No bot {bots!r} for this game; it offers {', '.join(sorted(offered))}.",
            {"bots": ",".join(sorted(offered))},
        )
    return await _begin(gateway, at.table_id, bots)


# -- a rematch -----------------------------------------------------------------------------


def rematch_id(table_id: str) -> str:
    """The rematch of a table has an id derived from it, so every player asking for it
    reaches the same new table, however many ask at once."""
    return hashlib.sha256(f"rematch:{table_id}".encode()).hexdigest()[:16]


async def rematch(gateway: Gateway, at: TableAt) -> Claimed:
    """A new open table for the same players in the same seats (bots stay bots); the caller
    takes its seat there, each other player's seat waits for it (it asks the same)."""
    roster = _roster(at)
    if at.seat is None and at.player is None:
        raise ApiError(401, "auth.missing", "A rematch is for the table's players: send your seat.")
    person = at.player or ""
    if roster.seat_of_player(person) is None:
        raise ApiError(403, "seat.not_yours", "Only the table's players may ask for a rematch.")
    new_id = rematch_id(at.table_id)
    fresh = Roster(
        table_id=new_id,
        game=roster.game,
        seats=tuple(
            Seat(name=seat.name, bot=seat.bot)
            if seat.bot
            else Seat(player=seat.player, name=seat.name, app=seat.app, reserved=True)
            for seat in roster.seats
        ),
        options=roster.options,
        host=roster.host,
        app=roster.app,
        listed=roster.listed,
        invite=roster.invite,
        state=OPEN,
        created_ms=now_ms(),
        rematch_of=at.table_id,
        clock=roster.clock,
    )
    try:
        await gateway.store.seating.create(fresh)
    except Refused as exists:
        if exists.code != "table.exists":
            raise

    def remember(current: Roster) -> tuple[Roster, None]:
        return current.with_rematch(new_id), None

    await _change(gateway, at.table_id, remember)
    target = await gateway.store.seating.get(new_id)
    if target is None:
        raise ApiError(503, "seating.busy", "The rematch is being set up; ask again.")
    if target.seat_of_player(person) is not None:
        raise ApiError(409, "player.seated", "You have your seat at the rematch already.")
    token = None if at.who.app else new_token(new_id)
    app = at.who.app.app_id if at.who.app else ""

    def take(current: Roster) -> tuple[Roster, int]:
        mine = [n for n, s in enumerate(current.seats) if s.reserved and s.player == person]
        return current.claim(
            mine[0] if mine else None,
            person,
            "",
            token=token_digest(token) if token else "",
            app=app or (current.seats[mine[0]].app if mine else ""),
        )

    after, seat = await _change(gateway, new_id, take)
    await gateway.store.players.add(person, new_id, now_ms())
    await _list(gateway, after)
    if after.complete:
        after = await _begin(gateway, new_id, None)
    log.info("table.rematch", table_id=at.table_id, rematch=new_id, seat=seat)
    return Claimed(after, seat, token)


# -- plumbing -----------------------------------------------------------------------------


def _roster(at: TableAt) -> Roster:
    if at.roster is None:
        raise ApiError(
            409, "table.no_seating", "This table was created before seats could be claimed."
        )
    return at.roster


async def _change(
    gateway: Gateway, table_id: str, decide: Callable[[Roster], tuple[Roster, T]]
) -> tuple[Roster, T]:
    """A seating change (its refusals reach the client through the error handlers)."""
    try:
        return await gateway.store.seating.change(table_id, decide)
    except LookupError:
        raise ApiError(404, "table.not_found", f"No table {table_id!r}.") from None
