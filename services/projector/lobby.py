"""The lobby: which tables there are, by game and status, a page at a time.

The projector keeps it (:meth:`Lobby.record` whenever a table's status changes); the
gateway reads it (:meth:`Lobby.page`). A page costs one range read per game asked for
and one hash read for the entries shown, however many tables there are.

Keys, per game; they share the hash tag ``{<game>}``, so one script moves a table
between indexes atomically even on Redis Cluster:

``bw:lobby:{<game>}:tables``          hash: table id -> its status JSON (the entry shown)
``bw:lobby:{<game>}:placed``          hash: table id -> ``<version> <rev> <indexes>|<expiry>``:
                                      the entry's order and where it is listed
``bw:lobby:{<game>}:index:<name>``    sorted set: the tables of one filter (see below)
``bw:lobby:{<game>}:expiry``          sorted set: finished tables and tables waiting for
                                      players, scored by when their entry leaves the
                                      lobby (ms since the epoch)

Every index member is ``<created_ms, 16 digits>:<table_id>`` with score 0, so each index
is ordered by creation time (then id) and paged with ``ZREVRANGEBYLEX`` from a cursor,
the last member shown: newest first, stable while tables are created or finish (a
table's member is the same in every index and never changes).

Filters are indexes. :func:`indexes_of` says which indexes a status belongs to: ``all``,
and ``open`` (waiting for players, with seats open), ``active`` or ``finished``. A new
filter is a new name there, computed from the status document, plus its query name in
:data:`FILTERS`; the projector keeps it from then on and ``--rebuild`` fills it for the
tables that exist. Listing never reads a table that is not on the page.

Two writers keep the entries: the gateway while a table is open (its seating, at
version 0, ordered by the seating's ``rev``), the projector once it has events (version
1 and up). An entry is replaced only by a newer one: a higher version, or the same
version with a higher ``rev``. An unlisted table (joined only with its invite code) is
in no index.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from services.eventstore import LobbyKeys, ScriptCall, run_scripts

__all__ = [
    "CURSOR_PATTERN",
    "FILTERS",
    "INDEXES",
    "Lobby",
    "LobbyEntry",
    "LobbyPage",
    "decode_cursor",
    "encode_cursor",
    "entries_key",
    "indexes_of",
    "member_of",
]

# Every index a status can be in, in the order the scripts receive their keys.
INDEXES: tuple[str, ...] = ("all", "open", "active", "finished")
# Query value of the status filter -> the index that answers it (None: no filter).
FILTERS: Mapping[str | None, str] = {
    None: "all",
    "open": "open",
    "active": "active",
    "finished": "finished",
}

CURSOR_PATTERN = r"^\d{16}:[A-Za-z0-9_-]{1,64}$"
_MEMBER = re.compile(CURSOR_PATTERN)

# Write a table's entry if it is newer than the stored one, and move it between indexes
# unless it stays where it was (most writes: a game in progress stays "all" and "active",
# so they cost two hash writes, not a move through every index). An entry listed before
# the placement hash existed is ordered by its own version and rev, once.
_RECORD = """
local incoming, rev = tonumber(ARGV[2]), tonumber(ARGV[6])
local place = ARGV[7] .. '|' .. ARGV[5]
local placed = redis.call('HGET', KEYS[2], ARGV[1])
local stored, stored_rev, was = nil, 0, nil
if placed then
  local version, placed_rev, where = string.match(placed, '^(%d+) (%d+) (.*)$')
  stored, stored_rev, was = tonumber(version), tonumber(placed_rev), where
else
  local current = redis.call('HGET', KEYS[1], ARGV[1])
  if current then
    local ok, status = pcall(cjson.decode, current)
    if ok then
      stored, stored_rev = tonumber(status['version'] or 0), tonumber(status['rev'] or 0)
    end
  end
end
if stored and (stored > incoming or (stored == incoming and stored_rev >= rev)) then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2] .. ' ' .. ARGV[6] .. ' ' .. place)
if was == place then
  return 1
end
for i = 4, #KEYS do
  redis.call('ZREM', KEYS[i], ARGV[4])
end
for position in string.gmatch(ARGV[7], '%d+') do
  redis.call('ZADD', KEYS[4 + tonumber(position)], 0, ARGV[4])
end
if tonumber(ARGV[5]) > 0 then
  redis.call('ZADD', KEYS[3], ARGV[5], ARGV[4])
else
  redis.call('ZREM', KEYS[3], ARGV[4])
end
return 1
"""

# Remove the entries whose time is up; returns their members.
_SWEEP = """
local gone = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
for _, member in ipairs(gone) do
  for i = 4, #KEYS do
    redis.call('ZREM', KEYS[i], member)
  end
  local table_id = string.match(member, ':(.*)$')
  redis.call('HDEL', KEYS[1], table_id)
  redis.call('HDEL', KEYS[2], table_id)
  redis.call('ZREM', KEYS[3], member)
end
return gone
"""


def entries_key(game: str) -> str:
    """The hash of ``game``'s listed tables: table id -> status JSON."""
    return LobbyKeys(game).entries


def _script_keys(game: str) -> list[str]:
    """The keys the scripts take: entries, placements, expiry, then every index in
    INDEXES order."""
    keys = LobbyKeys(game)
    return [keys.entries, keys.placed, keys.expiry, *(keys.index(name) for name in INDEXES)]


