"""Everything the gateway reads from Redis: table meta, read models, the projector's lag,
and the raw log of finished tables (the lobby: ``gateway.lobby``); and the stores of what
the gateway itself keeps: tables' seating, apps, and the tables each player sits at.

The game logs are never written here: the engine services append and the projector
projects. What a read sends back is a lost view's report (:meth:`ReadStore.report_lost_view`).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from cachetools import LRUCache, TTLCache
from redis.exceptions import RedisError

from gateway.errors import ApiError
from gateway.live import Projections
from proto import common_pb2
from services.eventstore import (
    PROJECTOR_LAG_KEY,
    RECONNECT_RETRY,
    VIEWS_LOST_KEPT,
    VIEWS_LOST_KEY,
    AutoPipeline,
    EventStore,
    Keys,
    ScriptCall,
    TableNotFound,
    connect,
)
from services.notifications import PlayerInbox, Webhooks
from services.players import AppRegistry, PlayerTables
from services.projector.lobby import Lobby
from services.seating import OPEN_TABLE_TTL_S, RosterStore

__all__ = ["ReadModel", "ReadStore", "read_model"]

_META_CACHE = 10_000
# A table whose view was lost is reported to the projector once in this many seconds.
LOST_REPORTED_S = 5.0
# How long a read waiting for the projector trusts its wake-up before reading again.
LOOK_AGAIN_S = 0.1
# A read model's stored fields and the table status's, in one script call: reads made
# together go in one pipeline (AutoPipeline), with no pooled connection each.
_READ_MODELS = """
return {redis.call('HMGET', KEYS[1], 'version', 'json'),
        redis.call('HMGET', KEYS[2], 'version', 'json')}
