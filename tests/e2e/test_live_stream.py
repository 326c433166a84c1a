"""Server-Sent Events: subscribers see each event as it is appended, redacted for them,
resume after ``Last-Event-ID``, and are told when the game has ended."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import httpx
import pytest
import redis

from gateway.app import LIVE_CLIENT_NAME
from gateway.client import BotTable, GatewayClient
from tests.e2e.helpers import all_events
from tests.e2e.stack import Stack

pytestmark = [pytest.mark.e2e]


async def _subscribe(
    client: GatewayClient, table_id: str, token: str | None, last_event_id: str | None = None
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    events: list[dict[str, Any]] = []
    async for message in client.stream(table_id, token, last_event_id):
        if message.event == "end":
            return events, json.loads(message.data)
        assert message.id == str(json.loads(message.data)["version"])
        events.append(json.loads(message.data))
    return events, None


def test_subscribers_follow_a_game_live_and_resume_from_last_event_id(stack: Stack) -> None:
    """Subscribed before the first command, each viewer gets exactly its redacted log."""

    async def scenario() -> None:
        async with GatewayClient(stack.url) as client:
            table = await BotTable.open(
                client, "freunde", 2, bot_seed=5, options={"round_limit": 2}
            )
            viewers: list[str | None] = [None, table.tokens[0], table.tokens[1]]
            subscribers = [
                asyncio.create_task(_subscribe(client, table.table_id, token)) for token in viewers
            ]
            await asyncio.sleep(0.2)
            assert not any(task.done() for task in subscribers), "nobody is told the game ended"
            while await table.step():
                pass
            results = await asyncio.wait_for(asyncio.gather(*subscribers), timeout=60)
            for token, (live, end) in zip(viewers, results, strict=True):
                assert end == {"version": table.version}
                assert live == await all_events(client, table.table_id, token)
                assert live[-1]["seed_revealed"], "the last event reveals the seed"
            assert results[0][0] != results[1][0] != results[2][0], "each viewer's log differs"

            middle = table.version // 2
            resumed, end = await _subscribe(client, table.table_id, table.tokens[1], str(middle))
            assert end == {"version": table.version}
            assert resumed == results[2][0][middle:]

    asyncio.run(scenario())


def test_a_seat_stream_ends_with_revoked_once_its_token_is_reissued(stack: Stack) -> None:
    """Re-issuing a seat's token revokes the old one for streams already open too: the
    next event is not sent to the old token's stream, which ends with ``revoked``."""

    async def scenario() -> None:
        async with GatewayClient(stack.url) as client:
            table = await BotTable.open(client, "freunde", 2, bot_seed=3)
            old, before = table.tokens[0], table.version
            seen: list[tuple[str | None, str]] = []

            async def follow() -> None:
                async for message in client.stream(table.table_id, old):
                    seen.append((message.event, message.data))

            following = asyncio.create_task(follow())
            for _ in range(100):
                if any(json.loads(data).get("version") == before for _, data in seen):
                    break
                await asyncio.sleep(0.05)
            async with httpx.AsyncClient(base_url=stack.url) as http:
                reissued = await http.post(
                    f"/v1/tables/{table.table_id}/seats/0/token",
                    headers={"Authorization": f"Bearer {old}"},
                )
            assert reissued.status_code == 200, reissued.text
            table.tokens[0] = reissued.json()["token"]
            assert await table.step()
            await asyncio.wait_for(following, timeout=30)
            kinds = [kind for kind, _ in seen]
            assert kinds[-1] == "revoked" and kinds.count("revoked") == 1
            assert json.loads(seen[-1][1])["code"] == "auth.invalid"
            sent = [json.loads(data)["version"] for kind, data in seen if kind == "event"]
            assert sent == list(range(1, before + 1)), "nothing after the re-issue"

    asyncio.run(scenario())


def _blocked_readers(redis_url: str) -> int:
    """The gateway's live readers blocked in XREAD right now (other processes of the stack,
    such as the scheduler, may block in XREAD too)."""
    client = redis.Redis.from_url(redis_url)
    try:
        listed = client.client_list()
    finally:
        client.close()
    return sum(
        1
        for c in listed
        if c.get("name") == LIVE_CLIENT_NAME
        and c.get("cmd") == "xread"
        and "b" in c.get("flags", "")
    )


def _gauge(metrics: str, what: str) -> float:
    series = f'bw_gateway_live{{what="{what}"}}'
    line = next(x for x in metrics.splitlines() if x.startswith(series))
    return float(line.split()[-1])


