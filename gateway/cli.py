"""``boardwright`` (or ``python -m gateway.cli``): the command-line client.

    boardwright games
    boardwright create freunde --seats 3 [--turn-seconds 60 --on-timeout bot]
    boardwright play freunde --seats 3 --bots greedy   # bots play a new table
    boardwright lobby --status open                    # tables waiting for players
    boardwright join <table> --name Ann                # take a seat (its token is kept)
    boardwright play <table>                           # play your seat in the terminal
    boardwright apps create "Discord bot"              # operators: an app and its API key
    boardwright apps webhooks add APP https://…        # its webhook (and secret, shown once)
    boardwright send <table> --token T '{"draw_plots": {}}'   # then shows your view
    boardwright resign <table> [--token T]             # leave the game
    boardwright view <table> [--token T]
    boardwright watch <table>
    boardwright export <table> -o game.jsonl
    boardwright verify game.jsonl          # offline: hash chain, seed, re-execution

The gateway is ``--url`` or ``BW_URL`` (default http://127.0.0.1:8000). ``apps`` talks to
the deployment's Redis (``REDIS_URL``) directly: it is for the operator, not for players.
Seats taken with ``join`` are kept in ``$XDG_CONFIG_HOME/boardwright/seats.json`` (mode
0600), so ``play TABLE`` finds its token.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import httpx
import typer
from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table as RichTable

from gateway.client import ApiFailure, BotTable, GatewayClient, event_summary, play_table
from gateway.export import ExportError, verify_export
from gateway.terminal import play_seat
from services.config import DeploymentSettings
from services.eventstore import connect
from services.notifications import (
    STATUSES,
    TooManyWebhooks,
    Webhooks,
    WebhookUrlRefused,
    check_url,
)
from services.players import AppRegistry

__all__ = ["app", "main"]

DEFAULT_URL = "http://127.0.0.1:8000"

app = typer.Typer(
    help=(
        "Boardwright: play, watch, export and verify board games through a Boardwright "
        "gateway (--url, or BW_URL; default http://127.0.0.1:8000)."
    ),
    epilog=(
        "Typical session: boardwright games; boardwright play harvest --seats 2; "
        "boardwright export TABLE -o game.jsonl; boardwright verify game.jsonl. "
        "Run any command with --help for its arguments."
    ),
    no_args_is_help=True,
)
console = Console()
errors = Console(stderr=True)

UrlOption = Annotated[
    str, typer.Option("--url", envvar="BW_URL", metavar="URL", help="The gateway's base URL.")
]
GameArgument = Annotated[
    str,
    typer.Argument(
        metavar="GAME", help="The game's name, e.g. freunde or harvest (see 'boardwright games')."
    ),
]
TableArgument = Annotated[
    str, typer.Argument(metavar="TABLE", help="The table id printed by 'create' or 'play'.")
]
SeatsOption = Annotated[
    int, typer.Option(min=1, help="Number of seats (see 'boardwright games' for each range).")
]
OptionsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-O",
        metavar="NAME=VALUE",
        help="A table option, VALUE as JSON (e.g. -O round_limit=5 -O draft=true); repeatable.",
    ),
]


class OnTimeout(StrEnum):
    bot = "bot"
    forfeit = "forfeit"


def _run(coro: Any) -> Any:
    try:
        return asyncio.run(coro)
    except ApiFailure as failure:
        errors.print(f"[red]error[/red] {failure.status} {failure.code}: {failure.message}")
        raise typer.Exit(1) from None
    except (OSError, httpx.HTTPError) as down:
        reason = str(down) or type(down).__name__
        errors.print(f"[red]error[/red] cannot reach the gateway ({reason}); is it running?")
        raise typer.Exit(1) from None


@app.command()
def games(url: UrlOption = DEFAULT_URL) -> None:
    """List the games the gateway offers, with their seat range and table options."""

    async def go() -> list[dict[str, Any]]:
        async with GatewayClient(url) as client:
            return await client.games()

    listing = RichTable("game", "title", "seats", "options")
    for game in _run(go()):
        options = ", ".join(o["name"] for o in game["options"]) or "-"
        listing.add_row(
            game["game"], game["title"], f"{game['min_seats']}-{game['max_seats']}", options
        )
    console.print(listing)


@app.command()
def create(
    game: GameArgument,
    seats: SeatsOption = 2,
    seed: Annotated[
        str | None,
        typer.Option(
            metavar="HEX",
            help="The table's secret seed, 16-64 bytes as hex; drawn by the server if absent.",
        ),
    ] = None,
    option: OptionsOption = None,
    turn_seconds: Annotated[
        int, typer.Option(min=0, metavar="S", help="A time limit on each turn (0: none).")
    ] = 0,
    total_seconds: Annotated[
        int,
        typer.Option(min=0, metavar="S", help="A time limit on each seat's whole game (0: none)."),
    ] = 0,
    on_timeout: Annotated[
        OnTimeout, typer.Option(help="When a seat's time runs out: a bot plays, or it forfeits.")
    ] = OnTimeout.forfeit,
    url: UrlOption = DEFAULT_URL,
) -> None:
    """Open a table; print its id, the seed commitment and one token per seat.

    The tokens are shown only this once: each seat sends its own as
    'Authorization: Bearer TOKEN'.
    """
    options = _options(option or [])
    clock = (
        {"turn_seconds": turn_seconds, "total_seconds": total_seconds, "on_timeout": on_timeout}
        if turn_seconds or total_seconds
        else None
    )
    try:
        raw_seed = bytes.fromhex(seed) if seed else None
    except ValueError:
        raise typer.BadParameter("the seed must be hex", param_hint="--seed") from None

    async def go() -> dict[str, Any]:
        async with GatewayClient(url) as client:
            return await client.create_table(
                game, seats, options=options, seed=raw_seed, clock=clock
            )

    created = _run(go())
    console.print(f"table [bold]{created['table_id']}[/bold] (version {created['version']})")
    console.print(f"seed commitment {created['seed_commitment']}")
    for seat, token in enumerate(created["tokens"]):
        console.print(f"seat {seat}: {token}")


def _options(pairs: list[str]) -> dict[str, Any]:
    """``["round_limit=5"]`` as ``{"round_limit": 5}``; a value that is not JSON is a string."""
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name:
            raise typer.BadParameter(f"{pair!r} is not name=value")
        try:
            options[name] = json.loads(text)
        except ValueError:
            options[name] = text
    return options


def _scores(status: dict[str, Any]) -> RichTable:
    board = RichTable("seat", "score", "")
    winners = set(status.get("winners") or ())
    for seat, score in enumerate(status.get("scores") or ()):
        board.add_row(str(seat), str(score), "winner" if seat in winners else "")
    return board


class Bots(StrEnum):
    """Which of the game's own bots fill the seats (every game offers these two)."""

    random = "random"
    greedy = "greedy"


