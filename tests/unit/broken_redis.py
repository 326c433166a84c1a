"""The errors redis-py's asyncio client raises when its connection is torn down under it
mid-failover, raised by redis-py's own code as in production (they reach into its private
``Connection._send_packed_command``, where the failover test saw them arise)."""

from __future__ import annotations

import asyncio
import socket

import uvloop
from redis.asyncio.connection import Connection
from redis.exceptions import ConnectionError as RedisConnectionError


async def writer_gone() -> Exception:
    """A write on a connection whose writer another task already dropped: before
    redis-py 8.2 ``'NoneType' object has no attribute 'writelines'`` (AttributeError),
    since then a ConnectionError."""
    try:
        await Connection()._send_packed_command([b"PING"])
    except (AttributeError, RedisConnectionError) as raised:
        return raised
    raise AssertionError("redis-py wrote without a writer")


def transport_closed() -> Exception:
    """A write, under uvloop, to a transport already closed: before redis-py 8.2 ``the
    handler is closed`` (RuntimeError; asyncio's own loop drops such a write and fails the
    drain with an OSError), since then a ConnectionError, checked before writing. Runs its
    own uvloop loop: call it from a thread when a loop is running."""

    async def write() -> Exception:
        ours, theirs = socket.socketpair()
        try:
            _, writer = await asyncio.open_connection(sock=ours)
            writer.close()
            await asyncio.sleep(0)
            connection = Connection()
            connection._writer = writer
            try:
                await connection._send_packed_command([b"PING"])
            except (RuntimeError, RedisConnectionError) as raised:
                return raised
            raise AssertionError("uvloop wrote to a closed transport")
        finally:
            theirs.close()

    return uvloop.run(write())