"""


@dataclass(frozen=True, slots=True)
class ReadModel:
    """One projected document, as the canonical JSON text stored, and the table version it
    reflects. The busiest read sends the text on as it is (never parsed); ``data`` parses it."""

    version: int
    text: bytes

    @property
    def data(self) -> dict[str, Any]:
        parsed: dict[str, Any] = json.loads(self.text)
        return parsed


def read_model(version: Any, text: Any) -> ReadModel | None:
    """A read model from its stored ``version`` and ``json`` fields (bytes or text); None
    when missing or damaged (its version unreadable, its text not a JSON object's bounds)."""
    if isinstance(text, str):
        text = text.encode()
    if version is None or not isinstance(text, bytes):
        return None
    if not (text.startswith(b"{") and text.endswith(b"}")):
        return None
    try:
        return ReadModel(int(version), text)
    except ValueError:
        return None


def _read_model(raw: dict[Any, Any] | None) -> ReadModel | None:
    """A read model's hash as stored by the projector (see :func:`read_model`)."""
    if not raw:
        return None
    return read_model(_field(raw, b"version"), _field(raw, b"json"))


def _field(raw: dict[Any, Any], name: bytes) -> bytes | None:
    """A hash field as bytes, from a client that decodes replies or one that does not."""
    value = raw.get(name)
    if value is None:
        value = raw.get(name.decode())
    return value.encode() if isinstance(value, str) else value


def _decode(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class ReadStore:
    """Read-only access to one deployment's Redis."""

    def __init__(
        self,
        redis: Any,
        shards: int,
        open_table_ttl_s: int = OPEN_TABLE_TTL_S,
        *,
        look_again_s: float = LOOK_AGAIN_S,
    ) -> None:
        self.redis = redis
        self.look_again_s = look_again_s
        self.shards = shards
        self.events = EventStore(redis, shards=shards)
        self.seating = RosterStore(redis, shards, open_table_ttl_s)
        self.apps = AppRegistry(redis)
        self.players = PlayerTables(redis)
        self.inbox = PlayerInbox(redis, shards)
        self.webhooks = Webhooks(redis)
        self.lobby = Lobby(redis)
        self._read_models = redis.register_script(_READ_MODELS)
        self._batched = AutoPipeline(redis)
        # Meta is written once at creation and never changes, so caching it is safe.
        self._meta: LRUCache[str, common_pb2.TableMeta] = LRUCache(maxsize=_META_CACHE)
        self._lost: TTLCache[str, bool] = TTLCache(maxsize=_META_CACHE, ttl=LOST_REPORTED_S)

    @classmethod
    async def open(
        cls, url: str, shards: int, open_table_ttl_s: int = OPEN_TABLE_TTL_S
    ) -> ReadStore:
        return cls(await connect(url, retry=RECONNECT_RETRY), shards, open_table_ttl_s)

    async def close(self) -> None:
        close = getattr(self.redis, "aclose", None) or self.redis.close
        await close()

    def keys(self, table_id: str) -> Keys:
        return self.events.keys(table_id)

    async def ping(self) -> bool:
        return bool(await self.redis.ping())

    async def meta(self, table_id: str) -> common_pb2.TableMeta:
        """The table's meta; 404 ``table.not_found`` when there is no such table."""
        cached = self._meta.get(table_id)
        if cached is not None:
            return cached
        try:
            meta = await self.events.meta(table_id)
        except TableNotFound:
            raise ApiError(404, "table.not_found", f"No table {table_id!r}.") from None
        self._meta[table_id] = meta
        return meta

    async def read_model(self, table_id: str, name: str) -> ReadModel | None:
        """``view:public``, ``view:seat:<n>`` or ``view:status`` as last projected."""
        return _read_model(await self.redis.hgetall(self.keys(table_id).view(name)))

    async def read_models(
        self, table_id: str, name: str
    ) -> tuple[ReadModel | None, ReadModel | None]:
        """The read model ``name`` and ``view:status`` together, in one call (both live in
        the table's slot), batched with the other reads of the moment."""
        keys = self.keys(table_id)
        model, status = await self._batched.call(
            ScriptCall(self._read_models, (keys.view(name), keys.view("status")), ())
        )
        return read_model(*model), read_model(*status)

    async def report_lost_view(self, table_id: str) -> None:
        """Ask the projector to write the table's views again: one was found behind the
        status, lost with a Redis restart or failover (views are kept in memory only, see
        :mod:`services.projector.projector`). Once per table in ``LOST_REPORTED_S``; a
        report that cannot be sent is dropped, as the next read of the view reports again."""
        if table_id in self._lost:
            return
        self._lost[table_id] = True
        try:
            await self.redis.xadd(
                VIEWS_LOST_KEY, {"table": table_id}, maxlen=VIEWS_LOST_KEPT, approximate=True
            )
        except RedisError:
            self._lost.pop(table_id, None)

    async def read_models_at_least(
        self,
        table_id: str,
        name: str,
        min_version: int,
        wait: float,
        projections: Projections,
        read: tuple[ReadModel | None, ReadModel | None] | None = None,
    ) -> tuple[ReadModel | None, ReadModel | None]:
        """:meth:`read_models` once the model reflects ``min_version``; ``(None, None)`` if
        the projector is still behind after ``wait`` seconds (the caller then asks the
        engine). ``read``: the two as just read, if they were. Woken by the projector's
        own feed (``projections``); read again at least every ``look_again_s`` in case
        a wake-up was lost."""
        deadline = time.monotonic() + wait
        while True:
            model, status = read or await self.read_models(table_id, name)
            read = None
            if model is not None and model.version >= min_version:
                return model, status
            if status is not None and status.version >= min_version:
                # Projected, but not this view: lost (see report_lost_view), not late.
                return model, status
            left = deadline - time.monotonic()
            if left <= 0:
                return None, None
            await projections.reached(table_id, min_version, min(left, self.look_again_s))

    async def projector_lag(self) -> dict[str, Any]:
        raw = await self.redis.get(PROJECTOR_LAG_KEY)
        if raw is None:
            return {}
        try:
            lag = json.loads(_decode(raw))
        except ValueError:
            return {}
        return lag if isinstance(lag, dict) else {"lag": lag}

    async def log(self, table_id: str) -> list[common_pb2.StoredEvent]:
        """The whole stored log, unredacted (only ever served for finished tables)."""
        return list(await self.events.read(table_id))
