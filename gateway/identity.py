"""Who is calling: a seat token's holder, an app acting for one of its users, an app
alone, or nobody (a spectator).

Headers:

``Authorization: Bearer <seat token>``
    the holder of one seat (what ``POST /v1/tables`` and claiming a seat return);
``X-App-Key: <api key>``
    an app (``boardwright apps create NAME`` prints its key);
``X-App-User: <user id>``
    with ``X-App-Key``: the app's user it acts for, in the app's own namespace
    (``discord:1234``). The player is ``app:<app id>:<user id>``, built from the app the key
    authenticated, so an app can never name another app's users.

A request may carry a seat token or an app key, not both. A key that is not an active
app's is refused (403 ``app.invalid``), never taken for a spectator.
"""

from __future__ import annotations

from dataclasses import dataclass

import structlog
from fastapi import Request

from gateway.errors import ApiError
from gateway.seats import bearer_token
from services.players import App, AppRegistry, app_host, app_player, valid_user

__all__ = ["APP_KEY_HEADER", "APP_USER_HEADER", "Caller", "caller_of"]

APP_KEY_HEADER = "X-App-Key"
APP_USER_HEADER = "X-App-User"


@dataclass(frozen=True, slots=True)
class Caller:
    """The credentials a request carries, checked (an app) or still to be matched against a
    table's seats (a seat token)."""

    token: str | None = None
    app: App | None = None
    user: str | None = None

    @property
    def player(self) -> str | None:
        """The player an app acts for (``None`` for a token holder or an app alone)."""
        if self.app is None:
            return None
        return app_player(self.app.app_id, self.user) if self.user else app_host(self.app.app_id)

    @property
    def anonymous(self) -> bool:
        return self.token is None and self.app is None


async def caller_of(request: Request, apps: AppRegistry) -> Caller:
    """The caller of ``request``; 403 ``auth.ambiguous`` or ``app.invalid``, or 422
    ``user.invalid`` for credentials that cannot be taken as they are."""
    token = bearer_token(request.headers.get("authorization"))
    key = request.headers.get(APP_KEY_HEADER)
    user = request.headers.get(APP_USER_HEADER)
    if key is None:
        if user is not None:
            raise ApiError(
                401,
                "auth.missing",
                f"{APP_USER_HEADER} names an app's user: send {APP_KEY_HEADER}.",
            )
        return Caller(token=token)
    if token is not None:
        raise ApiError(
            403,
            "auth.ambiguous",
            f"Send a seat token or {APP_KEY_HEADER}, not both.",
        )
    app = await apps.authenticate(key.strip())
    if app is None:
        raise ApiError(403, "app.invalid", "That app key is not an active app's.")
    if user is not None and not valid_user(user):
        raise ApiError(
            422,
            "user.invalid",
            f"{APP_USER_HEADER} is 1 to 100 letters, digits or . _ : @ -",
        )
    structlog.contextvars.bind_contextvars(app=app.app_id)
    return Caller(app=app, user=user)
