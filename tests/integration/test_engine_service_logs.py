"""The engine service's logs: one JSON object per line, command context bound, no secrets."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from proto import engine_pb2_grpc
from services.logs import drop_secrets
from services.redis_server import free_port
from tests.integration.test_engine_service_support import (
    SHARDS,
    create_request,
    envelope,
    scripted_game,
)

pytestmark = [pytest.mark.integration]

TOKEN = "s3cret-seat-token"


def test_credentials_are_dropped_at_any_depth() -> None:
    """Keys named like tokens or authorization never reach the renderer."""
    event = {
        "event": "x",
        "seat_token": TOKEN,
        "Authorization": f"Bearer {TOKEN}",
        "headers": {"authorization": TOKEN, "accept": "json"},
        "seat": 1,
    }
    assert drop_secrets(None, "info", event) == {
        "event": "x",
        "headers": {"accept": "json"},
        "seat": 1,
    }


def wait_serving(address: str) -> None:
    deadline = time.monotonic() + 60
    with grpc.insecure_channel(address) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        while True:
            try:
                reply = health.Check(health_pb2.HealthCheckRequest(), timeout=1)
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return
            except grpc.RpcError:
                pass
            assert time.monotonic() < deadline, "the engine service did not start"
            time.sleep(0.1)


def test_each_command_is_logged_as_json_with_its_context(
    redis_url: str, table_id: str, tmp_path: Path
) -> None:
    """A subprocess service logs table, command, seat and version; SIGTERM stops it cleanly."""
    port = free_port()
    log_file = tmp_path / "engine.log"
    # At debug: a command's success is logged at that level only.
    env = dict(os.environ, REDIS_URL=redis_url, BW_SHARDS=str(SHARDS), BW_LOG_LEVEL="debug")
    with log_file.open("w") as sink:
        service = subprocess.Popen(
            [sys.executable, "-m", "services.engine", "--game", "freunde", "--port", str(port)],
            env=env,
            stdout=sink,
            stderr=sink,
        )
        try:
            wait_serving(f"127.0.0.1:{port}")
            with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
                stub = engine_pb2_grpc.EngineStub(channel)
                request = create_request(table_id)
                request.token_hashes.extend(
                    [hashlib.sha256(f"{TOKEN}-{n}".encode()).digest() for n in range(2)]
                )
                stub.CreateTable(request)
                seat, command = scripted_game(table_id)[0]
                reply = stub.Execute(envelope(table_id, "logged", seat, command))
                assert reply.HasField("accepted")
                refused = stub.Execute(envelope(table_id, "refused", 1 - seat, command))
                assert refused.HasField("rejected")
        finally:
            service.send_signal(signal.SIGTERM)
            assert service.wait(timeout=30) == 0
    lines = log_file.read_text().splitlines()
    entries: list[dict[str, Any]] = [json.loads(line) for line in lines]
    assert all(entry["service"] == "engine-freunde" for entry in entries)
    accepted = [e for e in entries if e["event"] == "command.accepted"]
    assert accepted == [
        {
            **accepted[0],
            "table_id": table_id,
            "command_id": "logged",
            "seat": seat,
            "version": reply.accepted.version,
        }
    ]
    rejected = next(e for e in entries if e["event"] == "command.rejected")
    assert rejected["command_id"] == "refused" and rejected["code"] == refused.rejected.code
    assert any(e["event"] == "engine.stopped" for e in entries)
    assert TOKEN not in log_file.read_text()
