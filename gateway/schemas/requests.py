"""Bodies clients send."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["CommandIn", "TableCreate"]

COMMAND_ID_PATTERN = r"^[A-Za-z0-9._:\-]{1,128}$"


class TableCreate(BaseModel):
    """Open a table: the game, how many seats, its options and optionally the seed."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"game": "freunde", "seats": 3}]},
    )

    game: str = Field(min_length=1, max_length=32)
    seats: int = Field(ge=1, le=16)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: str | None = Field(
        default=None,
        description="Hex of 16 to 64 bytes; drawn from the OS when absent.",
        max_length=128,
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
