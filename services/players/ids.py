"""Player ids: who a seat belongs to.

- ``app:<app id>:<user>``: a user of an app, named in the app's own namespace
  (``discord:1234``). Only that app can act for it: the app's key is checked, and the id
  is built from the app it authenticated as, never from what the request says.
- ``app:<app id>``: the app itself (the host of a table it opened for nobody in particular).
- ``guest:<hex>``: a person who took a seat with no app; it acts with its seat token.

A player id is the hash tag of the player's keys, so it never holds ``{`` or ``}``.
"""

from __future__ import annotations

import re
import secrets

__all__ = ["USER_PATTERN", "app_host", "app_player", "app_user_of", "new_guest", "valid_user"]

# An app's user id: printable, no spaces or braces, as chat platforms' ids are.
USER_PATTERN = r"^[A-Za-z0-9._:@\-]{1,100}$"
_USER = re.compile(USER_PATTERN)


def valid_user(user: str) -> bool:
    return bool(_USER.match(user))


def app_player(app_id: str, user: str) -> str:
    """The player id of ``user`` of app ``app_id``."""
    if not valid_user(user):
        raise ValueError(f"not a user id: {user[:40]!r}")
    return f"app:{app_id}:{user}"


def app_user_of(player: str) -> tuple[str, str] | None:
    """``(app id, user)`` of an app's user's player id; ``None`` for any other player."""
    kind, _, rest = player.partition(":")
    app_id, _, user = rest.partition(":")
    if kind != "app" or not app_id or not user:
        return None
    return app_id, user


def app_host(app_id: str) -> str:
    """The player id of the app itself."""
    return f"app:{app_id}"


def new_guest() -> str:
    """A fresh guest player id."""
    return f"guest:{secrets.token_hex(8)}"
