"""``boardwright`` (or ``python -m gateway.cli``): the command-line client.

    boardwright games
    boardwright create freunde --seats 3
    boardwright play freunde --seats 3 --bots greedy
    boardwright send <table> --token T '{"draw_plots": {}}'   # then shows your view
    boardwright view <table> [--token T]
    boardwright watch <table>
    boardwright export <table> -o game.jsonl
    boardwright verify game.jsonl          # offline: hash chain, seed, re-execution

The gateway is ``--url`` or ``BW_URL`` (default http://127.0.0.1:8000).
"""

from __future__ import annotations

import asyncio
import json
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


def _run(coro: Any) -> Any:
    try:
        return asyncio.run(coro)
    except ApiFailure as failure:
        errors.print(f"[red]error[/red] {failure.status} {failure.code}: {failure.message}")
        raise typer.Exit(1) from None
    except (OSError, httpx.HTTPError) as down:
        errors.print(f"[red]error[/red] cannot reach the gateway: {down}")
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
    url: UrlOption = DEFAULT_URL,
) -> None:
    """Open a table; print its id, the seed commitment and one token per seat.

    The tokens are shown only this once: each seat sends its own as
    'Authorization: Bearer TOKEN'.
    """
    options = _options(option or [])
    try:
        raw_seed = bytes.fromhex(seed) if seed else None
    except ValueError:
        raise typer.BadParameter("the seed must be hex", param_hint="--seed") from None

    async def go() -> dict[str, Any]:
        async with GatewayClient(url) as client:
            return await client.create_table(game, seats, options=options, seed=raw_seed)

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
    game: GameArgument,
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
    """Open a table, seat a bot in every seat, show the game live and print the final scores."""
    options = _options(option or [])

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


def main() -> None:
    app()


if __name__ == "__main__":
    main()
