"""The event store on Redis Streams: hash-chained table logs, shard feeds, idempotent appends.

See :mod:`services.eventstore.store` for the write path and what a crash can lose, and
:mod:`services.eventstore.keys` for the key schema of ARCHITECTURE.md.
"""

from services.eventstore.connection import (
    RECONNECT_RETRY,
    STORE_UNAVAILABLE,
    AnyRedis,
    connect,
    is_cluster,
)
from services.eventstore.durability import Durability, DurabilityMode, server_supports_waitaof
from services.eventstore.groups import forget_idle_consumers
from services.eventstore.keys import (
    APPS_KEY,
    PROJECTOR_LAG_KEY,
    WEBHOOKS_DUE_KEY,
    WEBHOOKS_DUE_WAKE_KEY,
    Keys,
    LobbyKeys,
    ShardKeys,
    app_deliveries_key,
    app_delivery_index_key,
    app_key,
    app_webhook_secret_key,
    app_webhooks_key,
    command_field,
    engine_consumers_key,
    player_feed_key,
    player_notifications_key,
    player_notified_key,
    player_tables_key,
    rate_limit_key,
    shard_of,
)
from services.eventstore.model import (
    Appended,
    CommandAlreadyDecided,
    CommandApplied,
    CommandIdReused,
    CommandKey,
    CommandRejected,
    Head,
    Lookup,
    NotDurable,
    TableExists,
    TableNotFound,
    VersionConflict,
)
from services.eventstore.pipelined import AutoPipeline, ScriptCall, run_scripts
from services.eventstore.store import EventStore
from services.eventstore.trim import StreamTrimmer

__all__ = [
    "APPS_KEY",
    "PROJECTOR_LAG_KEY",
    "RECONNECT_RETRY",
    "STORE_UNAVAILABLE",
    "WEBHOOKS_DUE_KEY",
    "WEBHOOKS_DUE_WAKE_KEY",
    "AnyRedis",
    "Appended",
    "AutoPipeline",
    "CommandAlreadyDecided",
    "CommandApplied",
    "CommandIdReused",
    "CommandKey",
    "CommandRejected",
    "Durability",
    "DurabilityMode",
    "EventStore",
    "Head",
    "Keys",
    "LobbyKeys",
    "Lookup",
    "NotDurable",
    "ScriptCall",
    "ShardKeys",
    "StreamTrimmer",
    "TableExists",
    "TableNotFound",
    "VersionConflict",
    "app_deliveries_key",
    "app_delivery_index_key",
    "app_key",
    "app_webhook_secret_key",
    "app_webhooks_key",
    "command_field",
    "connect",
    "engine_consumers_key",
    "forget_idle_consumers",
    "is_cluster",
    "player_feed_key",
    "player_notifications_key",
    "player_notified_key",
    "player_tables_key",
    "rate_limit_key",
    "run_scripts",
    "server_supports_waitaof",
    "shard_of",
]
