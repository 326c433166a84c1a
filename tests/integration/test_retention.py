"""A system after its queues were trimmed and its finished tables' hot keys expired: the
logs alone still rebuild every read model and audit every table."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import uuid

import grpc
import pytest

from proto import engine_pb2, engine_pb2_grpc
from services.engine.host import TableHost
from services.eventstore import EventStore, ShardKeys
from services.projector.lobby import Lobby
from services.redis_server import free_port
from tests.integration.test_engine_service_support import (
    FREUNDE,
    SHARDS,
    create_request,
    engine_process,
    envelope,
    eventually,
    opened_store,
    private_redis,
    scripted_game,
    service_process,
)

pytestmark = [pytest.mark.anyio, pytest.mark.integration]


async def send_game(store: EventStore, table_id: str, commands: int | None = None) -> str:
    """XADD the table's scripted game (or its first ``commands``); returns the last id."""
    game = scripted_game(table_id)[:commands]
    for n, (seat, command) in enumerate(game):
        env = envelope(table_id, f"c{n}", seat, command)
        await store.redis.xadd(
            store.keys(table_id).cmd, {"env": env.SerializeToString(), "game": "freunde"}
        )
    return f"c{len(game) - 1}"


async def queues_trimmed(store: EventStore) -> bool:
    """Every feed and inbox keeps at most the one entry its groups last read."""
    for shard in range(SHARDS):
        keys = ShardKeys(shard)
        if await store.redis.xlen(keys.feed) > 1 or await store.redis.xlen(keys.cmd) > 1:
            return False
    return True


def test_a_trimmed_and_expired_system_rebuilds_every_read_model_and_audits_every_table() -> None:
    """Finished tables lose their views, snapshot, command ids and lobby entry after
    BW_FINISHED_TTL_S; feeds and inboxes are trimmed; ``--rebuild`` then writes every
    table's read models again from the logs, and every table audits."""
    for url in private_redis():
        asyncio.run(scenario(url))


async def scenario(url: str) -> None:
    finished = [f"ret-{uuid.uuid4().hex[:10]}" for _ in range(3)]
    playing = f"ret-{uuid.uuid4().hex[:10]}"
    port = free_port()
    async with opened_store(url) as store:
        host = TableHost(store, FREUNDE, snapshot_every=8)
        for table_id in [*finished, playing]:
            await host.create_table(create_request(table_id))
        with (
            engine_process(url, "freunde", port, BW_SNAPSHOT_EVERY="8"),
            service_process(url, "services.projector", BW_FINISHED_TTL_S="1"),
        ):
            last = {t: await send_game(store, t) for t in finished}
            await send_game(store, playing, commands=5)

            async def hot_keys_gone() -> bool:
                for table_id in finished:
                    log = await store.read(table_id)
                    if log[-1].WhichOneof("body") != "seed_revealed":
                        return False  # not over yet
                    if await store.redis.exists(*store.keys(table_id).hot(2)):
                        return False
                listed = await Lobby(store.redis).page(["freunde"], limit=100)
                return [e.table_id for e in listed.entries] == [playing]

            await eventually(hot_keys_gone, "finished tables' hot keys expired and swept")
            await eventually(lambda: queues_trimmed(store), "feeds and inboxes trimmed")
            # The table still being played keeps everything.
            assert await store.redis.exists(*store.keys(playing).views(2)) == 4
            assert await store.outcome(playing, scripted_game(playing)[4][0], "c4") is not None

            for table_id in finished:
                # Its command ids are gone: a command sent again is decided anew (it was
                # accepted; now the game is over).
                seat, command = scripted_game(table_id)[-1]
                again = await host.execute(envelope(table_id, last[table_id], seat, command))
                assert again.WhichOneof("result") == "rejected"

            rebuilt = subprocess.run(
                [sys.executable, "-m", "services.projector", "--rebuild"],
                env=dict(os.environ, REDIS_URL=url, BW_SHARDS=str(SHARDS)),
                capture_output=True,
                timeout=300,
            )
            assert rebuilt.returncode == 0, rebuilt.stderr.decode()
            await every_read_model_is_at_its_head(store, host, [*finished, playing])
            listed = await Lobby(store.redis).page(["freunde"], "finished", limit=100)
            assert sorted(e.table_id for e in listed.entries) == sorted(finished)
            await every_table_audits(port, [*finished, playing], finished)


async def every_read_model_is_at_its_head(
    store: EventStore, host: TableHost, table_ids: list[str]
) -> None:
    for table_id in table_ids:
        head = await store.head(table_id)
        keys = store.keys(table_id)
        status = json.loads(await store.redis.hget(keys.view("status"), "json") or b"{}")
        assert status["version"] == head.version, table_id
        for seat in (None, 0, 1):
            viewer = engine_pb2.Viewer() if seat is None else engine_pb2.Viewer(seat=seat)
            name = "public" if seat is None else f"seat:{seat}"
            expected = await host.view(engine_pb2.ViewRequest(table_id=table_id, viewer=viewer))
            stored = await store.redis.hget(keys.view(name), "json")
            assert stored == expected.view_json.encode(), (table_id, name)


async def every_table_audits(port: int, table_ids: list[str], finished: list[str]) -> None:
    """The engine service's Audit over gRPC: chain intact, re-execution exact once over."""
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = engine_pb2_grpc.EngineStub(channel)
        for table_id in table_ids:
            audit = await stub.Audit(engine_pb2.AuditRequest(table_id=table_id), timeout=30)
            assert audit.chain_ok, (table_id, audit.detail)
            if table_id in finished:
                assert audit.reexecution_checked and audit.reexecution_ok, audit.detail
