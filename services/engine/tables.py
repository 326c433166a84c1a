"""Loading a table's state: the in-process cache, the snapshots, and the log behind both.

The log in Redis is the truth. The cache and the snapshots are checked against the
table's head before use and dropped whenever they disagree, so a second replica never
needs anything this one holds.

Snapshots are data, never code: the state's canonical JSON (``engines.core.canonical``)
behind the rules fingerprint, read back by the typed decoder ``from_plain`` and accepted
only if it encodes to the very same bytes again. A snapshot written by other rules code,
ahead of the head, damaged or of any unexpected shape is ignored, and the state is folded
from the log instead: whoever can write the snapshot key can make the engine replay
more, never run anything.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cachetools import LRUCache

from engines.core import contract as core_contract
from engines.core.canonical import canonical_bytes, from_plain
from engines.core.contract import Engine
from engines.core.control import Control, TableRules, fold_table
from engines.core.hashchain import Salts
from proto import common_pb2
from services.config import TABLES_HELD
from services.engine.refusals import ensure_game
from services.eventstore import Appended, EventStore, Head
from services.logs import get_logger

__all__ = [
    "LoadedTable",
    "SnapshotUnusable",
    "TableIdentity",
    "TableLoader",
    "decode_control",
    "decode_snapshot",
    "encode_snapshot",
    "rules_fingerprint",
]

log = get_logger("engine.tables")


def rules_fingerprint(engine: Engine[Any, Any, Any]) -> bytes:
    """SHA-256 over the source and data files of the engine's package and of engines/core.

    Snapshots carry it, so a snapshot written by other rules code is never read into
    these rules after an upgrade.
    """
    packages = {Path(core_contract.__file__).parent}
    # The package of the game's own state: a game built on the kit is an instance of
    # engines.core.game.Game, whose module says nothing of the game's rules.
    module = inspect.getmodule(type(engine.initial_state()))
    if module is not None and module.__file__:
        packages.add(Path(module.__file__).parent)
    fingerprint = hashlib.sha256()
    for package in sorted(packages):
        for path in sorted(package.rglob("*")):
            if path.is_file() and path.suffix in {".py", ".json"}:
                fingerprint.update(path.relative_to(package).as_posix().encode())
                fingerprint.update(path.read_bytes())
    return fingerprint.digest()


class SnapshotUnusable(ValueError):
    """A snapshot these rules cannot take as the state it claims to be."""


# Between the game's state and the table's control in a snapshot: canonical JSON never
# holds a raw newline.
_CONTROL_SEPARATOR = b"\n"


def encode_snapshot(rules: bytes, state: Any, control: Control | None = None) -> bytes:
    """The stored form of ``state``: the rules fingerprint, then its canonical JSON (and
    the table's control after a newline, when given)."""
    blob = rules + canonical_bytes(state)
    return blob if control is None else blob + _CONTROL_SEPARATOR + canonical_bytes(control)


def decode_snapshot(rules: bytes, state_type: type[Any], blob: bytes) -> Any:
    """The state :func:`encode_snapshot` stored; raises :class:`SnapshotUnusable` for a
    blob of other rules, or one that is not exactly the canonical form of a state."""
    if blob[: len(rules)] != rules:
        raise SnapshotUnusable("written by other rules code")
    data = blob[len(rules) :].split(_CONTROL_SEPARATOR, 1)[0]
    return _decoded(state_type, data)


def decode_control(rules: bytes, blob: bytes) -> Control:
    """The table's control in a snapshot :func:`encode_snapshot` wrote with one (after the
    rules fingerprint, whose bytes may hold anything)."""
    parts = blob[len(rules) :].split(_CONTROL_SEPARATOR, 1)
    if len(parts) != 2:
        raise SnapshotUnusable("no table control")
    control: Control = _decoded(Control, parts[1])
    return control


def _decoded(kind: type[Any], data: bytes) -> Any:
    try:
        value = from_plain(kind, json.loads(data))
    except Exception as bad:
        # Whatever the bytes hold, a snapshot that cannot be read is a cache miss.
        raise SnapshotUnusable(f"not a {kind.__name__}: {str(bad)[:200]}") from None
    if canonical_bytes(value) != data:
        raise SnapshotUnusable("not the canonical form of the state it reads as")
    return value


@dataclass(frozen=True, slots=True)
class TableIdentity:
    """What never changes about a table: its meta and its secret seed."""

    meta: common_pb2.TableMeta
    seed: bytes
    salts: Salts = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Held with the table, so the seed's HMAC pads are hashed once per table loaded.
        object.__setattr__(self, "salts", Salts(self.seed, self.meta.table_id))

    @property
    def rules(self) -> TableRules:
        return TableRules.of(self.meta)


@dataclass(frozen=True, slots=True)
class LoadedTable:
    """A table's state at ``head`` (the game's, and the table's control beside it), with
    what never changes about it."""

    identity: TableIdentity
    head: Head
    state: Any
    control: Control

    @property
    def meta(self) -> common_pb2.TableMeta:
        return self.identity.meta

    @property
    def version(self) -> int:
        return self.head.version


class TableLoader:
    """One game's tables as state: cached, snapshotted, always current on ``load``."""

    def __init__(
        self,
        store: EventStore,
        engine: Engine[Any, Any, Any],
        *,
        snapshot_every: int = 64,
        cache_size: int = TABLES_HELD,
    ) -> None:
        self.store = store
        self.engine = engine
        self.snapshot_every = snapshot_every
        self.rules = rules_fingerprint(engine)
        self._state_type: type[Any] = type(engine.initial_state())
        self._tables: LRUCache[str, LoadedTable] = LRUCache(maxsize=cache_size)
        self._identities: LRUCache[str, TableIdentity] = LRUCache(maxsize=cache_size)

    @property
    def game(self) -> str:
        return self.engine.info.game

    @property
    def held(self) -> int:
        """How many tables' states are in memory now (at most ``cache_size``)."""
        return len(self._tables)

    async def identity(self, table_id: str) -> TableIdentity:
        """The table's meta and seed; raises ``TableNotFound``, and ``WrongGame`` for a
        table of another game."""
        known = self._identities.get(table_id)
        if known is None:
            meta, seed = await self.store.meta_and_seed(table_id)
            ensure_game(meta.game, self.game)
            known = self._identities[table_id] = TableIdentity(meta, seed)
        return known

    async def load(self, table_id: str, head: Head | None = None) -> LoadedTable:
        """The state at the current head (``head`` when the caller just read it)."""
        identity = await self.identity(table_id)
        if head is None:
            head = await self.store.head(table_id)
        cached = self._tables.get(table_id)
        if cached is not None and cached.head == head:
            return cached
        if cached is not None and cached.version < head.version:
            later = await self.store.read(table_id, after=cached.version)
            return self.remember(self._advanced(cached, later))
        version, state, control = await self._from_snapshot(identity, head.version)
        later = await self.store.read(table_id, after=version)
        at = head if version == head.version else Head(version, b"")
        return self.remember(self._advanced(LoadedTable(identity, at, state, control), later))

    def cached(self, table_id: str) -> LoadedTable | None:
        """The state this process holds, possibly behind the log (another replica may
        have appended since): only a write checked against its head may rely on it."""
        return self._tables.get(table_id)

    def remember_created(self, identity: TableIdentity, created: Appended) -> LoadedTable:
        """Hold a table this process has just created: its identity and set-up state."""
        self._identities[identity.meta.table_id] = identity
        state, control = fold_table(
            self.engine,
            identity.rules,
            self.engine.initial_state(),
            Control.start(identity.meta.seats),
            created.events,
        )
        return self.remember(LoadedTable(identity, created.head, state, control))

    def remember(self, loaded: LoadedTable) -> LoadedTable:
        self._tables[loaded.meta.table_id] = loaded
        return loaded

    def forget(self, table_id: str) -> None:
        """Drop the cached state (after a conflict, or in tests)."""
        self._tables.pop(table_id, None)

    def _advanced(self, base: LoadedTable, later: Sequence[common_pb2.StoredEvent]) -> LoadedTable:
        if not later:
            return base
        if later[0].version != base.version + 1:
            raise RuntimeError(f"log of {base.meta.table_id} skips from {base.version}")
        state, control = fold_table(
            self.engine, base.identity.rules, base.state, base.control, later
        )
        last = later[-1]
        return LoadedTable(base.identity, Head(last.version, last.hash), state, control)

    # -- snapshots --------------------------------------------------------------------

    async def maybe_snapshot(self, loaded: LoadedTable, first_version: int) -> None:
        """Write a snapshot when a batch from ``first_version`` crossed a multiple of
        ``snapshot_every``."""
        every = self.snapshot_every
        if (first_version - 1) // every == loaded.version // every:
            return
        blob = encode_snapshot(self.rules, loaded.state, loaded.control)
        await self.store.save_snapshot(loaded.meta.table_id, loaded.version, blob)

    async def _from_snapshot(
        self, identity: TableIdentity, head_version: int
    ) -> tuple[int, Any, Control]:
        """The snapshot's (version, state, control) if it is usable, else the start."""
        table_id = identity.meta.table_id
        initial = 0, self.engine.initial_state(), Control.start(identity.meta.seats)
        snapshot = await self.store.load_snapshot(table_id)
        if snapshot is None:
            return initial
        version, blob = snapshot
        if not 0 < version <= head_version:
            log.warning("snapshot.ahead_of_head", table_id=table_id, version=version)
            return initial
        try:
            state = decode_snapshot(self.rules, self._state_type, blob)
            return version, state, decode_control(self.rules, blob)
        except SnapshotUnusable as unusable:
            # A snapshot is a cache: any damage, or an upgrade of the rules, means folding
            # from the start instead.
            log.warning("snapshot.unusable", table_id=table_id, reason=str(unusable))
        return initial
