"""Bodies clients send."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["ClaimIn", "CommandIn", "RenameIn", "StartIn", "TableCreate", "WebhookIn"]

COMMAND_ID_PATTERN = r"^[A-Za-z0-9._:\-]{1,128}$"
# A display name: printable, not blank (checked again by services.seating.valid_name).
NAME_PATTERN = r"^[^\x00-\x1f\x7f]*\S[^\x00-\x1f\x7f]*$"
INVITE_PATTERN = r"^[A-Za-z0-9_\-]{1,64}$"


def _name(description: str) -> Any:
    return Field(
        default=None, min_length=1, max_length=40, pattern=NAME_PATTERN, description=description
    )


class ClockIn(BaseModel):
    """A turn clock: a limit on each turn, on each seat's whole game, or both."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"turn_seconds": 60, "on_timeout": "bot"},
                {"turn_seconds": 120, "total_seconds": 1800, "on_timeout": "forfeit"},
            ]
        },
    )

    turn_seconds: int = Field(
        default=0, ge=0, le=604_800, description="Seconds for each turn; 0: no turn limit."
    )
    total_seconds: int = Field(
        default=0,
        ge=0,
        le=31_536_000,
        description="Seconds for each seat's whole game, as chess clocks do; 0: no total.",
    )
    on_timeout: Literal["bot", "forfeit"] = Field(
        default="forfeit",
        description="When a seat runs out: `bot` (the game's bot plays that turn) or"
        " `forfeit` (the seat leaves the game, as if it resigned).",
    )


class TableCreate(BaseModel):
    """Create a table: the game, how many seats, its options and optionally the seed.

    Without ``open`` every seat's token comes back at once and the game starts now. With
    ``open: true`` the table waits in the lobby for players to claim its seats."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"game": "freunde", "seats": 3},
                {"game": "harvest", "seats": 4, "open": True, "name": "Ann"},
            ]
        },
    )

    game: str = Field(min_length=1, max_length=32)
    seats: int = Field(ge=1, le=16)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: str | None = Field(
        default=None,
        description="Hex of 16 to 64 bytes; drawn from the OS when absent (not with `open`).",
        max_length=128,
        pattern=r"^([0-9a-fA-F]{2}){16,64}$",
    )
    open: bool = Field(
        default=False,
        description="Wait in the lobby with open seats: players claim them; the game starts"
        " when they are full, or when the host starts it with bots.",
    )
    unlisted: bool = Field(
        default=False,
        description="Keep the table out of the lobby; an open one is joined only with the"
        " `invite_code` returned now.",
    )
    take_seat: bool = Field(
        default=True,
        description="With `open`: the caller takes seat 0. A caller without an app always"
        " does (it is the host); an app alone (no `X-App-User`) never does.",
    )
    name: str | None = _name("With `open`: the caller's display name at its seat.")
    clock: ClockIn | None = Field(
        default=None,
        description="A time limit on each turn and/or each seat's game; absent: none. A 422"
        " `clock.invalid` when it sets no limit, or asks for a bot in a game without bots.",
    )


class ClaimIn(BaseModel):
    """Take a seat: a given one, or the first open one."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"name": "Ann"}, {"seat": 2}]}
    )

    seat: int | None = Field(
        default=None, ge=0, le=15, description="The seat; any open one if absent."
    )
    name: str | None = _name("Your display name at the table.")
    invite_code: str | None = Field(
        default=None,
        pattern=INVITE_PATTERN,
        description="The invite code of an unlisted table (its host has it).",
    )


class RenameIn(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"name": "Ann"}]})

    name: str = Field(min_length=1, max_length=40, pattern=NAME_PATTERN)


class StartIn(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"bots": "greedy"}]})

    bots: str | None = Field(
        default=None,
        max_length=32,
        pattern=r"^[a-z_]{1,32}$",
        description="Which of the game's bots (`random`, `greedy`, ...) takes each open seat;"
        " without it every seat must be taken.",
    )


class CommandIn(BaseModel):
    """One command: a client-chosen id (idempotency), an optional expected version and
    the game's ``Command`` message in protobuf JSON."""

    model_config = ConfigDict(extra="forbid")

    command_id: str = Field(pattern=COMMAND_ID_PATTERN)
    expected_version: int | None = Field(default=None, ge=0, le=2**63 - 1)
    seat: int | None = Field(
        default=None,
        ge=0,
        le=64,
        description="Optional: must be the seat of the bearer token when given.",
    )
    command: dict[str, Any]


class WebhookIn(BaseModel):
    """A URL the app's deliveries are POSTed to."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"url": "https://bot.example.com/boardwright"}]},
    )

    url: str = Field(
        min_length=8,
        max_length=2000,
        pattern=r"^[hH][tT][tT][pP][sS]?://",
        description="http:// or https://; never a loopback, private or reserved address.",
    )
