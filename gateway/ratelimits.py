"""Rate limits shared by every gateway replica, counted in Redis by one script, which also
reads the seating of the table a request names: one round trip before any route runs.

Three budgets, each a list of windows such as ``"6000/minute"`` or ``"20/minute;200/hour"``
(all must hold; empty turns the budget off):

- per client address, every request but the probes (``BW_RATE_LIMIT_ADDRESS``);
- per seat token, every request that carries one (``BW_RATE_LIMIT_SEAT``), so one seat
  cannot crowd out the others behind the same address;
- per client address, table creation (``BW_RATE_LIMIT_CREATE``).

Each window is a sliding-window counter: the requests of the current fixed window plus
those of the previous one, weighted by how much of it still overlaps the last window's
length (no burst at a window's edge, one small hash per client and window). A request is
counted in every budget it spends from, or, refused, in none. A seat token never reaches
Redis: its key holds a hash of the token. If Redis cannot be asked in time, the request is
let through (and logged): the reads behind it will say that the store is down.

The counters are kept in memory only: the script writes them to neither the append-only
file nor the replicas (``redis.set_repl``). Under ``appendfsync always`` a propagated write
costs its request an fsync (about 2 ms on this machine's disk, every request, before any
route runs) and grows the file with every request; a restart or a failover forgets the
counts instead, which at worst lets a client start its windows afresh.

The seating is read in the same script because every table request needs it (a token
may have been re-issued, so it is never cached as such): the gateway keeps the last
roster it read per table and the script sends the document again only when its revision
moved. A view read has the script read the view it will most likely serve (and the
table's status) too (:class:`ViewGuess`). The checks of requests arriving together go to
Redis in one pipeline (:class:`~services.eventstore.AutoPipeline`): under load a
pooled connection and a round trip each cost the gateway more than the script's own
work. On Redis Cluster a script cannot reach keys of several slots, so there each budget
is one call and the seating and the views are read by the route, as before.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import re
from dataclasses import dataclass
from typing import Any

import structlog
from cachetools import LRUCache
from redis.asyncio.cluster import RedisCluster

from gateway.store import ReadModel, read_model
from services.eventstore import AnyRedis, AutoPipeline, ScriptCall, is_redis_trouble, rate_limit_key
from services.seating import Roster, RosterStore

__all__ = [
    "Admission",
    "Budget",
    "RateLimits",
    "Refusal",
    "ViewGuess",
    "Window",
    "parse_budget",
]

log = structlog.get_logger("gateway.ratelimits")

# A limit check that takes longer than this lets the request through.
_CHECK_TIMEOUT_S = 1.0
# Tables whose last roster read is kept to compare revisions with.
_ROSTERS = 10_000

_UNITS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
_WINDOW = re.compile(
    r"^\s*(\d+)\s*(?:/|per)\s*(\d+)?\s*(second|minute|hour|day)s?\s*$", re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class Window:
    """At most ``amount`` requests in any ``multiples`` ``unit``s."""

    amount: int
    multiples: int
    unit: str

    @property
    def seconds(self) -> int:
        return self.multiples * _UNITS[self.unit]

    def __str__(self) -> str:
        return f"{self.amount} per {self.multiples} {self.unit}"


@dataclass(frozen=True, slots=True)
class Budget:
    """One named budget: its windows, all of which must hold."""

    name: str
    windows: tuple[Window, ...]


@dataclass(frozen=True, slots=True)
class Refusal:
    """A request over budget: which one, and how long until it would be let through."""

    budget: str
    retry_after_s: int
    limit: str


@dataclass(frozen=True, slots=True)
class ViewGuess:
    """The read model a view read will most likely serve (``name``: ``public`` or
    ``seat:<n>``) and the keys of it and of the table's status. The route serves what was
    read only if the caller turns out to be that viewer."""

    name: str
    view_key: str
    status_key: str


@dataclass(frozen=True, slots=True)
class Admission:
    """What the check found: a refusal or ``None``; the seating of the table asked
    about (``roster``, ``None`` for a table without one) when ``roster_read``; and the
    guessed read model and the status's (``views``; ``None`` where missing or damaged)
    when they were read."""

    refusal: Refusal | None
    roster_read: bool = False
    roster: Roster | None = None
    views: tuple[ReadModel | None, ReadModel | None] | None = None


_LET_THROUGH = Admission(None)


def _window(text: str) -> Window:
    found = _WINDOW.match(text)
    if found is None:
        raise ValueError(
            f"{text.strip()!r} is not a rate limit: write N/second, N/minute, N/hour or"
            " N/day (N/2 minutes, N per hour), several joined by ';'"
        )
    amount, multiples, unit = found.groups()
    if int(amount) < 1 or (multiples is not None and int(multiples) < 1):
        raise ValueError(f"{text.strip()!r} lets nothing through (an empty budget has no limit)")
    return Window(int(amount), int(multiples or 1), unit.lower())


def parse_budget(name: str, text: str) -> Budget:
    """``"20/minute;200/hour"`` as a budget; ``""`` as an empty one (no limit)."""
    parts = [part for part in re.split(r"[;,|]", text) if part.strip()]
    return Budget(name, tuple(_window(part) for part in parts))


# KEYS: the seating record when ARGV[1] is not empty; one key per window; then, when
# ARGV[2] is '1', a read model's hash and the table status's.
# ARGV[1]: "" (no seating to read) or the revision of the roster the gateway holds ("0":
# none); ARGV[2]: '1' to read the two read models, '0' not to; then per window its amount
# and its length in ms.
# Returns {refused window (1-based, 0: none), ms to wait, seating rev, seating doc, read
# model, status}; the doc only when the rev differs from ARGV[1] (false otherwise, and
# for no seating); each read model as its stored {version, json}, only when admitted.
_ADMIT = """
local first, last = 1, #KEYS
local rev, doc = false, false
if ARGV[1] ~= '' then
  first = 2
  rev = redis.call('HGET', KEYS[1], 'rev')
  if rev and rev ~= ARGV[1] then
    doc = redis.call('HGET', KEYS[1], 'doc')
  end