@app.command()
def play(
    target: Annotated[
        str,
        typer.Argument(
            metavar="GAME|TABLE",
            help="A game's name: bots play a new table of it. A table id: you play your seat.",
        ),
    ],
    token: Annotated[
        str | None,
        typer.Option(
            metavar="TOKEN", help="Your seat token (default: the one 'join' kept for the table)."
        ),
    ] = None,
    seats: SeatsOption = 2,
    bots: Annotated[
        Bots,
        typer.Option(
            help=(
                "random: any legal command; greedy: the game's own player, which plays "
                "for points (Freunde's finishes games by the Emperor)."
            )
        ),
    ] = Bots.random,
    bot_seed: Annotated[
        int, typer.Option(help="Seed of the bots' own choices (same seed, same choices).")
    ] = 0,
    option: OptionsOption = None,
    url: UrlOption = DEFAULT_URL,
) -> None:
    """Play a table in the terminal: your seat of TABLE (the board, your moves numbered in
    words, the others' moves live), or, given a GAME, a new table where bots play every seat
    (--seats, --bots) with its final scores."""

    async def offered() -> list[str]:
        async with GatewayClient(url) as client:
            return [game["game"] for game in await client.games()]

    if target in _run(offered()):
        _autoplay(target, seats, bots, bot_seed, _options(option or []), url)
        return
    seat_token = token or _saved_token(target)
    if seat_token is None:
        raise typer.BadParameter(
            f"no token for table {target}: pass --token, or take a seat with 'boardwright join'",
            param_hint="--token",
        )

    async def read_line(prompt: str) -> str | None:
        try:
            return await asyncio.to_thread(input, prompt)
        except EOFError:
            return None

    async def go() -> dict[str, Any] | None:
        async with GatewayClient(url) as client:
            return await play_seat(client, target, seat_token, read_line, console)

    final = _run(go())
    if final is None:
        console.print("You left the table; 'boardwright play' it again to go on.")
        return
    console.print("[bold]Game over[/bold]")
    console.print(_scores(final))


