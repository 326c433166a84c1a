"""``/v1/apps/{app_id}/…``: an app's webhooks, its webhook secret and its deliveries.

Only the app itself may touch them: the request carries its key (``X-App-Key``, with or
without ``X-App-User``) and names its own id; another app's key is refused with 403
``app.forbidden``. Operators do the same from the CLI (``boardwright apps webhooks``).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request

from gateway.api.bodies import JsonRoute
from gateway.api.deps import Gateway, GatewayDep, app_key_scheme
from gateway.errors import ApiError
from gateway.identity import APP_KEY_HEADER, caller_of
from gateway.schemas.requests import WebhookIn
from gateway.schemas.responses import (
    DeliveriesOut,
    DeliveryOut,
    ErrorOut,
    WebhookCreated,
    WebhookOut,
    WebhookSecretOut,
    WebhooksOut,
)
from services.notifications import (
    STATUSES,
    TooManyWebhooks,
    WebhookUrlRefused,
    check_url,
)
from services.notifications.webhooks import WEBHOOKS_PER_APP

__all__ = ["router"]

router = APIRouter(prefix="/v1", tags=["apps"], route_class=JsonRoute)

_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorOut, "description": "`auth.missing`: send the app's X-App-Key"},
    403: {"model": ErrorOut, "description": "`app.invalid`, `app.forbidden`, `auth.ambiguous`"},
    422: {"model": ErrorOut, "description": "`request.invalid`, `user.invalid`"},
    429: {"model": ErrorOut, "description": "`rate.limited`"},
    503: {"model": ErrorOut, "description": "`store.unavailable`"},
}
AppIdPath = Annotated[str, Path(pattern=r"^[0-9a-f]{12}$", description="The app's id.")]
AppKey = Annotated[str | None, Depends(app_key_scheme)]


async def _own_app(request: Request, gateway: GatewayDep, app_id: AppIdPath) -> str:
    """``app_id`` when the request carries that app's key."""
    who = await caller_of(request, gateway.store.apps)
    if who.app is None:
        raise ApiError(401, "auth.missing", f"Send the app's key as {APP_KEY_HEADER}.")
    if who.app.app_id != app_id:
        raise ApiError(403, "app.forbidden", "An app reaches only its own webhooks.")
    return app_id


OwnApp = Annotated[str, Depends(_own_app)]


@router.post(
    "/apps/{app_id}/webhooks",
    response_model=WebhookCreated,
    status_code=201,
    responses={
        **_ERRORS,
        409: {"model": ErrorOut, "description": "`webhooks.too_many`"},
        422: {"model": ErrorOut, "description": "`request.invalid`, `webhook.invalid`"},
    },
    summary="Register a webhook: every notification of the app's users is POSTed to it",
    description=(
        "Deliveries are signed (HMAC-SHA256 over `<timestamp>.<body>` with the app's webhook"
        " secret; see the README's verification snippet), retried with backoff and"
        " dead-lettered after `BW_WEBHOOK_MAX_ATTEMPTS`. The secret comes back with the"
        f" app's first webhook only. At most {WEBHOOKS_PER_APP} webhooks per app; the URL is"
        " http(s) and names no loopback, private or reserved address."
    ),
)
async def add_webhook(
    app_id: OwnApp, body: WebhookIn, gateway: GatewayDep, _key: AppKey
) -> WebhookCreated:
    try:
        url = check_url(body.url, gateway.settings.webhook_allow_loopback)
    except WebhookUrlRefused as refused:
        raise ApiError(422, "webhook.invalid", str(refused)) from None
    try:
        hook, secret = await gateway.store.webhooks.add(app_id, url)
    except TooManyWebhooks:
        raise ApiError(
            409, "webhooks.too_many", f"An app has at most {WEBHOOKS_PER_APP} webhooks."
        ) from None
    return WebhookCreated(
        webhook_id=hook.webhook_id, url=hook.url, created_ms=hook.created_ms, secret=secret
    )


@router.get(
    "/apps/{app_id}/webhooks",
    response_model=WebhooksOut,
    responses=_ERRORS,
    summary="The app's webhooks",
)
async def list_webhooks(app_id: OwnApp, gateway: GatewayDep, _key: AppKey) -> WebhooksOut:
    return await _listing(gateway, app_id)


async def _listing(gateway: Gateway, app_id: str) -> WebhooksOut:
    hooks = await gateway.store.webhooks.all(app_id)
    return WebhooksOut(
        app_id=app_id,
        webhooks=[
            WebhookOut(webhook_id=h.webhook_id, url=h.url, created_ms=h.created_ms) for h in hooks
        ],
    )


@router.delete(
    "/apps/{app_id}/webhooks/{webhook_id}",
    response_model=WebhooksOut,
    responses={**_ERRORS, 404: {"model": ErrorOut, "description": "`webhook.not_found`"}},
    summary="Remove a webhook; the app's webhooks left. Deliveries still due to it end dead",
)
async def remove_webhook(
    app_id: OwnApp,
    gateway: GatewayDep,
    _key: AppKey,
    webhook_id: Annotated[str, Path(pattern=r"^wh_[0-9a-f]{12}$")],
) -> WebhooksOut:
    if not await gateway.store.webhooks.remove(app_id, webhook_id):
        raise ApiError(404, "webhook.not_found", f"The app has no webhook {webhook_id}.")
    return await _listing(gateway, app_id)


@router.post(
    "/apps/{app_id}/webhook-secret",
    response_model=WebhookSecretOut,
    responses=_ERRORS,
    summary="A new webhook secret (shown once); deliveries are signed with it from now on",
)
async def rotate_secret(app_id: OwnApp, gateway: GatewayDep, _key: AppKey) -> WebhookSecretOut:
    return WebhookSecretOut(
        app_id=app_id, secret=await gateway.store.webhooks.rotate_secret(app_id)
    )


@router.get(
    "/apps/{app_id}/deliveries",
    response_model=DeliveriesOut,
    responses=_ERRORS,
    summary="The app's webhook deliveries, newest first, with their status",
    description=(
        "`status`: `pending` (not tried yet), `failed` (the last try failed; `next_ms` says"
        " when the next is due), `delivered` (a 2xx answer), `dead` (every try failed). The"
        " app's newest 1000 are kept."
    ),
)
async def deliveries(
    app_id: OwnApp,
    gateway: GatewayDep,
    _key: AppKey,
    status: Annotated[
        str | None, Query(pattern="^(" + "|".join(STATUSES) + ")$", description="Only these.")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> DeliveriesOut:
    found = await gateway.store.webhooks.deliveries(app_id, status, limit)
    return DeliveriesOut(
        app_id=app_id,
        deliveries=[
            DeliveryOut(
                delivery_id=d.delivery_id,
                webhook_id=d.webhook_id,
                url=d.url,
                notification_id=d.notification_id,
                kind=d.kind,
                status=d.status,
                attempts=d.attempts,
                last_error=d.last_error,
                created_ms=d.created_ms,
                next_ms=d.next_ms,
                updated_ms=d.updated_ms,
            )
            for d in found
        ],
    )
