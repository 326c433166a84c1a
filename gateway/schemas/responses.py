"""Bodies the API returns."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "AuditCheckOut",
    "AuditOut",
    "CommandResult",
    "DeliveriesOut",
    "DeliveryOut",
    "ErrorOut",
    "EventOut",
    "EventsOut",
    "GameOut",
    "GamesOut",
    "HealthOut",
    "LegalCommandsOut",
    "LobbyOut",
    "LobbyTable",
    "MenuOut",
    "MoveOut",
    "MyTable",
    "MyTablesOut",
    "NotificationOut",
    "NotificationsOut",
    "OptionOut",
    "ReplayOut",
    "SeatClaimed",
    "SeatOut",
    "SeatingOut",
    "TableCreated",
    "TableView",
    "TokenOut",
    "WebhookCreated",
    "WebhookOut",
    "WebhookSecretOut",
    "WebhooksOut",
]


# Shared by the examples below (shown in /docs).
_TABLE = "5f0c8e2a9b7d4c1e3a6f8b20"
_HASH = "9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c"
_EVENT: dict[str, Any] = {
    "version": 2,
    "command_id": "seat0-0001",
    "seat": 0,
    "time_ms": 1764483600123,
    "event": {"start_kept": {"seat": 0, "character": "mick", "farmhouse": "well_house"}},
    "text": "Seat 0 keeps Mick the Mole and the Well House",
    "hash": _HASH,
    "prev_hash": _HASH,
    "public_payload": "EgA=",
    "seat_commitments": [_HASH, _HASH],
    "commitment": _HASH,
    "salt": _HASH,
    "seat_payload": "EhISBG1pY2saCndlbGxfaG91c2U=",
}


def _example(example: dict[str, Any]) -> ConfigDict:
    """A model's config that shows ``example`` in /docs."""
    return ConfigDict(json_schema_extra={"examples": [example]})


class ErrorOut(BaseModel):
    model_config = _example(
        {
            "code": "version.conflict",
            "message": "the table is at version 12, not 11",
            "details": {"version": "12"},
        }
    )

    code: str = Field(examples=["turn.not_yours"])
    message: str
    details: dict[str, Any] = Field(default_factory=dict)


class OptionOut(BaseModel):
    name: str
    kind: str
    default: Any
    description: str
    choices: list[str] = Field(default_factory=list)


class GameOut(BaseModel):
    game: str
    title: str
    min_seats: int
    max_seats: int
    options: list[OptionOut]
    example_command: dict[str, Any] | None = Field(
        default=None, description="A command this game accepts, as protobuf JSON."
    )


class GamesOut(BaseModel):
    model_config = _example(
        {
            "games": [
                {
                    "game": "harvest",
                    "title": "Harvest",
                    "min_seats": 1,
                    "max_seats": 4,
                    "options": [
                        {
                            "name": "draft",
                            "kind": "bool",
                            "default": False,
                            "description": "Draft Variant: pick Characters and Farmhouses.",
                            "choices": [],
                        }
                    ],
                    "example_command": {
                        "keep_start": {"character": "mick", "farmhouse": "orchard_house"}
                    },
                }
            ]
        }
    )

    games: list[GameOut]


class TableCreated(BaseModel):
    model_config = _example(
        {
            "table_id": _TABLE,
            "game": "harvest",
            "seats": 2,
            "tokens": ["q0VtZ3h0...", "Jm9yZ2V0..."],
            "seed_commitment": _HASH,
            "version": 1,
        }
    )

    table_id: str
    game: str
    seats: int
    tokens: list[str] = Field(
        description="One secret per seat, in seat order; shown only once. Empty for an open"
        " table (see `token`)."
    )
    seed_commitment: str = Field(
        description="sha256 of the seed, hex; empty until an open table starts."
    )
    version: int
    state: str = Field(
        default="started", description="`started`, or `open` while seats wait for players."
    )
    seat: int | None = Field(default=None, description="Open tables: the caller's seat, if any.")
    token: str | None = Field(
        default=None,
        description="Open tables: the caller's seat token (shown once); null for an app's user"
        " (its app acts for it).",
    )
    invite_code: str | None = Field(
        default=None, description="Unlisted open tables: the code others join with."
    )


class SeatOut(BaseModel):
    """One seat as anyone may see it."""

    seat: int
    name: str
    bot: str | None = Field(default=None, description="The game's bot that plays it.")
    open: bool = Field(description="Nobody has taken it yet.")
    reserved: bool = Field(
        default=False, description="A rematch keeps it for the last game's player."
    )


