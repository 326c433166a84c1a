"""Bodies the API returns."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

__all__ = [
    "AuditOut",
    "CommandResult",
    "ErrorOut",
    "EventOut",
    "EventsOut",
    "GameOut",
    "GamesOut",
    "HealthOut",
    "LegalCommandsOut",
    "LobbyOut",
    "LobbyTable",
    "OptionOut",
    "ReplayOut",
    "TableCreated",
    "TableView",
]


class ErrorOut(BaseModel):
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
    games: list[GameOut]


class TableCreated(BaseModel):
    table_id: str
    game: str
    seats: int
    tokens: list[str] = Field(description="One secret per seat, in seat order; shown only once.")
    seed_commitment: str = Field(description="sha256 of the seed, hex.")
    version: int


class LobbyTable(BaseModel):
    table_id: str
    game: str
    status: dict[str, Any]


class LobbyOut(BaseModel):
    tables: list[LobbyTable]


class TableView(BaseModel):
    table_id: str
    game: str
    seats: int
    seat: int | None = Field(description="The caller's seat; null for a spectator.")
    version: int
    view: dict[str, Any]
    status: dict[str, Any]


class LegalCommandsOut(BaseModel):
    table_id: str
    seat: int
    version: int
    commands: list[dict[str, Any]]


class EventOut(BaseModel):
    version: int
    command_id: str
    seat: int
    time_ms: int
    event: dict[str, Any] | None = Field(
        description="The game event as the caller may see it; null when hidden."
    )
    seed_revealed: str | None = Field(default=None, description="The revealed seed, hex.")
    hash: str


class CommandResult(BaseModel):
    table_id: str
    version: int
    duplicate: bool
    events: list[EventOut]


class EventsOut(BaseModel):
    table_id: str
    head: int
    events: list[EventOut]


class ReplayOut(BaseModel):
    table_id: str
    at: int
    seat: int | None
    view: dict[str, Any]
    outcome: dict[str, Any]


class AuditOut(BaseModel):
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


class HealthOut(BaseModel):
    status: str
    checks: dict[str, str] = Field(default_factory=dict)
