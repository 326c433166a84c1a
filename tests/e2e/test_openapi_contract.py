"""The OpenAPI document is a true contract, and /docs works without internet: Schemathesis
runs every check against the real gateway (both games) and finds nothing; the docs page
loads only scripts the gateway serves itself."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.e2e.conftest import running_stack
from tests.e2e.stack import ROOT, Stack

pytestmark = [pytest.mark.e2e]

# Bounded so the suite stays quick: two examples per operation and phase.
# `schemathesis run URL/openapi.json --checks all` from the repository runs the full budget.
MAX_EXAMPLES = "2"


@pytest.fixture(scope="module")
def games_stack(redis_url: str) -> Iterator[Stack]:
    yield from running_stack(redis_url, ("freunde", "harvest"))


def test_schemathesis_finds_no_failure(games_stack: Stack, tmp_path: Path) -> None:
    run = subprocess.run(
        [
            str(Path(sys.executable).with_name("schemathesis")),
            "run",
            f"{games_stack.url}/openapi.json",
            "--checks",
            "all",
            "--max-examples",
            MAX_EXAMPLES,
            "--seed",
            "1",
            "--report-dir",
            str(tmp_path),
        ],
        cwd=ROOT,  # schemathesis.toml: the rules no schema can state
        capture_output=True,
        text=True,
        timeout=540,
    )
    tail = "\n".join(run.stdout.splitlines()[-60:])
    assert run.returncode == 0, f"{tail}\n{run.stderr[-2000:]}"
    assert re.search(r"\d+ generated, \d+ passed", run.stdout), tail


def test_the_docs_page_loads_nothing_from_outside(games_stack: Stack) -> None:
    with httpx.Client(base_url=games_stack.url, timeout=30) as http:
        for page in ("/docs", "/redoc"):
            html = http.get(page).text
            assets = re.findall(r'(?:src|href)="([^"]+)"', html)
            assert assets, page
            assert all(asset.startswith("/") for asset in assets), assets
            for asset in assets:
                served = http.get(asset)
                assert served.status_code == 200 and len(served.content) > 1000, asset
        script = http.get("/static-offline-docs/swagger-ui-bundle.js").text
        assert "isOAS31" in script  # a Swagger UI that reads OpenAPI 3.1, as FastAPI writes