def _autoplay(
    game: str, seats: int, bots: Bots, bot_seed: int, options: dict[str, Any], url: str
) -> None:
    """Open a table, seat a bot in every seat, show the game live, print the final scores."""

    async def go() -> Any:
        with Progress(
            SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), console=console
        ) as progress:
            task = progress.add_task("creating the table", total=None)

            def show(table: BotTable, status: dict[str, Any]) -> None:
                scores = " ".join(str(s) for s in status.get("scores") or ())
                progress.update(
                    task,
                    description=(
                        f"{table.table_id} v{table.version} {status.get('phase', '')}"
                        f" to act {status.get('to_act')} scores [{scores}]"
                    ),
                )

            async with GatewayClient(url) as client:
                return await play_table(
                    client, game, seats, bots.value, bot_seed, on_progress=show, options=options
                )

    played = _run(go())
    console.print(
        f"table [bold]{played.table_id}[/bold] finished at version {played.version}"
        f" after {played.commands} commands"
    )
    console.print(_scores(played.status))


@app.command()
def lobby(
    game: Annotated[str | None, typer.Option(help="Only this game.")] = None,
    status: Annotated[
        str,
        typer.Option(help="open (waiting for players), active, finished, or all."),
    ] = "open",
    limit: Annotated[int, typer.Option(min=1, max=1000, help="Tables to list.")] = 20,
    url: UrlOption = DEFAULT_URL,
) -> None:
    """List the lobby's tables, newest first: by default those waiting for players."""

    async def go() -> list[dict[str, Any]]:
        async with GatewayClient(url) as client:
            return await client.lobby(game, None if status == "all" else status, limit)

    listing = RichTable("table", "game", "phase", "seats", "players")
    for entry in _run(go()):
        info = entry["status"]
        players = ", ".join(p["name"] for p in info.get("players") or [] if not p["open"])
        seats = (
            f"{info.get('open_seats', 0)} open of {info['seats']}"
            if "open_seats" in info
            else str(info["seats"])
        )
        listing.add_row(
            entry["table_id"], entry["game"], str(info.get("phase", "")), seats, players
        )
    console.print(listing)


@app.command()
def join(
    table: TableArgument,
    name: Annotated[str | None, typer.Option(help="Your name at the table.")] = None,
    seat: Annotated[
        int | None, typer.Option(min=0, help="A given seat (any open one if absent).")
    ] = None,
    invite: Annotated[
        str | None, typer.Option(metavar="CODE", help="The invite code of an unlisted table.")
    ] = None,
    url: UrlOption = DEFAULT_URL,
) -> None:
    """Take a seat at a table waiting for players; print its token and keep it for 'play'."""

    async def go() -> dict[str, Any]:
        async with GatewayClient(url) as client:
            return await client.claim(table, seat, name, invite)

    claimed = _run(go())
    _save_seat(table, claimed["seat"], claimed["token"])
    console.print(f"seat {claimed['seat']} at table [bold]{table}[/bold] ({claimed['state']})")
    console.print(f"token {claimed['token']}")
    console.print(f"play it with: boardwright play {table}")


TokenOption = Annotated[
    str | None,
    typer.Option(
        metavar="TOKEN", help="A seat token (its own secrets shown); else as a spectator."
    ),
]


def _print_view(view: dict[str, Any]) -> None:
    console.print(f"table {view['table_id']} version {view['version']} seat {view['seat']}")
    console.print_json(json.dumps({"status": view["status"], "view": view["view"]}))


