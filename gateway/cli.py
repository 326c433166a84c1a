"""``boardwright`` (or ``python -m gateway.cli``): the command-line client.

    boardwright games
    boardwright create freunde --seats 3
    boardwright play freunde --seats 3 --bots greedy
    boardwright watch <table>
    boardwright export <table> -o game.jsonl
    boardwright verify game.jsonl          # offline: hash chain, seed, re-execution

The gateway is ``--url`` or ``BW_URL`` (default http://127.0.0.1:8000).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table as RichTable

from gateway.client import ApiFailure, BotTable, GatewayClient, event_summary, play_table
from gateway.export import ExportError, verify_export

__all__ = ["app", "main"]

DEFAULT_URL = "http://127.0.0.1:8000"

app = typer.Typer(
    help="Boardwright: play, watch, export and verify board games.", no_args_is_help=True
)
console = Console()
errors = Console(stderr=True)

UrlOption = Annotated[str, typer.Option("--url", envvar="BW_URL", help="The gateway's base URL.")]


def _run(coro: Any) -> Any:
    try:
        return asyncio.run(coro)
    except ApiFailure as failure:
        errors.print(f"[red]error[/red] {failure.status} {failure.code}: {failure.message}")
        raise typer.Exit(1) from None
    except OSError as down:
        errors.print(f"[red]error[/red] cannot reach the gateway: {down}")
        raise typer.Exit(1) from None


@app.command()
def games(url: UrlOption = DEFAULT_URL) -> None:
    """List the games the gateway offers."""

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
    game: str,
    seats: Annotated[int, typer.Option(help="Number of seats.")] = 2,
    seed: Annotated[str | None, typer.Option(help="Seed as hex (16-64 bytes).")] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-O", help="A table option, name=JSON.")
    ] = None,
    url: UrlOption = DEFAULT_URL,
) -> None:
    """Open a table and print its id and the seat tokens (shown only this once)."""
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


@app.command()
def play(
    game: str,
    seats: Annotated[int, typer.Option(help="Number of seats.")] = 2,
    bots: Annotated[str, typer.Option(help="random or greedy.")] = "random",
    bot_seed: Annotated[int, typer.Option(help="Seed of the bots' own choices.")] = 0,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-O", help="A table option, name=JSON.")
    ] = None,
    url: UrlOption = DEFAULT_URL,
) -> None:
    """Open a table, seat bots in every seat and show the game live until it ends."""
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
                    client, game, seats, bots, bot_seed, on_progress=show, options=options
                )

    played = _run(go())
    console.print(
        f"table [bold]{played.table_id}[/bold] finished at version {played.version}"
        f" after {played.commands} commands"
    )
    console.print(_scores(played.status))


@app.command()
def watch(
    table: str,
    token: Annotated[str | None, typer.Option(help="A seat token to watch as that seat.")] = None,
    url: UrlOption = DEFAULT_URL,
) -> None:
    """Follow a table's events live (Server-Sent Events) until the game ends."""

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
    table: str,
    output: Annotated[Path, typer.Option("-o", "--output", help="Where to write the JSON Lines.")],
    url: UrlOption = DEFAULT_URL,
) -> None:
    """Save a finished table's whole log as JSON Lines."""

    async def go() -> str:
        async with GatewayClient(url) as client:
            return await client.export(table)

    text = _run(go())
    output.write_text(text)
    console.print(f"wrote {len(text.splitlines()) - 1} events to {output}")


@app.command()
def verify(file: Path) -> None:
    """Check an exported log offline: hash chain, seed commitment, re-execution."""
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
