"""Gateway settings, read from the environment (pydantic-settings).

``BW_ENGINE_ADDRS`` maps each game to its engine service, e.g.
``freunde=127.0.0.1:50051,harvest=127.0.0.1:50052``; a game not listed there is not offered.
"""

from __future__ import annotations

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from services.config import parse_engine_addrs

__all__ = ["Settings"]


class Settings(BaseSettings):
    """Everything the gateway reads from its environment."""

    model_config = SettingsConfigDict(env_prefix="", case_sensitive=False, extra="ignore")

    redis_url: str = Field(default="redis://127.0.0.1:6379/0", validation_alias="REDIS_URL")
    bw_shards: int = Field(default=64, ge=1, validation_alias="BW_SHARDS")
    bw_engine_addrs: str = Field(
        default="freunde=127.0.0.1:50051", validation_alias="BW_ENGINE_ADDRS"
    )
    # How long a read with ?min_version waits for the projector before asking the engine.
    read_wait_seconds: float = Field(default=2.0, ge=0, validation_alias="BW_READ_WAIT_SECONDS")
    # How long one XREAD BLOCK of an SSE subscriber lasts before it checks for the end.
    stream_block_ms: int = Field(default=5000, ge=100, validation_alias="BW_STREAM_BLOCK_MS")
    # Deadline of each gRPC call to an engine service.
    engine_timeout_seconds: float = Field(default=10.0, gt=0, validation_alias="BW_ENGINE_TIMEOUT")
    log_level: str = Field(default="info", validation_alias="BW_LOG_LEVEL")

    @field_validator("bw_engine_addrs")
    @classmethod
    def _addrs_parse(cls, value: str) -> str:
        parse_engine_addrs(value)
        return value

    @property
    def engine_addrs(self) -> dict[str, str]:
        return parse_engine_addrs(self.bw_engine_addrs)
