"""Gateway settings, read from the environment (pydantic-settings).

``REDIS_URL``, ``BW_SHARDS`` and ``BW_ENGINE_ADDRS`` are parsed by the deployment-wide
base in :mod:`services.config`; ``BW_ENGINE_ADDRS`` maps each game to its engine service,
e.g. ``freunde=127.0.0.1:50051,harvest=127.0.0.1:50052``, and a game not listed there is
not offered.
"""

from __future__ import annotations

from pydantic import Field, field_validator

from gateway.ratelimits import Budget, parse_budget
from services.config import DeploymentSettings
from services.seating import OPEN_TABLE_TTL_S

__all__ = ["Settings"]


class Settings(DeploymentSettings):
    """Everything the gateway reads from its environment."""

    # The gateway never starts Redis itself, so it always has an address to dial.
    redis_url: str = Field(default="redis://127.0.0.1:6379/0", validation_alias="REDIS_URL")
    engine_addrs_text: str = Field(
        default="freunde=127.0.0.1:50051", validation_alias="BW_ENGINE_ADDRS"
    )
    # How long a read with ?min_version waits for the projector before asking the engine.
    read_wait_seconds: float = Field(default=2.0, ge=0, validation_alias="BW_READ_WAIT_SECONDS")
    # One blocking XREAD of a shard's live reader (its own connection waits a little longer).
    stream_block_ms: int = Field(default=5000, ge=100, validation_alias="BW_STREAM_BLOCK_MS")
    # A heartbeat comment on every SSE stream this often, so idle streams stay open.
    stream_ping_seconds: float = Field(
        default=15.0, gt=0, validation_alias="BW_STREAM_PING_SECONDS"
    )
    # SSE streams one gateway process holds open: per client address, and in all.
    streams_per_address: int = Field(default=100, ge=1, validation_alias="BW_STREAMS_PER_ADDRESS")
    max_streams: int = Field(default=10_000, ge=1, validation_alias="BW_MAX_STREAMS")
    # /readyz gives Redis this long to answer PING before it reports "not ready".
    ready_timeout_seconds: float = Field(
        default=1.0, gt=0, validation_alias="BW_READY_TIMEOUT_SECONDS"
    )
    # Largest request body; a larger one is refused with 413 before it is read.
    max_body_bytes: int = Field(default=64 * 1024, ge=0, validation_alias="BW_MAX_BODY_BYTES")
    # Deadline of each gRPC call to an engine service.
    engine_timeout_seconds: float = Field(default=10.0, gt=0, validation_alias="BW_ENGINE_TIMEOUT")
    # Rate limits ("N/second|minute|hour|day", several joined by ";"; empty: none).
    rate_limit_address_text: str = Field(
        default="6000/minute", validation_alias="BW_RATE_LIMIT_ADDRESS"
    )
    rate_limit_seat_text: str = Field(default="1200/minute", validation_alias="BW_RATE_LIMIT_SEAT")
    rate_limit_create_text: str = Field(
        default="20/minute;200/hour", validation_alias="BW_RATE_LIMIT_CREATE"
    )
    # A table waiting for players is forgotten this long after its last seating change.
    open_table_ttl_s: int = Field(
        default=OPEN_TABLE_TTL_S, ge=1, validation_alias="BW_OPEN_TABLE_TTL_S"
    )
    # Proxies whose X-Forwarded-For names the client (uvicorn's forwarded_allow_ips).
    forwarded_allow_ips: str = Field(default="127.0.0.1", validation_alias="BW_FORWARDED_ALLOW_IPS")

    @field_validator("rate_limit_address_text", "rate_limit_seat_text", "rate_limit_create_text")
    @classmethod
    def _budget_parses(cls, value: str) -> str:
        parse_budget("check", value)
        return value

    @property
    def rate_limit_address(self) -> Budget:
        return parse_budget("address", self.rate_limit_address_text)

    @property
    def rate_limit_seat(self) -> Budget:
        return parse_budget("seat", self.rate_limit_seat_text)

    @property
    def rate_limit_create(self) -> Budget:
        return parse_budget("create", self.rate_limit_create_text)