@app.command()
def send(
    table: TableArgument,
    command: Annotated[
        str,
        typer.Argument(
            metavar="COMMAND",
            help="The game's command as protobuf JSON, e.g. '{\"draw_plots\": {}}'.",
        ),
    ],
    token: Annotated[str, typer.Option(metavar="TOKEN", help="Your seat token.")],
    command_id: Annotated[
        str | None,
        typer.Option(
            metavar="ID", help="Idempotency key: resending the same id gives the same outcome."
        ),
    ] = None,
    url: UrlOption = DEFAULT_URL,
) -> None:
    """Send one command as your seat, print its events, then your view right after it
    (read at the command's version, so it already shows the move)."""
    try:
        body = json.loads(command)
    except ValueError:
        raise typer.BadParameter("COMMAND must be JSON") from None

    async def go() -> tuple[dict[str, Any], dict[str, Any]]:
        async with GatewayClient(url) as client:
            result = await client.command(
                table, token, command_id or f"cli-{secrets.token_hex(8)}", body
            )
            return result, await client.view_after(result, token)

    result, view = _run(go())
    for event in result["events"]:
        console.print(event_summary(json.dumps(event)))
    _print_view(view)


@app.command()
def resign(
    table: TableArgument,
    token: Annotated[
        str | None,
        typer.Option(metavar="TOKEN", help="Your seat token (else the one 'join' kept)."),
    ] = None,
    url: UrlOption = DEFAULT_URL,
) -> None:
    """Resign: your seat leaves the game. At two seats the table ends and the other seat
    wins; with more, a bot plays your seat from now on."""
    mine = token or _saved_token(table)
    if mine is None:
        raise typer.BadParameter("give --token, or 'join' the table first", param_hint="--token")

    async def go() -> dict[str, Any]:
        async with GatewayClient(url) as client:
            return await client.resign(table, mine)

    for event in _run(go())["events"]:
        console.print(event.get("text") or event_summary(json.dumps(event)))


@app.command()
def view(
    table: TableArgument,
    token: TokenOption = None,
    min_version: Annotated[
        int | None,
        typer.Option(
            metavar="N", help="Wait until the view reflects version N (read your own write)."
        ),
    ] = None,
    url: UrlOption = DEFAULT_URL,
) -> None:
    """Print a table's view: your seat's with --token, else the spectator's."""

    async def go() -> dict[str, Any]:
        async with GatewayClient(url) as client:
            return await client.view(table, token, min_version)

    _print_view(_run(go()))


@app.command()
def watch(
    table: TableArgument,
    token: TokenOption = None,
    url: UrlOption = DEFAULT_URL,
) -> None:
    """Print a table's events live (Server-Sent Events), one line each, until the game ends."""

    async def go() -> None:
        async with GatewayClient(url) as client:
            async for message in client.stream(table, token):
                if message.event == "end":
                    console.print(
                        f"[bold]game over[/bold] at version {json.loads(message.data)['version']}"
                    )
                    return
                console.print(event_summary(message.data))

    _run(go())


@app.command()
def export(
    table: TableArgument,
    output: Annotated[
        Path,
        typer.Option("-o", "--output", metavar="FILE", help="Where to write the JSON Lines."),
    ],
    url: UrlOption = DEFAULT_URL,
) -> None:
    """Save a finished table's whole log (with its seed) as JSON Lines, for 'verify'.

    A table still in play cannot be exported (409 table.not_finished).
    """

    async def go() -> str:
        async with GatewayClient(url) as client:
            return await client.export(table)

    text = _run(go())
    output.write_text(text)
    console.print(f"wrote {len(text.splitlines()) - 1} events to {output}")


