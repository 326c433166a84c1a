"""The ``boardwright`` command line against the running stack: play, watch, export, verify."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.e2e.helpers import run_cli
from tests.e2e.stack import Stack

pytestmark = [pytest.mark.e2e]


def _cli(stack: Stack, *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(stack.url, *args)


def test_the_cli_plays_watches_exports_and_verifies_a_game(stack: Stack, tmp_path: Path) -> None:
    """Every subcommand works end to end, and the exported file verifies offline."""
    games = _cli(stack, "games")
    assert games.returncode == 0, games.stderr
    assert "freunde" in games.stdout and "2-4" in games.stdout

    created = _cli(stack, "create", "freunde", "--seats", "3")
    assert created.returncode == 0, created.stderr
    assert len(re.findall(r"^seat \d: \S{40,}$", created.stdout, re.MULTILINE)) == 3

    played = _cli(
        stack, "play", "freunde", "--seats", "2", "--bots", "greedy", "-O", "round_limit=2"
    )
    assert played.returncode == 0, played.stderr
    table_id = re.search(r"table (\w+) finished at version (\d+)", played.stdout)
    assert table_id is not None, played.stdout
    assert "winner" in played.stdout

    watched = _cli(stack, "watch", table_id.group(1))
    assert watched.returncode == 0, watched.stderr
    assert f"game over at version {table_id.group(2)}" in watched.stdout
    assert "seed_revealed" in watched.stdout

    path = tmp_path / "game.jsonl"
    exported = _cli(stack, "export", table_id.group(1), "-o", str(path))
    assert exported.returncode == 0, exported.stderr
    assert len(path.read_text().splitlines()) == int(table_id.group(2)) + 1

    verified = _cli(stack, "verify", str(path))
    assert verified.returncode == 0, verified.stdout
    assert "VERIFIED" in verified.stdout and "re-execution" in verified.stdout


def test_the_cli_reports_errors_without_a_traceback(stack: Stack, tmp_path: Path) -> None:
    """An unknown table, or a file that is no export, gives a message and exit status 1."""
    missing = _cli(stack, "export", "no-such-table", "-o", str(tmp_path / "x.jsonl"))
    assert missing.returncode == 1
    assert "table.not_found" in missing.stderr and "Traceback" not in missing.stderr

    junk = tmp_path / "junk.jsonl"
    junk.write_text('{"hello": 1}\n')
    checked = _cli(stack, "verify", str(junk))
    assert checked.returncode == 1
    assert "INVALID" in checked.stderr and "Traceback" not in checked.stderr
