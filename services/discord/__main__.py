"""``python -m services.discord [serve | register [--guild ID]]``: answer Discord's
interactions, or register the slash commands with Discord."""

from __future__ import annotations

import argparse
import asyncio
import sys

import hikari

from gateway.client import GatewayClient
from services.discord.commands import command_builders
from services.discord.server import make_bot, serve
from services.discord.settings import DiscordSettings
from services.heap import settle_heap
from services.logs import configure_logging, get_logger

log = get_logger("discord")


async def register(settings: DiscordSettings, guild: str | None) -> int:
    """Register the slash commands (``/open`` offering the gateway's games); the count."""
    async with GatewayClient(settings.gateway_url) as gateway:
        games = await gateway.games()
    bot = make_bot(settings)
    rest = bot.rest
    assert isinstance(rest, hikari.impl.RESTClientImpl)
    rest.start()
    try:
        done = await rest.set_application_commands(
            hikari.Snowflake(settings.application_id),
            command_builders(rest, games),
            guild=hikari.Snowflake(guild) if guild else hikari.UNDEFINED,
        )
    finally:
        await rest.close()
    return len(done)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m services.discord", description=__doc__)
    parser.add_argument("action", nargs="?", choices=("serve", "register"), default="serve")
    parser.add_argument("--guild", help="register in this server only (shows at once)")
    args = parser.parse_args(argv)
    settings = DiscordSettings()
    configure_logging("discord", settings.log_level)
    if args.action == "register":
        missing = [
            n for n in settings.missing() if n in ("DISCORD_TOKEN", "DISCORD_APPLICATION_ID")
        ]
        if missing:
            print(f"discord: set {', '.join(missing)} first", file=sys.stderr)
            return 2
        count = asyncio.run(register(settings, args.guild))
        print(f"registered {count} commands" + (f" in server {args.guild}" if args.guild else ""))
        return 0
    missing = settings.missing()
    if missing:
        print(
            f"discord: set {', '.join(missing)} first (see README › Discord bot)", file=sys.stderr
        )
        return 2
    settle_heap()
    asyncio.run(serve(settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
