"""What the Discord bot reads from the environment.

Discord's side: ``DISCORD_TOKEN`` (the bot user's token, for posting in channels and
registering commands), ``DISCORD_APPLICATION_ID`` and ``DISCORD_PUBLIC_KEY`` (hex; every
interaction Discord sends is signed with its private half). Boardwright's side: the app
key (``BW_DISCORD_APP_KEY``, from ``boardwright apps create``), the gateway (``BW_URL``),
the public base URL of the replay pages (``BW_PUBLIC_URL``) and Redis (``REDIS_URL``) for
the channel → table map. ``BW_DISCORD_REST_URL`` points the bot at another Discord REST
API (tests use a stand-in on loopback).
"""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["DiscordSettings"]


class DiscordSettings(BaseSettings):
    """The bot's configuration; :meth:`missing` names what it cannot run without."""

    model_config = SettingsConfigDict(
        env_prefix="", case_sensitive=False, extra="ignore", populate_by_name=True
    )

    token: str = Field(default="", validation_alias="DISCORD_TOKEN")
    application_id: str = Field(default="", validation_alias="DISCORD_APPLICATION_ID")
    public_key: str = Field(default="", validation_alias="DISCORD_PUBLIC_KEY")
    app_key: str = Field(default="", validation_alias="BW_DISCORD_APP_KEY")
    gateway_url: str = Field(default="http://127.0.0.1:8000", validation_alias="BW_URL")
    public_url: str = Field(default="", validation_alias="BW_PUBLIC_URL")
    rest_url: str | None = Field(default=None, validation_alias="BW_DISCORD_REST_URL")
    redis_url: str | None = Field(default=None, validation_alias="REDIS_URL")
    host: str = Field(default="127.0.0.1", validation_alias="BW_DISCORD_HOST")
    port: int = Field(default=8100, ge=1, le=65535, validation_alias="BW_DISCORD_PORT")
    # An interaction signed longer ago than this is refused as a replay (401).
    max_age_s: float = Field(default=300.0, gt=0, validation_alias="BW_DISCORD_MAX_AGE_S")
    log_level: str = Field(default="info", validation_alias="BW_LOG_LEVEL")

    @property
    def replay_base(self) -> str:
        """Where a person's browser finds the replay pages: ``BW_PUBLIC_URL``, else the
        gateway's own address."""
        return (self.public_url or self.gateway_url).rstrip("/")

    def missing(self) -> list[str]:
        """The variables the bot needs to serve interactions that are not set."""
        needed = {
            "DISCORD_TOKEN": self.token,
            "DISCORD_APPLICATION_ID": self.application_id,
            "DISCORD_PUBLIC_KEY": self.public_key,
            "BW_DISCORD_APP_KEY": self.app_key,
            "REDIS_URL": self.redis_url or "",
        }
        return [name for name, value in needed.items() if not value]
