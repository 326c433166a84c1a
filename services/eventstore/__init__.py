"""The event store on Redis Streams: hash-chained table logs, shard feeds, idempotent appends.

See :mod:`services.eventstore.store` for the write path and what a crash can lose, and
:mod:`services.eventstore.keys` for the key schema of ARCHITECTURE.md.
"""

from services.eventstore.connection import AnyRedis, connect, is_cluster
from services.eventstore.keys import Keys, ShardKeys, lobby_key, shard_of
from services.eventstore.model import (
    Appended,
    CommandAlreadyDecided,
    CommandApplied,
    CommandRejected,
    Head,
    NotDurable,
    TableExists,
    TableNotFound,
    VersionConflict,
)
from services.eventstore.store import EventStore, server_supports_waitaof

__all__ = [
    "AnyRedis",
    "Appended",
    "CommandAlreadyDecided",
    "CommandApplied",
    "CommandRejected",
    "EventStore",
    "Head",
    "Keys",
    "NotDurable",
    "ShardKeys",
    "TableExists",
    "TableNotFound",
    "VersionConflict",
    "connect",
    "is_cluster",
    "lobby_key",
    "server_supports_waitaof",
    "shard_of",
]