class SeatingOut(BaseModel):
    model_config = _example(
        {
            "table_id": _TABLE,
            "game": "harvest",
            "state": "open",
            "open_seats": 1,
            "seating": [
                {"seat": 0, "name": "Ann", "bot": None, "open": False, "reserved": False},
                {"seat": 1, "name": "Seat 1", "bot": None, "open": True, "reserved": False},
            ],
        }
    )

    table_id: str
    game: str
    state: str = Field(description="`open`, `starting` or `started`.")
    open_seats: int
    seating: list[SeatOut]


class SeatClaimed(BaseModel):
    model_config = _example(
        {
            "table_id": _TABLE,
            "seat": 1,
            "token": f"{_TABLE}.q0VtZ3h0...",
            "state": "started",
        }
    )

    table_id: str
    seat: int
    token: str | None = Field(
        description="Your seat token, shown once; null when an app took the seat for its user."
    )
    state: str = Field(description="`started` when this seat was the last one open.")


class TokenOut(BaseModel):
    model_config = _example({"table_id": _TABLE, "seat": 1, "token": f"{_TABLE}.Jm9yZ2V0..."})

    table_id: str
    seat: int
    token: str = Field(description="The seat's new token (shown once); the old one is refused.")


class MyTable(BaseModel):
    table_id: str
    game: str
    seat: int
    name: str
    state: str = Field(description="`open`, `started` or `finished`.")
    your_turn: bool
    status: dict[str, Any] = Field(description="As in the lobby: phase, to_act, scores...")


class MyTablesOut(BaseModel):
    model_config = _example(
        {
            "player": "app:3f2a9c01b7de:discord:1234",
            "tables": [
                {
                    "table_id": _TABLE,
                    "game": "harvest",
                    "seat": 1,
                    "name": "Ann",
                    "state": "started",
                    "your_turn": True,
                    "status": {"phase": "day", "to_act": [1], "finished": False},
                }
            ],
        }
    )

    player: str = Field(description="Your player id.")
    tables: list[MyTable] = Field(description="Your turn first, then the newest seat first.")


class LobbyTable(BaseModel):
    table_id: str
    game: str
    status: dict[str, Any]


class LobbyOut(BaseModel):
    model_config = _example(
        {
            "tables": [
                {
                    "table_id": _TABLE,
                    "game": "harvest",
                    "status": {
                        "table_id": _TABLE,
                        "game": "harvest",
                        "seats": 2,
                        "created_ms": 1764483600000,
                        "version": 12,
                        "phase": "day",
                        "to_act": [1],
                        "finished": False,
                        "scores": [3, 1],
                        "winners": [],
                    },
                }
            ],
            "next_cursor": f"0001764483600000:{_TABLE}",
        }
    )

    tables: list[LobbyTable]
    next_cursor: str | None = Field(
        default=None, description="Pass as ?cursor= for the next page; null on the last page."
    )


class TableView(BaseModel):
    model_config = _example(
        {
            "table_id": _TABLE,
            "game": "harvest",
            "seats": 2,
            "seat": 0,
            "version": 12,
            "view": {"phase": "day", "round": 1, "players": ["..."]},
            "status": {
                "table_id": _TABLE,
                "game": "harvest",
                "seats": 2,
                "created_ms": 1_764_000_000_000,
                "version": 12,
                "phase": "day",
                "to_act": [0],
                "finished": False,
                "scores": [3, 1],
                "winners": [],
            },
        }
    )

    table_id: str
    game: str
    seats: int
    seat: int | None = Field(description="The caller's seat; null for a spectator.")
    version: int
    view: dict[str, Any] = Field(description="Empty while the table waits for players.")
    status: dict[str, Any] = Field(
        description="The table at this version: phase, seats to act, scores, winners, how "
        "it ended, clocks (the document the lobby lists)."
    )
    state: str = Field(default="started", description="`open` while seats wait for players.")
    seating: list[SeatOut] = Field(
        default_factory=list, description="Who sits where (names, bots, open seats)."
    )


class MoveOut(BaseModel):
    """One legal command with its words."""

    command: dict[str, Any] = Field(description="The command to send, as protobuf JSON.")
    group: str = Field(description="The menu it belongs in (a kind of move).")
    text: str = Field(description="The move in words, for a person to pick.")


class MenuOut(BaseModel):
    """A menu of at most 25 moves (chat clients' select menus hold 25 options)."""

    title: str
    moves: list[int] = Field(description="Positions in `moves` (and `commands`), in order.")


_KEEP = {"keep_start": {"character": "mick", "farmhouse": "well_house"}}
_KEEP_MILL = {"keep_start": {"character": "mick", "farmhouse": "mill_house"}}


