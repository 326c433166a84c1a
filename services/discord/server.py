"""The bot's HTTP side: Discord's interactions endpoint, served by hikari's ``RESTBot``.

Discord POSTs each interaction (a slash command, a button, a select) to
``/interactions``, signed with Ed25519 over ``X-Signature-Timestamp + body``. A request
whose signature does not verify with ``DISCORD_PUBLIC_KEY``, or signed more than
``BW_DISCORD_MAX_AGE_S`` ago (a replay), is refused with 401 as Discord asks; the rest
goes to hikari's interaction server, which checks the signature again, reads the
interaction into hikari's objects and sends back the response our handlers build
(multipart when it carries a picture). ``GET /healthz`` says the process answers.

No gateway websocket: a RESTBot needs no connection to Discord to receive interactions,
so any number of replicas sit behind one URL and any of them answers any interaction.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator
from functools import partial

import hikari
import httpx
from aiohttp import web
from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

from gateway.client import GatewayClient
from services.discord.handlers import Handlers, post_with
from services.discord.homes import Homes
from services.discord.settings import DiscordSettings
from services.eventstore import connect
from services.logs import get_logger
from services.shutdown import stop_on_signals

__all__ = ["INTERACTIONS_PATH", "make_bot", "serve", "signature_holds", "web_app"]

INTERACTIONS_PATH = "/interactions"
SIGNATURE = "X-Signature-Ed25519"
TIMESTAMP = "X-Signature-Timestamp"

log = get_logger("discord")


def signature_holds(
    key: VerifyKey, signature: str, timestamp: str, body: bytes, now: float, max_age_s: float
) -> bool:
    """Discord signed ``timestamp + body`` with the private half of ``key``, no longer
    than ``max_age_s`` before ``now`` (nor that far after)."""
    try:
        signed_at = float(timestamp)
        key.verify(timestamp.encode() + body, bytes.fromhex(signature))
    except (BadSignatureError, ValueError):
        return False
    return abs(now - signed_at) <= max_age_s


def make_bot(settings: DiscordSettings) -> hikari.RESTBot:
    """hikari's REST bot: its REST client talks to ``BW_DISCORD_REST_URL`` (Discord by
    default); logging stays ours (structlog JSON)."""
    return hikari.RESTBot(
        settings.token,
        hikari.TokenType.BOT,
        settings.public_key or None,
        banner=None,
        logs=None,
        suppress_optimization_warning=True,
        rest_url=settings.rest_url,
    )


def web_app(bot: hikari.RESTBot, settings: DiscordSettings) -> web.Application:
    """The aiohttp application: ``POST /interactions`` (signed) and ``GET /healthz``."""
    key = VerifyKey(bytes.fromhex(settings.public_key))
    server = bot.interaction_server
    assert isinstance(server, hikari.impl.InteractionServer)

    async def interactions(request: web.Request) -> web.StreamResponse:
        body = await request.read()  # aiohttp keeps it: hikari reads it again
        signature = request.headers.get(SIGNATURE, "")
        timestamp = request.headers.get(TIMESTAMP, "")
        if not signature_holds(key, signature, timestamp, body, time.time(), settings.max_age_s):
            log.info("discord.unsigned", address=request.remote)
            return web.Response(status=401, text="invalid request signature")
        return await server.aiohttp_hook(request)

    async def healthz(_request: web.Request) -> web.Response:
        return web.json_response({"status": "ok"})

    app = web.Application(client_max_size=1024 * 1024)
    app.add_routes([web.post(INTERACTIONS_PATH, interactions), web.get("/healthz", healthz)])
    return app


@contextlib.asynccontextmanager
async def running_bot(settings: DiscordSettings) -> AsyncIterator[hikari.RESTBot]:
    """The bot with its listeners set and its REST client, Redis and gateway clients
    open for the block."""
    assert settings.redis_url
    bot = make_bot(settings)
    redis = await connect(settings.redis_url)
    http = httpx.AsyncClient(base_url=settings.gateway_url.rstrip("/"), timeout=30.0)
    rest = bot.rest
    assert isinstance(rest, hikari.impl.RESTClientImpl)
    rest.start()
    try:
        handlers = Handlers(
            app=GatewayClient(settings.gateway_url, http, {"X-App-Key": settings.app_key}),
            spectator=GatewayClient(settings.gateway_url, http),
            homes=Homes(redis),
            post=partial(post_with, rest),
            replay_base=settings.replay_base,
        )
        bot.set_listener(hikari.CommandInteraction, handlers.on_command)
        bot.set_listener(hikari.ComponentInteraction, handlers.on_component)
        yield bot
    finally:
        await rest.close()
        await http.aclose()
        await redis.aclose()


async def serve(settings: DiscordSettings) -> None:
    """Answer interactions on ``BW_DISCORD_HOST:BW_DISCORD_PORT`` until SIGTERM/SIGINT."""
    stop = stop_on_signals()
    async with running_bot(settings) as bot:
        runner = web.AppRunner(web_app(bot, settings), access_log=None)
        await runner.setup()
        await web.TCPSite(runner, settings.host, settings.port).start()
        log.info("discord.serving", host=settings.host, port=settings.port)
        try:
            await stop.wait()
        finally:
            await runner.cleanup()