end
local views = ARGV[2] == '1'
if views then
  last = last - 2
end
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local spent = {}
for i = first, last do
  local arg = 2 * (i - first) + 3
  local limit = tonumber(ARGV[arg])
  local length = tonumber(ARGV[arg + 1])
  local window = math.floor(now / length)
  local held = redis.call('HMGET', KEYS[i], 'w', 'c', 'p')
  local w, c, p = tonumber(held[1]), tonumber(held[2]) or 0, tonumber(held[3]) or 0
  if w == window - 1 then
    p, c = c, 0
  elseif w ~= window then
    p, c = 0, 0
  end
  local into = now - window * length
  if p * (length - into) / length + c + 1 > limit then
    local wait
    if c + 1 > limit then
      -- Not in this window: the next one, once the weight of this one's count is low.
      wait = length - into + (1 - (limit - 1) / c) * length
    else
      wait = (1 - (limit - 1 - c) / p) * length - into
    end
    return {i - first + 1, math.ceil(wait), rev, false, false, false}
  end
  spent[#spent + 1] = {KEYS[i], window, c + 1, p, 2 * length, w == window}
end
-- Counters are not worth an fsync: kept in memory only, neither in the append-only file
-- nor on replicas, so no request waits for the disk here.
redis.set_repl(redis.REPL_NONE)
for _, s in ipairs(spent) do
  if s[6] then
    -- Within the window only its count moves; the expiry set when it began keeps the
    -- counter through the next window, the last that weighs this one's count.
    redis.call('HSET', s[1], 'c', s[3])
  else
    redis.call('HSET', s[1], 'w', s[2], 'c', s[3], 'p', s[4])
    redis.call('PEXPIRE', s[1], s[5])
  end
end
local model, status = false, false
if views then
  model = redis.call('HMGET', KEYS[last + 1], 'version', 'json')
  status = redis.call('HMGET', KEYS[last + 2], 'version', 'json')
end
return {0, 0, rev, doc, model, status}
"""


def _who_of_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()[:32]


class RateLimits:
    """The gateway's budgets over one Redis (or Redis Cluster)."""

    def __init__(
        self,
        redis: AnyRedis,
        rosters: RosterStore,
        address: Budget,
        seat: Budget,
        create: Budget,
    ) -> None:
        self.redis = redis
        self.rosters = rosters
        self.address = address
        self.seat = seat
        self.create = create
        self._cluster = isinstance(redis, RedisCluster)
        self._admit = redis.register_script(_ADMIT)
        # Checks made together go in one pipeline: no pooled connection each.
        self._batched = AutoPipeline(redis)
        self._held: LRUCache[str, Roster] = LRUCache(maxsize=_ROSTERS)

    def held(self, table_id: str) -> Roster | None:
        """The last seating of ``table_id`` read here, if kept (it may have moved since)."""
        return self._held.get(table_id)

    async def check(
        self,
        client: str,
        token: str | None,
        creating: bool,
        table_id: str | None = None,
        view: ViewGuess | None = None,
    ) -> Admission:
        """Count one request (and read ``table_id``'s seating, if given, and ``view``, where
        one round trip can): its :class:`Admission`."""
        spending: list[tuple[Budget, str]] = [(self.address, client)]
        if token:
            spending.append((self.seat, _who_of_token(token)))
        if creating:
            spending.append((self.create, client))
        try:
            async with asyncio.timeout(_CHECK_TIMEOUT_S):
                if self._cluster:
                    return await self._check_each(spending)
                return await self._check_once(spending, table_id, view)
        except Exception as trouble:
            # Our own timeout (asyncio's TimeoutError) is an OSError: Redis trouble too.
            if not is_redis_trouble(trouble):
                raise
            log.warning("ratelimit.unavailable", error=str(trouble) or type(trouble).__name__)
            return _LET_THROUGH

    async def _check_once(
        self, spending: list[tuple[Budget, str]], table_id: str | None, view: ViewGuess | None
    ) -> Admission:
        keys: list[str] = []
        args: list[Any] = []
        held: Roster | None = None
        if table_id is None:
            args.append("")
            view = None
        else:
            held = self._held.get(table_id)
            keys.append(self.rosters.keys(table_id).seating)
            args.append(str(held.rev) if held is not None else "0")
        args.append("1" if view is not None else "0")
        windows = _windows(spending, keys, args)
        if view is not None:
            keys += [view.view_key, view.status_key]
        refused, wait_ms, rev, doc, model, status = await self._batched.call(
            ScriptCall(self._admit, keys, args)
        )
        if refused:
            return Admission(_refusal(windows[int(refused) - 1], int(wait_ms)))
        if table_id is None:
            return _LET_THROUGH
        roster: Roster | None = None
        if rev is not None:
            roster = Roster.from_json(doc, int(rev)) if doc is not None else held
            if roster is not None:
                self._held[table_id] = roster
        if roster is None:
            self._held.pop(table_id, None)
        views = (read_model(*model), read_model(*status)) if view is not None else None
        return Admission(None, True, roster, views)

    async def _check_each(self, spending: list[tuple[Budget, str]]) -> Admission:
        for budget, who in spending:
            keys: list[str] = []
            args: list[Any] = ["", "0"]
            windows = _windows([(budget, who)], keys, args)
            if not keys:
                continue
            refused, wait_ms, *_ = await self._admit(keys=keys, args=args)
            if refused:
                return Admission(_refusal(windows[int(refused) - 1], int(wait_ms)))
        return _LET_THROUGH


def _windows(
    spending: list[tuple[Budget, str]], keys: list[str], args: list[Any]
) -> list[tuple[Budget, Window]]:
    """Add each window's key and arguments; the windows, in the same order."""
    windows: list[tuple[Budget, Window]] = []
    for budget, who in spending:
        for window in budget.windows:
            keys.append(rate_limit_key(budget.name, who, window.amount, window.seconds))
            args += [window.amount, window.seconds * 1000]
            windows.append((budget, window))
    return windows


def _refusal(refused: tuple[Budget, Window], wait_ms: int) -> Refusal:
    budget, window = refused
    return Refusal(budget.name, max(1, math.ceil(wait_ms / 1000)), str(window))