@app.command()
def verify(
    file: Annotated[
        Path, typer.Argument(metavar="FILE", help="A log written by 'boardwright export'.")
    ],
) -> None:
    """Check an exported log offline: hash chain, seed commitment and re-execution of
    every command with the game's rules. Needs no gateway.

    Exits 0 and prints VERIFIED when every check holds, else exits 1.
    """
    try:
        with file.open() as lines:
            verdict = verify_export(lines)
    except (OSError, ExportError) as bad:
        errors.print(f"[red]INVALID[/red] {file}: {bad}")
        raise typer.Exit(1) from None
    report = RichTable("check", "", "detail")
    for check in verdict.checks:
        report.add_row(
            check.name, "[green]ok[/green]" if check.ok else "[red]FAILED[/red]", check.detail
        )
    console.print(report)
    if not verdict.ok:
        console.print(
            f"[red bold]NOT VERIFIED[/red bold] table {verdict.table_id} ({verdict.game})"
        )
        raise typer.Exit(1)
    console.print(f"[green bold]VERIFIED[/green bold] table {verdict.table_id} ({verdict.game})")


def _seats_file() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "boardwright" / "seats.json"


def _saved_seats() -> dict[str, Any]:
    try:
        saved: dict[str, Any] = json.loads(_seats_file().read_text())
    except (OSError, ValueError):
        return {}
    return saved


def _save_seat(table: str, seat: int, token: str | None) -> None:
    """Keep a seat's token for 'play' (readable by its owner only: it is a secret)."""
    if token is None:
        return
    saved = _saved_seats()
    saved[table] = {"seat": seat, "token": token}
    path = _seats_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch(mode=0o600, exist_ok=True)
    path.chmod(0o600)
    path.write_text(json.dumps(saved, indent=1))


def _saved_token(table: str) -> str | None:
    entry = _saved_seats().get(table)
    return str(entry["token"]) if isinstance(entry, dict) and entry.get("token") else None


apps = typer.Typer(
    help=(
        "Operators: the apps (a Discord bot, a web site) that act for their users with an"
        " API key. Talks to the deployment's Redis (REDIS_URL) directly."
    ),
    no_args_is_help=True,
)
app.add_typer(apps, name="apps")
RedisOption = Annotated[
    str,
    typer.Option("--redis", envvar="REDIS_URL", metavar="URL", help="The deployment's Redis."),
]


def _registry_run(redis_url: str, work: Any) -> Any:
    return _redis_run(redis_url, lambda redis: work(AppRegistry(redis)))


def _redis_run(redis_url: str, work: Any) -> Any:
    """``work(redis)`` on the deployment's Redis; one line and exit 1 when it is down."""

    async def go() -> Any:
        redis = await connect(redis_url)
        try:
            return await work(redis)
        finally:
            await redis.aclose()

    try:
        return asyncio.run(go())
    except (OSError, ConnectionError) as down:
        errors.print(f"[red]error[/red] cannot reach Redis at {redis_url} ({down})")
        raise typer.Exit(1) from None


@apps.command("create")
def apps_create(
    name: Annotated[str, typer.Argument(metavar="NAME", help="What the app is, for people.")],
    redis_url: RedisOption = "redis://127.0.0.1:6379/0",
) -> None:
    """Create an app; print its id and API key (shown only this once)."""
    try:
        made, key = _registry_run(redis_url, lambda apps: apps.create(name))
    except ValueError as bad:
        raise typer.BadParameter(str(bad), param_hint="NAME") from None
    console.print(f"app {made.app_id} ({made.name})")
    console.print(f"key {key}")
    console.print("the app sends it as 'X-App-Key', and its user's id as 'X-App-User'")


@apps.command("list")
def apps_list(redis_url: RedisOption = "redis://127.0.0.1:6379/0") -> None:
    """List the apps: id, name, created, revoked."""
    listing = RichTable("app", "name", "created (ms)", "revoked (ms)")
    for entry in _registry_run(redis_url, lambda apps: apps.all()):
        listing.add_row(
            entry.app_id, entry.name, str(entry.created_ms), str(entry.revoked_ms or "-")
        )
    console.print(listing)


@apps.command("revoke")
def apps_revoke(
    app_id: Annotated[str, typer.Argument(metavar="APP", help="The app's id.")],
    redis_url: RedisOption = "redis://127.0.0.1:6379/0",
) -> None:
    """Revoke an app: its key is refused from now on."""
    revoked = _registry_run(redis_url, lambda apps: apps.revoke(app_id))
    if revoked is None:
        errors.print(f"[red]error[/red] no app {app_id}")
        raise typer.Exit(1)
    console.print(f"app {revoked.app_id} ({revoked.name}) revoked")


