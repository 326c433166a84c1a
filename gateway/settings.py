"""Gateway settings, read from the environment (pydantic-settings).

``REDIS_URL``, ``BW_SHARDS`` and ``BW_ENGINE_ADDRS`` are parsed by the deployment-wide
base in :mod:`services.config`; ``BW_ENGINE_ADDRS`` maps each game to its engine service,
e.g. ``freunde=127.0.0.1:50051,harvest=127.0.0.1:50052``, and a game not listed there is
not offered.
"""

from __future__ import annotations

from pydantic import Field

from services.config import DeploymentSettings

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
    # How long one XREAD BLOCK of an SSE subscriber lasts before it checks for the end.
    stream_block_ms: int = Field(default=5000, ge=100, validation_alias="BW_STREAM_BLOCK_MS")
    # Deadline of each gRPC call to an engine service.
    engine_timeout_seconds: float = Field(default=10.0, gt=0, validation_alias="BW_ENGINE_TIMEOUT")
