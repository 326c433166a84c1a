"""Redis key names of ARCHITECTURE.md § Redis key schema, one place for all services.

Every key of a table and of its shard carries the shard's hash tag ``{s<shard>}``, so
one script may touch them all even on Redis Cluster. A game's lobby keys share the tag
``{<game>}`` (:class:`LobbyKeys`), so one script moves a table between its indexes.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

__all__ = [
    "APPS_KEY",
    "DUE_WAKE_KEY",
    "FEEDS_WAKE_KEY",
    "INBOXES_WAKE_KEY",
    "NOTIFY_WAKE_KEY",
    "PROJECTED_KEPT",
    "PROJECTED_KEY",
    "PROJECTOR_LAG_KEY",
    "VIEWS_LOST_KEPT",
    "VIEWS_LOST_KEY",
    "WEBHOOKS_DUE_KEY",
    "WEBHOOKS_DUE_WAKE_KEY",
    "Keys",
    "LobbyKeys",
    "ShardKeys",
    "app_deliveries_key",
    "app_delivery_index_key",
    "app_key",
    "app_webhook_secret_key",
    "app_webhooks_key",
    "command_field",
    "discord_channel_key",
    "discord_table_key",
    "engine_consumers_key",
    "player_feed_key",
    "player_notifications_key",
    "player_notified_key",
    "player_tables_key",
    "rate_limit_key",
    "shard_of",
]

# The projector's lag, published for the gateway's /metrics.
PROJECTOR_LAG_KEY = "bw:projector:lag"

# Stream: one entry per batch the projector wrote, table id -> the version its read models
# now hold, so a gateway read waiting for a version (``?min_version``) wakes as soon as it
# is there instead of polling. Capped by length: a reader only follows the newest.
PROJECTED_KEY = "bw:projected"
PROJECTED_KEPT = 1000

# Stream: tables whose views a gateway found behind their status (``table`` -> id). The
# views are kept out of the AOF and of replication (``services.projector.projector``), so
# a restart or a failover can lose them while the status, which is replicated, holds; the
# projector writes them again for every table named here. Capped by length: a table still
# behind is named again by its next read.
VIEWS_LOST_KEY = "bw:views:lost"
VIEWS_LOST_KEPT = 10_000

# Streams that wake, on a Redis Cluster, the consumers of the streams of every shard, which
# cannot block on streams of several slots in one read (services.wakeups): one entry after
# writes to shard feeds (the projector's), to command inboxes (the engine services'
# consumers'), to turns streams or seating feeds (the notifier's), of a member into a
# shard's due set earlier than every other there (the scheduler's). Each is one key, so
# one slot; capped by length. On one server nobody writes them: the consumers block on the
# streams themselves (the scheduler on the shards' own due wake-up streams).
DUE_WAKE_KEY = "bw:due:wake"
FEEDS_WAKE_KEY = "bw:feeds:wake"
INBOXES_WAKE_KEY = "bw:inboxes:wake"
NOTIFY_WAKE_KEY = "bw:notify:wake"


def rate_limit_key(budget: str, who: str, amount: int, seconds: int) -> str:
    """Hash: one window of one rate-limit budget for one client (an address or a seat
    token's hash), shared by the gateways: ``w`` the window's number (time / length),
    ``c`` the requests counted in it, ``p`` those of the window before. It expires two
    window lengths after the first request its window counted (the next window still
    weighs this one's count; the one after, nothing of it). The budget and client are the
    hash tag, so every window of one budget of one client shares a slot (one script checks
    them)."""
    return f"bw:limits:{{{budget}:{who}}}:{amount}/{seconds}s"


# Set of every app's id (``boardwright apps list``).
APPS_KEY = "bw:apps"


def app_key(app_id: str) -> str:
    """Hash: one app's name, the SHA-256 of its API key, when it was created and revoked."""
    return f"bw:app:{app_id}"


def player_tables_key(player: str) -> str:
    """Sorted set: the tables a player has a seat at, scored by when it sat down. The
    player id is the hash tag, so a player's keys share one slot."""
    return f"bw:player:{{{player}}}:tables"


def player_notifications_key(player: str) -> str:
    """Stream: the player's notifications (your turn, game over, a seat joined or left),
    newest last, capped by length; its entry ids are the per-player SSE ids."""
    return f"bw:player:{{{player}}}:notifications"


def player_notified_key(player: str) -> str:
    """Sorted set: the ids of the notifications the player's stream holds already, scored
    by when they were added, so a notification derived twice is added once."""
    return f"bw:player:{{{player}}}:notified"


def player_feed_key(shard: int) -> str:
    """Stream: one entry (``player``, ``v``) per notification of the players of one player
    shard (``crc32(player) mod shards``), capped by length. The gateways' live readers
    follow it to wake the per-player SSE subscribers, as they follow table feeds."""
    return f"bw:notify:{{p{shard}}}:feed"


# Sorted set of the webhook deliveries to try: ``<app id>:<delivery id>`` scored by when
# (ms); a notifier that claims one moves its score past its lease.
WEBHOOKS_DUE_KEY = "bw:webhooks:due"
# Stream: one entry (``at``) each time a delivery is put into the due set earlier than any
# there, to wake a sender sleeping until the earliest (services.wakeups); capped by length.
# Its hash tag is the due set's whole name, so both are in one slot of a Redis Cluster.
WEBHOOKS_DUE_WAKE_KEY = "{bw:webhooks:due}:wake"


def app_webhooks_key(app_id: str) -> str:
    """Hash: the app's webhooks, webhook id -> JSON (url, created_ms). The app id is the
    hash tag, so the app's webhook keys share one slot."""
    return f"bw:app:{{{app_id}}}:webhooks"


def app_webhook_secret_key(app_id: str) -> str:
    """String: the secret the app's webhook deliveries are signed with (HMAC-SHA256)."""
    return f"bw:app:{{{app_id}}}:webhook-secret"


def app_deliveries_key(app_id: str) -> str:
    """Hash: the app's webhook deliveries, delivery id -> JSON record (status, attempts,
    last error, the body)."""
    return f"bw:app:{{{app_id}}}:deliveries"


def app_delivery_index_key(app_id: str) -> str:
    """Sorted set: the app's delivery ids scored by creation (ms), for listing newest first
    and keeping only the newest."""
    return f"bw:app:{{{app_id}}}:deliveries:index"


def discord_channel_key(channel_id: str) -> str:
    """String: the table a Discord channel plays now (the Discord bot's ``/open`` sets it)."""
    return f"bw:discord:channel:{channel_id}"


def discord_table_key(table_id: str) -> str:
    """Hash: a table's Discord home for the Discord bot: ``channel`` (where moves are
    posted) and ``seat:<n>`` (the Discord user the bot seated there, to ping)."""
    return f"bw:discord:table:{table_id}"


def shard_of(table_id: str, shards: int) -> int:
    """The shard a table belongs to: ``crc32(table_id) mod shards``."""
    if shards < 1:
        raise ValueError("shards must be at least 1")
    return zlib.crc32(table_id.encode()) % shards


def engine_consumers_key(game: str) -> str:
    """The live engine replicas of one game, to split shards between them."""
    return f"bw:engines:{game}:consumers"


def command_field(seat: int, command_id: str) -> str:
    """The field of ``Keys.cmds`` that holds one seat's command id: ids are per seat."""
    return f"{seat}:{command_id}"


@dataclass(frozen=True, slots=True)
class ShardKeys:
    """The keys every table of one shard shares."""

    shard: int

    @property
    def prefix(self) -> str:
        return f"bw:{{s{self.shard}}}"

    @property
    def feed(self) -> str:
        """Every event of the shard's tables, in append order: the projector's input."""
        return f"{self.prefix}:feed"

    @property
    def turns(self) -> str:
        """Each command's change of turn (someone new to act, the game's end), written by
        the projector with the views it follows: the notifier's input (consumer group
        ``notifier``); trimmed below its acknowledgement, capped by length."""
        return f"{self.prefix}:turns"

    @property
    def cmd(self) -> str:
        """Command envelopes sent asynchronously (bots, chat integrations)."""
        return f"{self.prefix}:cmd"

    def lease(self, game: str) -> str:
        """Which engine replica of ``game`` reads the shard's command inbox now."""
        return f"{self.cmd}:lease:{game}"

    @property
    def dead(self) -> str:
        """Commands that kept failing, with the reason: the dead letters."""
        return f"{self.prefix}:dead"

    def dead_marker(self, entry_id: str) -> str:
        """Marks an inbox entry already moved to the dead letters (by any game's group)."""
        return f"{self.cmd}:dead:{entry_id}"

    @property
    def due(self) -> str:
        """Sorted set: the control commands the scheduler sends, scored by when they are
        due (ms since the epoch); each member is ``<game>|<CommandEnvelope bytes>``."""
        return f"{self.prefix}:due"

    @property
    def due_wake(self) -> str:
        """Stream: one entry (``at``) each time a plan puts a member into ``due`` earlier
        than any there, to wake a scheduler sleeping until the earliest; capped by length."""
        return f"{self.due}:wake"

    @property
    def durable(self) -> str:
        """A marker written right before each durability wait (see ``durability.py``)."""
        return f"{self.prefix}:durable"

    @property
    def tables(self) -> str:
        """Set of the shard's table ids, for rebuilding read models."""
        return f"{self.prefix}:tables"

    @property
    def seating_feed(self) -> str:
        """Every change to a seating record of the shard (table, rev, before, after), for
        the notifier (consumer group ``notifier``); capped by length."""
        return f"{self.prefix}:seating:feed"


@dataclass(frozen=True, slots=True)
class Keys(ShardKeys):
    """The keys of one table, beside those of its shard."""

    table_id: str

    @property
    def table_prefix(self) -> str:
        return f"{self.prefix}:t:{self.table_id}"

    @property
    def events(self) -> str:
        """The table's stream; entry ``<version>-1`` holds event ``version``."""
        return f"{self.table_prefix}:events"

    @property
    def meta(self) -> str:
        """Hash: game, TableMeta bytes, secret seed, head version and hash."""
        return f"{self.table_prefix}:meta"

    @property
    def cmds(self) -> str:
        """Hash: ``<seat>:<command id>`` (:func:`command_field`) -> what the command was
        (its fingerprint) and its first outcome (idempotency)."""
        return f"{self.table_prefix}:cmds"

    @property
    def seating(self) -> str:
        """Hash: the table's seating record (``rev``, ``doc``): who sits where, display
        names, the seat tokens' hashes (revocable), host, invite code, whether it started.
        Kept for ever, like the meta."""
        return f"{self.table_prefix}:seating"

    @property
    def plan(self) -> str:
        """Set: the table's members of the shard's ``due`` set, replaced with each version."""
        return f"{self.table_prefix}:plan"

    @property
    def plan_version(self) -> str:
        """String: the version of the table the ``plan`` was made for."""
        return f"{self.table_prefix}:plan:v"

    @property
    def snap(self) -> str:
        """Hash: the latest state snapshot, a cache only."""
        return f"{self.table_prefix}:snap"

    def view(self, name: str) -> str:
        """A read model written by the projector (e.g. ``public``, ``seat:0``)."""
        return f"{self.table_prefix}:view:{name}"

    def views(self, seats: int) -> list[str]:
        """Every read model of a table with ``seats`` seats: status, public, each seat's."""
        return [
            self.view("status"),
            self.view("public"),
            *(self.view(f"seat:{n}") for n in range(seats)),
        ]

    def hot(self, seats: int) -> list[str]:
        """What a finished table no longer needs at hand: its read models, its snapshot
        and its command ids. Its meta and log are kept for ever."""
        return [*self.views(seats), self.snap, self.cmds, self.plan, self.plan_version]


@dataclass(frozen=True, slots=True)
class LobbyKeys:
    """The lobby keys of one game (see :mod:`services.projector.lobby`)."""

    game: str

    @property
    def prefix(self) -> str:
        return f"bw:lobby:{{{self.game}}}"

    @property
    def entries(self) -> str:
        """Hash: table id -> its status JSON, the entry shown."""
        return f"{self.prefix}:tables"

    @property
    def placed(self) -> str:
        """Hash: table id -> ``<version> <rev> <indexes>|<expiry ms>``, the entry's order
        and where it was listed, so a newer entry listed in the same place is written
        alone."""
        return f"{self.prefix}:placed"

    def index(self, name: str) -> str:
        """Sorted set of the tables one filter lists (``all``, ``active``, ``finished``)."""
        return f"{self.prefix}:index:{name}"

    @property
    def expiry(self) -> str:
        """Sorted set: finished tables, scored by when their entry leaves the lobby."""
        return f"{self.prefix}:expiry"

    @property
    def durable(self) -> str:
        """A marker written right before a durability wait on the lobby's node."""
        return f"{self.prefix}:durable"