webhooks = typer.Typer(
    help=(
        "Operators: an app's webhooks (every notification of its users is POSTed, signed, to"
        " each) and their deliveries. Apps do the same over HTTP (/v1/apps/APP/webhooks)."
    ),
    no_args_is_help=True,
)
apps.add_typer(webhooks, name="webhooks")
AppArgument = Annotated[str, typer.Argument(metavar="APP", help="The app's id.")]


def _webhooks_run(redis_url: str, app_id: str, work: Any) -> Any:
    """``work(webhooks)`` for an app that exists (exit 1 otherwise)."""

    async def go(redis: Any) -> Any:
        if await AppRegistry(redis).get(app_id) is None:
            return _NO_APP
        return await work(Webhooks(redis))

    found = _redis_run(redis_url, go)
    if found is _NO_APP:
        errors.print(f"[red]error[/red] no app {app_id}")
        raise typer.Exit(1)
    return found


_NO_APP = object()


@webhooks.command("add")
def webhooks_add(
    app_id: AppArgument,
    url: Annotated[str, typer.Argument(metavar="URL", help="http:// or https://")],
    redis_url: RedisOption = "redis://127.0.0.1:6379/0",
) -> None:
    """Register URL; the first webhook of an app prints its webhook secret (shown once)."""
    try:
        checked = check_url(url, DeploymentSettings().webhook_allow_loopback)
    except WebhookUrlRefused as refused:
        raise typer.BadParameter(str(refused), param_hint="URL") from None
    try:
        hook, secret = _webhooks_run(redis_url, app_id, lambda hooks: hooks.add(app_id, checked))
    except TooManyWebhooks:
        errors.print(f"[red]error[/red] app {app_id} has as many webhooks as it may")
        raise typer.Exit(1) from None
    console.print(f"webhook {hook.webhook_id} {hook.url}")
    if secret is not None:
        console.print(f"secret {secret}")
        console.print("deliveries are signed with it (X-Boardwright-Signature); it is shown once")


@webhooks.command("list")
def webhooks_list(app_id: AppArgument, redis_url: RedisOption = "redis://127.0.0.1:6379/0") -> None:
    """List the app's webhooks."""
    listing = RichTable("webhook", "url", "created (ms)")
    for hook in _webhooks_run(redis_url, app_id, lambda hooks: hooks.all(app_id)):
        listing.add_row(hook.webhook_id, hook.url, str(hook.created_ms))
    console.print(listing)


@webhooks.command("remove")
def webhooks_remove(
    app_id: AppArgument,
    webhook_id: Annotated[str, typer.Argument(metavar="WEBHOOK", help="The webhook's id.")],
    redis_url: RedisOption = "redis://127.0.0.1:6379/0",
) -> None:
    """Remove a webhook; deliveries still due to it are dead-lettered."""
    if not _webhooks_run(redis_url, app_id, lambda hooks: hooks.remove(app_id, webhook_id)):
        errors.print(f"[red]error[/red] app {app_id} has no webhook {webhook_id}")
        raise typer.Exit(1)
    console.print(f"webhook {webhook_id} removed")


@apps.command("deliveries")
def apps_deliveries(
    app_id: AppArgument,
    status: Annotated[
        str | None,
        typer.Option(help="Only pending, failed, delivered or dead ones."),
    ] = None,
    limit: Annotated[int, typer.Option(min=1, max=1000, help="How many, newest first.")] = 20,
    redis_url: RedisOption = "redis://127.0.0.1:6379/0",
) -> None:
    """The app's webhook deliveries, newest first: status, attempts, last error."""
    if status is not None and status not in STATUSES:
        raise typer.BadParameter(f"one of {', '.join(STATUSES)}", param_hint="--status")
    listing = RichTable("delivery", "kind", "status", "attempts", "last error")
    found = _webhooks_run(redis_url, app_id, lambda hooks: hooks.deliveries(app_id, status, limit))
    for entry in found:
        listing.add_row(
            entry.delivery_id, entry.kind, entry.status, str(entry.attempts), entry.last_error
        )
    console.print(listing)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
