"""The event store on Redis Streams: hash-chained table logs, shard feeds, idempotent appends.

See :mod:`services.eventstore.store` for the write path and what a crash can lose, and
:mod:`services.eventstore.keys` for the key schema of ARCHITECTURE.md.
"""

from services.eventstore.connection import AnyRedis, connect, is_cluster
from services.eventstore.durability import Durability, DurabilityMode, server_supports_waitaof
from services.eventstore.keys import Keys, ShardKeys, shard_of
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
from services.eventstore.store import EventStore
from services.eventstore.trim import StreamTrimmer

__all__ = [
    "AnyRedis",
    "Appended",
    "CommandAlreadyDecided",
    "CommandApplied",
    "CommandRejected",
    "Durability",
    "DurabilityMode",
    "EventStore",
    "Head",
    "Keys",
    "NotDurable",
    "ShardKeys",
    "StreamTrimmer",
    "TableExists",
    "TableNotFound",
    "VersionConflict",
    "connect",
    "is_cluster",
    "server_supports_waitaof",
    "shard_of",
]