def test_many_subscribers_share_one_reader_and_all_get_every_event_in_order(
    stack: Stack, redis_url: str
) -> None:
    """150 streams on one table (spectator and both seats) are served by one blocking read
    in Redis, not 150; each still gets exactly its own redacted log, in order."""
    subscribers = 150

    async def scenario() -> None:
        http = httpx.AsyncClient(
            base_url=stack.url, timeout=30.0, limits=httpx.Limits(max_connections=None)
        )
        async with GatewayClient(stack.url, http=http) as client:
            table = await BotTable.open(
                client, "freunde", 2, bot_seed=9, options={"round_limit": 1}
            )
            viewers = [None, table.tokens[0], table.tokens[1]]
            connected: set[int] = set()

            async def follow(number: int) -> list[dict[str, Any]]:
                got: list[dict[str, Any]] = []
                async for message in client.stream(table.table_id, viewers[number % 3]):
                    if message.event == "end":
                        return got
                    got.append(json.loads(message.data))
                    connected.add(number)
                return got

            tasks = [asyncio.create_task(follow(n)) for n in range(subscribers)]
            while len(connected) < subscribers:
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.2)
            assert _blocked_readers(redis_url) == 1
            metrics = (await http.get("/metrics")).text
            assert _gauge(metrics, "subscribers") >= subscribers
            assert _gauge(metrics, "readers") == 1
            while await table.step():
                pass
            results = await asyncio.wait_for(asyncio.gather(*tasks), timeout=120)
            expected = [await all_events(client, table.table_id, v) for v in viewers]
            for number, got in enumerate(results):
                assert got == expected[number % 3], f"subscriber {number}"
                assert [e["version"] for e in got] == sorted({e["version"] for e in got})

    asyncio.run(scenario())


def test_a_quiet_stream_stays_open_with_heartbeats_then_delivers_the_next_event(
    redis_url: str,
) -> None:
    """Idle for longer than the Redis client's 5 s socket timeout, the stream keeps
    sending heartbeats, stays open, and then delivers the next command's event."""
    with Stack(redis_url, extra_env={"BW_STREAM_PING_SECONDS": "1"}) as own:

        async def scenario() -> None:
            async with GatewayClient(own.url) as client:
                table = await BotTable.open(client, "freunde", 2, bot_seed=2)
                lines: asyncio.Queue[str] = asyncio.Queue()

                async def read() -> None:
                    async with client.http.stream(
                        "GET",
                        f"/v1/tables/{table.table_id}/events/stream",
                        headers={"Authorization": f"Bearer {table.tokens[0]}"},
                        timeout=httpx.Timeout(30.0, read=None),
                    ) as response:
                        async for line in response.aiter_lines():
                            await lines.put(line)

                reader = asyncio.create_task(read())
                seen = 0
                while seen < table.version:
                    line = await asyncio.wait_for(lines.get(), timeout=30)
                    if line.startswith("id: "):
                        seen = int(line.removeprefix("id: "))
                await asyncio.sleep(7)
                quiet = [lines.get_nowait() for _ in range(lines.qsize())]
                assert not reader.done(), "the stream was cut while the table was quiet"
                assert any(line.startswith(":") for line in quiet), quiet
                assert not any(line.startswith("id: ") for line in quiet), quiet
                await table.step()
                while True:
                    line = await asyncio.wait_for(lines.get(), timeout=30)
                    if line.startswith("id: "):
                        assert int(line.removeprefix("id: ")) == seen + 1
                        break
                reader.cancel()

        asyncio.run(scenario())
        log = (own.log_dir / "gateway.log").read_text()
        assert "gateway.unhandled" not in log and "Traceback" not in log


class CuttableRelay:
    """A TCP relay in front of the gateway whose open connections the test can cut, as a
    restarting proxy or a flaky network would."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.writers: list[asyncio.StreamWriter] = []
        self.server: asyncio.Server | None = None

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        return f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.writers += [writer, up_writer]

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            sink.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def cut(self) -> None:
        for writer in self.writers:
            writer.transport.abort()
        self.writers.clear()

    async def stop(self) -> None:
        self.cut()
        if self.server is not None:
            self.server.close()


def test_a_dropped_stream_reconnects_and_resumes_without_gaps(stack: Stack) -> None:
    """The connection is cut twice mid-game; the client reconnects with Last-Event-ID and
    its events are exactly the table's log, none lost and none twice."""

    async def scenario() -> None:
        relay = CuttableRelay(stack.port)
        relay_url = await relay.start()
        async with GatewayClient(stack.url) as direct, GatewayClient(relay_url) as cut:
            table = await BotTable.open(
                direct, "freunde", 2, bot_seed=11, options={"round_limit": 1}
            )
            got: list[dict[str, Any]] = []

            async def follow() -> None:
                async for message in cut.stream(table.table_id):
                    if message.event == "end":
                        return
                    got.append(json.loads(message.data))

            follower = asyncio.create_task(follow())
            for _ in range(2):
                for _ in range(5):
                    await table.step()
                while not got or got[-1]["version"] < table.version:
                    if follower.done():
                        follower.result()  # the stream gave up: show why
                        raise AssertionError("the stream ended before the game did")
                    await asyncio.sleep(0.05)
                relay.cut()
            while await table.step():
                pass
            await asyncio.wait_for(follower, timeout=60)
            await relay.stop()
            assert got == await all_events(direct, table.table_id, None)

    asyncio.run(scenario())
