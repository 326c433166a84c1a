"""Notifications: what concerns a player across its tables (its turn, a game's end, a seat
taken or freed), kept in a stream per player and sent to apps' webhooks. The notifier
process (:mod:`services.notifier`) derives and sends them; the gateway serves the
per-player stream and the webhook API."""

from services.notifications.inbox import PlayerInbox, player_shard
from services.notifications.model import (
    GAME_OVER,
    KINDS,
    SEAT_JOINED,
    SEAT_LEFT,
    YOUR_TURN,
    Notification,
    entry_position,
    notification_id,
)
from services.notifications.urls import Pinned, WebhookUrlRefused, check_url, pin
from services.notifications.webhooks import (
    DEAD,
    DELIVERED,
    FAILED,
    PENDING,
    STATUSES,
    Delivery,
    TooManyWebhooks,
    Webhook,
    Webhooks,
)

__all__ = [
    "DEAD",
    "DELIVERED",
    "FAILED",
    "GAME_OVER",
    "KINDS",
    "PENDING",
    "SEAT_JOINED",
    "SEAT_LEFT",
    "STATUSES",
    "YOUR_TURN",
    "Delivery",
    "Notification",
    "Pinned",
    "PlayerInbox",
    "TooManyWebhooks",
    "Webhook",
    "WebhookUrlRefused",
    "Webhooks",
    "check_url",
    "entry_position",
    "notification_id",
    "pin",
    "player_shard",
]
