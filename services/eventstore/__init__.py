"""The event store on Redis Streams: hash-chained table logs, shard feeds, idempotent appends.

See :mod:`services.eventstore.store` for the write path and what a crash can lose, and
:mod:`services.eventstore.keys` for the key schema of ARCHITECTURE.md.
"""

from services.eventstore.connection import AnyRedis, connect, is_cluster
from services.eventstore.groups import forget_idle_consumers
from services.eventstore.keys import (
    PROJECTOR_LAG_KEY,
    Keys,
    ShardKeys,
    command_field,
    engine_consumers_key,
    lobby_key,
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
from services.eventstore.store import EventStore, server_supports_waitaof

__all__ = [
    "PROJECTOR_LAG_KEY",
    "AnyRedis",
    "Appended",
    "CommandAlreadyDecided",
    "CommandApplied",
    "CommandIdReused",
    "CommandKey",
    "CommandRejected",
    "EventStore",
    "Head",
    "Keys",
    "Lookup",
    "NotDurable",
    "ShardKeys",
    "TableExists",
    "TableNotFound",
    "VersionConflict",
    "command_field",
    "connect",
    "engine_consumers_key",
    "forget_idle_consumers",
    "is_cluster",
    "lobby_key",
    "server_supports_waitaof",
    "shard_of",
]
