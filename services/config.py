"""Settings shared by the long-running services, read from the environment.

``REDIS_URL`` (unset: the launcher starts a private server), ``BW_SHARDS`` (fixed per
deployment; every process of one deployment must agree), ``BW_ENGINE_ADDRS``
(``freunde=127.0.0.1:50051,...``), the ports, and the tuning knobs of the command
path and the projector. Defaults suit one machine; tests override them per process.
"""

from __future__ import annotations

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from services.eventstore.durability import Durability, DurabilityMode
from services.projector.retention import FINISHED_TTL_S

# Tables whose state an engine service or the projector keeps in memory, unless
# BW_TABLES_HELD says otherwise: about 6 KB a Freunde table in the engine.
TABLES_HELD = 10_000

__all__ = ["DeploymentSettings", "Settings", "format_engine_addrs", "parse_engine_addrs"]


def parse_engine_addrs(text: str) -> dict[str, str]:
    """``"freunde=host:port,harvest=host:port"`` as ``{"freunde": "host:port", ...}``."""
    addrs: dict[str, str] = {}
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        game, sep, addr = item.partition("=")
        if not sep or not game.strip() or not addr.strip():
            raise ValueError(f"engine address {item!r} is not game=host:port")
        addrs[game.strip()] = addr.strip()
    return addrs


def format_engine_addrs(addrs: dict[str, str]) -> str:
    """The inverse of :func:`parse_engine_addrs`."""
    return ",".join(f"{game}={addr}" for game, addr in addrs.items())


class DeploymentSettings(BaseSettings):
    """What every process of one deployment must agree on: where Redis is, how many
    shards, which engine service serves which game. The gateway and the services both
    extend this, so the three variables are parsed and validated in one place."""

    model_config = SettingsConfigDict(
        env_prefix="", case_sensitive=False, extra="ignore", populate_by_name=True
    )

    redis_url: str | None = Field(default=None, validation_alias="REDIS_URL")
    shards: int = Field(default=64, ge=1, validation_alias="BW_SHARDS")
    engine_addrs_text: str = Field(default="", validation_alias="BW_ENGINE_ADDRS")
    log_level: str = Field(default="info", validation_alias="BW_LOG_LEVEL")
    # Webhook URLs may name this machine (loopback): tests and one-machine setups only.
    webhook_allow_loopback: bool = Field(
        default=False, validation_alias="BW_WEBHOOK_ALLOW_LOOPBACK"
    )

    @field_validator("engine_addrs_text")
    @classmethod
    def _addrs_parse(cls, value: str) -> str:
        parse_engine_addrs(value)
        return value

    @property
    def engine_addrs(self) -> dict[str, str]:
        return parse_engine_addrs(self.engine_addrs_text)


class Settings(DeploymentSettings):
    """Everything the engine service, the projector and the launcher read from the environment."""

    engine_host: str = Field(default="127.0.0.1", validation_alias="BW_ENGINE_HOST")
    engine_base_port: int = Field(default=50051, ge=1, le=65535, validation_alias="BW_ENGINE_PORT")
    gateway_host: str = Field(default="127.0.0.1", validation_alias="BW_GATEWAY_HOST")
    gateway_port: int = Field(default=8000, ge=1, le=65535, validation_alias="BW_GATEWAY_PORT")
    # A snapshot every this many events; a cache only.
    snapshot_every: int = Field(default=64, ge=1, validation_alias="BW_SNAPSHOT_EVERY")
    # Tables whose current state each engine service, and the projector, keep in memory;
    # a table dropped from it is loaded again from its snapshot and later events.
    tables_held: int = Field(default=TABLES_HELD, ge=1, validation_alias="BW_TABLES_HELD")
    # Reload-and-retry rounds when another replica appended first.
    conflict_retries: int = Field(default=16, ge=1, validation_alias="BW_CONFLICT_RETRIES")
    # A shard's command stream belongs to one consumer for this long unless it renews.
    lease_ms: int = Field(default=10_000, ge=100, validation_alias="BW_LEASE_MS")
    # Deliveries after which a command goes to the dead-letter stream.
    max_deliveries: int = Field(default=5, ge=1, validation_alias="BW_MAX_DELIVERIES")
    # How often the engine service checks that Redis answers (its health status).
    health_every_s: float = Field(default=2.0, gt=0, validation_alias="BW_HEALTH_EVERY_S")
    # Pause before a failed command is tried again.
    retry_delay_ms: int = Field(default=500, ge=0, validation_alias="BW_RETRY_DELAY_MS")
    # Dead letters kept per shard: the newest this many, older ones dropped.
    dead_letters_max: int = Field(default=10_000, ge=1, validation_alias="BW_DEAD_LETTERS_MAX")
    # When an append counts as stored: "local" or "replicas" (services/eventstore/durability.py).
    durability_mode: DurabilityMode = Field(
        default=DurabilityMode.LOCAL, validation_alias="BW_DURABILITY"
    )
    durability_replicas: int = Field(default=1, ge=1, validation_alias="BW_DURABILITY_REPLICAS")
    durability_timeout_ms: int = Field(
        default=2000, ge=1, validation_alias="BW_DURABILITY_TIMEOUT_MS"
    )
    # The longest the scheduler sleeps between passes (it wakes sooner when a member is due
    # or a plan puts in an earlier one).
    scheduler_max_sleep_ms: int = Field(
        default=1000, ge=1, validation_alias="BW_SCHEDULER_MAX_SLEEP_MS"
    )
    # A finished table's views, snapshot, command ids and lobby entry live this long.
    finished_ttl_s: int = Field(default=FINISHED_TTL_S, ge=1, validation_alias="BW_FINISHED_TTL_S")

    # Webhook deliveries: tries before a delivery is dead-lettered, the backoff between
    # tries (doubling from the base up to the cap, with jitter), each call's timeout and
    # how many calls one notifier process makes at once.
    webhook_max_attempts: int = Field(default=8, ge=1, validation_alias="BW_WEBHOOK_MAX_ATTEMPTS")
    webhook_backoff_ms: int = Field(default=1000, ge=1, validation_alias="BW_WEBHOOK_BACKOFF_MS")
    webhook_backoff_max_ms: int = Field(
        default=600_000, ge=1, validation_alias="BW_WEBHOOK_BACKOFF_MAX_MS"
    )
    webhook_timeout_s: float = Field(default=5.0, gt=0, validation_alias="BW_WEBHOOK_TIMEOUT_S")
    webhook_concurrency: int = Field(default=16, ge=1, validation_alias="BW_WEBHOOK_CONCURRENCY")
    # After a read that found turn or seating changes, the notifier waits this long before
    # reading again, so a busy moment's changes share one read (services/notifier/derive.py).
    notify_linger_ms: int = Field(
        default=100, ge=0, le=10_000, validation_alias="BW_NOTIFY_LINGER_MS"
    )
    # Notifications kept per player (its SSE stream resumes within these).
    notifications_kept: int = Field(default=1000, ge=10, validation_alias="BW_NOTIFICATIONS_KEPT")

    @property
    def durability(self) -> Durability:
        return Durability(
            self.durability_mode, self.durability_replicas, self.durability_timeout_ms
        )