class LegalCommandsOut(BaseModel):
    model_config = _example(
        {
            "table_id": _TABLE,
            "seat": 0,
            "version": 1,
            "commands": [_KEEP, _KEEP_MILL],
            "moves": [
                {
                    "command": _KEEP,
                    "group": "Keep your start",
                    "text": "Keep Mick the Mole and the Well House",
                },
                {
                    "command": _KEEP_MILL,
                    "group": "Keep your start",
                    "text": "Keep Mick the Mole and the Mill House",
                },
            ],
            "menus": [{"title": "Keep your start", "moves": [0, 1]}],
        }
    )

    table_id: str
    seat: int
    version: int
    commands: list[dict[str, Any]] = Field(description="Every legal command, as protobuf JSON.")
    moves: list[MoveOut] = Field(
        default_factory=list, description="The same commands, in the same order, in words."
    )
    menus: list[MenuOut] = Field(
        default_factory=list,
        description="The moves grouped into menus of at most 25, in listing order; a group too"
        ' large for one menu is split ("Place a plot (1/3)").',
    )


class EventOut(BaseModel):
    model_config = _example(_EVENT)

    version: int
    command_id: str
    seat: int
    time_ms: int
    event: dict[str, Any] | None = Field(
        description="The game event as the caller may see it; null when hidden."
    )
    text: str | None = Field(
        default=None,
        description="The same event in one line of words, as the caller sees it; null when hidden.",
    )
    seed_revealed: str | None = Field(default=None, description="The revealed seed, hex.")
    control: dict[str, Any] | None = Field(
        default=None,
        description="A table event, the same in every game (public): `turn_timed_out`"
        " (seat, deadline_ms, then: bot or forfeit), `seat_resigned` (seat, then: bot or"
        " end), `table_finished` (reason: resigned, forfeited or abandoned; seat).",
    )
    hash: str = Field(description="sha256(prev_hash || the event's EventLink bytes), hex.")
    prev_hash: str = Field(description="The hash of the event before (64 zeros for the first).")
    public_payload: str | None = Field(
        default=None,
        description=(
            "The game event as a spectator sees it, as protobuf bytes in base64: what the hash"
            " covers; null when a spectator sees nothing of it."
        ),
    )
    seat_commitments: list[str] = Field(
        default_factory=list,
        description="One salted commitment (hex) per seat to that seat's view of the event.",
    )
    commitment: str = Field(
        default="", description="The salted commitment (hex) to the whole event and its command."
    )
    salt: str | None = Field(
        default=None,
        description=(
            "Your seat's salt for this event (hex): sha256(salt || length || seat_payload)"
            " is seat_commitments[your seat]. Absent for spectators."
        ),
    )
    seat_payload: str | None = Field(
        default=None,
        description="The event as your seat sees it, as protobuf bytes in base64 (seats only).",
    )


class CommandResult(BaseModel):
    model_config = _example(
        {
            "table_id": _TABLE,
            "version": 2,
            "duplicate": False,
            "events": [_EVENT],
            "links": {"view": f"/v1/tables/{_TABLE}?min_version=2"},
        }
    )

    table_id: str
    version: int = Field(description="The table's version once this command was applied.")
    duplicate: bool
    events: list[EventOut]
    links: dict[str, str] = Field(
        default_factory=dict,
        description=(
            "`view`: the caller's view no older than this command. Views are projected a"
            " moment after a command is applied; this URL waits for that (`min_version`)."
        ),
    )


class EventsOut(BaseModel):
    model_config = _example(
        {
            "table_id": _TABLE,
            "head": 2,
            "events": [
                {**_EVENT, "version": 1, "command_id": "setup", "seat": -1, "event": None},
                _EVENT,
            ],
        }
    )

    table_id: str
    head: int
    events: list[EventOut]


class ReplayOut(BaseModel):
    model_config = _example(
        {
            "table_id": _TABLE,
            "at": 2,
            "seat": None,
            "view": {"phase": "choose_start", "round": 0, "players": ["..."]},
            "outcome": {
                "phase": "choose_start",
                "to_act": [1],
                "finished": False,
                "scores": [0, 0],
                "winners": [],
                "breakdown": {},
            },
        }
    )

    table_id: str
    at: int
    seat: int | None
    view: dict[str, Any]
    outcome: dict[str, Any]


class AuditCheckOut(BaseModel):
    name: str = Field(examples=["commitments"])
    ok: bool
    detail: str