def indexes_of(status: Mapping[str, Any]) -> tuple[str, ...]:
    """The indexes a table with this status document is listed in."""
    if status.get("unlisted"):
        return ()
    seating = status.get("state")
    if seating == "open":
        return ("all", "open") if status.get("open_seats") else ("all",)
    if seating == "starting":
        # Between its seating and its first event: the projector lists it next.
        return ()
    return ("all", "finished" if status.get("finished") else "active")


def member_of(status: Mapping[str, Any]) -> str:
    """The table's member in every index: creation time, then id."""
    return f"{int(status['created_ms']):016d}:{status['table_id']}"


def encode_cursor(member: str) -> str:
    """The cursor a client passes back for the page after ``member``: the member itself, a
    position in the index (creation time, then id), so any cursor of that shape is a
    place to start from and the API's schema can say exactly which strings are cursors."""
    return member


def decode_cursor(cursor: str) -> str:
    """The member a cursor stands for; ValueError when it does not have a member's shape."""
    if not _MEMBER.match(cursor):
        raise ValueError("not a lobby cursor")
    return cursor


@dataclass(frozen=True, slots=True)
class LobbyEntry:
    """One listed table: its game and its status document."""

    table_id: str
    game: str
    status: dict[str, Any]


@dataclass(frozen=True, slots=True)
class LobbyPage:
    """One page, newest first; ``next_cursor`` is None on the last page."""

    entries: tuple[LobbyEntry, ...]
    next_cursor: str | None


class Lobby:
    """The lobby indexes on one Redis (plain or cluster)."""

    def __init__(self, redis: Any) -> None:
        self.redis = redis
        self._record = redis.register_script(_RECORD)
        self._sweep = redis.register_script(_SWEEP)

    async def record(self, game: str, status_json: str, *, expire_at_ms: int | None = None) -> bool:
        """List the table as ``status_json`` says, unless a newer version is listed.

        ``expire_at_ms``: when the entry leaves the lobby (a finished table's, or an open
        one's when its seating expires); None keeps it.
        """
        call = self.record_call(game, status_json, expire_at_ms=expire_at_ms)
        return bool(await call.script(keys=call.keys, args=call.args))

    def record_call(
        self, game: str, status_json: str, *, expire_at_ms: int | None = None
    ) -> ScriptCall:
        """:meth:`record` as a script call, for a writer that pipelines a batch of them."""
        status = json.loads(status_json)
        positions = ",".join(str(INDEXES.index(name)) for name in indexes_of(status))
        return ScriptCall(
            self._record,
            _script_keys(game),
            [
                status["table_id"],
                int(status["version"]),
                status_json,
                member_of(status),
                expire_at_ms or 0,
                int(status.get("rev") or 0),
                positions,
            ],
        )

    async def sweep(self, games: Sequence[str], now_ms: int, limit: int = 1000) -> list[str]:
        """Take out of the lobbies of ``games`` the entries whose time is up, in one round
        trip (the projector's loop waits for it once a second); returns their table ids."""
        calls = [ScriptCall(self._sweep, _script_keys(game), [now_ms, limit]) for game in games]
        return [
            _text(member).split(":", 1)[1]
            for gone in await run_scripts(self.redis, calls)
            for member in gone
        ]

    async def drop(self, game: str) -> int:
        """Delete every lobby key of ``game`` (a rebuild starts from nothing)."""
        deleted = 0
        for key in _script_keys(game):
            deleted += int(await self.redis.delete(key))
        return deleted

    async def page(
        self,
        games: Sequence[str],
        status: str | None = None,
        limit: int = 100,
        cursor: str | None = None,
    ) -> LobbyPage:
        """Tables of ``games`` matching ``status``, newest first, after ``cursor``.

        Raises ValueError for a cursor that is not one of ours or a status no index
        answers.
        """
        if status not in FILTERS:
            raise ValueError(f"no lobby filter {status!r}")
        index = FILTERS[status]
        upper = "(" + decode_cursor(cursor) if cursor else "+"
        found: list[tuple[str, str]] = []
        for game in games:
            members = await self.redis.zrevrangebylex(
                LobbyKeys(game).index(index), upper, "-", start=0, num=limit + 1
            )
            found += [(_text(member), game) for member in members]
        found.sort(reverse=True)
        shown, more = found[:limit], len(found) > limit
        entries = await self._entries(shown)
        next_cursor = encode_cursor(shown[-1][0]) if more and shown else None
        return LobbyPage(tuple(entries), next_cursor)

    async def _entries(self, shown: Sequence[tuple[str, str]]) -> list[LobbyEntry]:
        ids_by_game: dict[str, list[str]] = {}
        for member, game in shown:
            ids_by_game.setdefault(game, []).append(member.split(":", 1)[1])
        docs: dict[tuple[str, str], Any] = {}
        for game, ids in ids_by_game.items():
            values = await self.redis.hmget(entries_key(game), ids)
            docs.update({(game, table_id): v for table_id, v in zip(ids, values, strict=True)})
        entries: list[LobbyEntry] = []
        for member, game in shown:
            table_id = member.split(":", 1)[1]
            raw = docs.get((game, table_id))
            if raw is None:
                # Swept between the two reads: it has just left the lobby.
                continue
            entries.append(LobbyEntry(table_id, game, json.loads(_text(raw))))
        return entries


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
