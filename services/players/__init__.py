"""Who plays: apps (a Discord bot, a web site) with their API keys, the players they act
for, guests who hold seat tokens, and the tables each player sits at."""

from services.players.apps import App, AppRegistry, new_app_key
from services.players.ids import (
    USER_PATTERN,
    app_host,
    app_player,
    app_user_of,
    new_guest,
    valid_user,
)
from services.players.tables import PlayerTables

__all__ = [
    "USER_PATTERN",
    "App",
    "AppRegistry",
    "PlayerTables",
    "app_host",
    "app_player",
    "app_user_of",
    "new_app_key",
    "new_guest",
    "valid_user",
]