class AuditOut(BaseModel):
    model_config = _example(
        {
            "table_id": _TABLE,
            "ok": True,
            "chain_ok": True,
            "first_bad_version": 0,
            "reexecution_checked": True,
            "reexecution_ok": True,
            "detail": "",
            "head_version": 241,
            "head_hash": _HASH,
            "seed": _HASH,
            "checks": [
                {"name": "hash chain", "ok": True, "detail": "241 events linked"},
                {"name": "commitments", "ok": True, "detail": "723 commitments open"},
            ],
        }
    )

    table_id: str
    ok: bool
    chain_ok: bool
    first_bad_version: int
    reexecution_checked: bool
    reexecution_ok: bool
    detail: str
    head_version: int
    head_hash: str
    seed: str | None = Field(default=None, description="Revealed seed (hex) once finished.")
    checks: list[AuditCheckOut] = Field(
        default_factory=list, description="Every check, in the order run."
    )


class HealthOut(BaseModel):
    model_config = _example({"status": "ready", "checks": {"redis": "ok", "engine:harvest": "ok"}})

    status: str
    checks: dict[str, str] = Field(default_factory=dict)


_NOTE: dict[str, Any] = {
    "event_id": "1764483600123-0",
    "id": "n_4d1f0c2b9a8e7d6c5b4a39281706f5e4",
    "kind": "your_turn",
    "player": "app:3f2a9c01b7de:discord:1234",
    "table_id": _TABLE,
    "game": "freunde",
    "seat": 1,
    "version": 7,
    "time_ms": 1764483600120,
    "text": "Your turn in the freunde game (play).",
    "data": {"phase": "play"},
}


class NotificationOut(BaseModel):
    """Something that concerns the player at one of its tables."""

    model_config = _example(_NOTE)

    event_id: str = Field(
        description="Its id in the player's stream (the SSE id; resume after it)."
    )
    id: str = Field(description="The notification's own id (webhook bodies carry it too).")
    kind: str = Field(description="`your_turn`, `game_over`, `seat_joined` or `seat_left`.")
    player: str
    table_id: str
    game: str
    seat: int = Field(description="The player's seat at that table.")
    version: int = Field(description="The table's version it is about (0 before the start).")
    time_ms: int
    text: str = Field(description="The notification in one line of words.")
    data: dict[str, Any] = Field(
        description="`your_turn`: phase; `game_over`: scores, winners, won;"
        " `seat_joined`/`seat_left`: seat, name, open_seats."
    )


class NotificationsOut(BaseModel):
    model_config = _example(
        {"player": _NOTE["player"], "notifications": [_NOTE], "last_event_id": _NOTE["event_id"]}
    )

    player: str
    notifications: list[NotificationOut]
    last_event_id: str = Field(description="Pass as ?after= for the next page.")


class WebhookOut(BaseModel):
    webhook_id: str
    url: str
    created_ms: int


class WebhookCreated(WebhookOut):
    model_config = _example(
        {
            "webhook_id": "wh_9c01b7de3f2a",
            "url": "https://bot.example.com/boardwright",
            "created_ms": 1764483600000,
            "secret": "whsec_…",
        }
    )

    secret: str | None = Field(
        description="The app's webhook secret, with its first webhook only (shown once);"
        " null when the app had one already."
    )


class WebhooksOut(BaseModel):
    model_config = _example(
        {
            "app_id": "3f2a9c01b7de",
            "webhooks": [
                {
                    "webhook_id": "wh_9c01b7de3f2a",
                    "url": "https://bot.example.com/boardwright",
                    "created_ms": 1764483600000,
                }
            ],
        }
    )

    app_id: str
    webhooks: list[WebhookOut]


class WebhookSecretOut(BaseModel):
    model_config = _example({"app_id": "3f2a9c01b7de", "secret": "whsec_…"})

    app_id: str
    secret: str = Field(description="The new webhook secret (shown once); the old one is unused.")


class DeliveryOut(BaseModel):
    delivery_id: str
    webhook_id: str
    url: str
    notification_id: str
    kind: str
    status: str = Field(
        description="`pending`, `failed` (another try is due), `delivered`, `dead`."
    )
    attempts: int
    last_error: str
    created_ms: int
    next_ms: int = Field(description="When the next try is due (pending, failed).")
    updated_ms: int


class DeliveriesOut(BaseModel):
    model_config = _example(
        {
            "app_id": "3f2a9c01b7de",
            "deliveries": [
                {
                    "delivery_id": "d_0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e",
                    "webhook_id": "wh_9c01b7de3f2a",
                    "url": "https://bot.example.com/boardwright",
                    "notification_id": _NOTE["id"],
                    "kind": "your_turn",
                    "status": "failed",
                    "attempts": 2,
                    "last_error": "HTTP 503",
                    "created_ms": 1764483600130,
                    "next_ms": 1764483603130,
                    "updated_ms": 1764483601130,
                }
            ],
        }
    )

    app_id: str
    deliveries: list[DeliveryOut]
