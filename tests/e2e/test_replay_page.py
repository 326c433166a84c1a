"""The replay page in a real browser: Debian's headless Chromium, driven by Playwright.

A game is played to its end over HTTP against the real stack; the page is opened on it,
stepped forwards and back and jumped to a version, and what it shows (the version, the
event's words, whose turn, the scores, the picture, the audit) is checked against the
API. A seat token typed into the page shows that seat's view and stays out of every
URL. A second test opens a live table and watches the page follow new events over SSE.
Screenshots at a few versions land in ``test-artifacts/replay/`` (git-ignored).

Playwright uses the machine's ``/usr/bin/chromium`` (no browser download); the tests
skip, saying why, only where no Chromium is installed (``.ci/run`` installs it).
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pytest

from gateway.client import BotTable, GatewayClient, PlayedTable, play_table
from tests.e2e.helpers import all_events
from tests.e2e.stack import ROOT, Stack

pytestmark = [pytest.mark.e2e]

ARTIFACTS = ROOT / "test-artifacts" / "replay"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# Long enough for a 2-core machine shared with other test workers.
WAIT_MS = 30_000

sync_api = pytest.importorskip("playwright.sync_api")

T = TypeVar("T")


def _run(work: Coroutine[Any, Any, T]) -> T:
    """Run API calls on a thread of their own: Playwright's sync API holds an event loop
    on this one."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, work).result()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None:
        pytest.skip("no Chromium on this machine: apt-get install -y chromium (.ci/run does)")
    with sync_api.sync_playwright() as playwright:
        # As root (CI, containers) Chromium's sandbox cannot start; the page is our own.
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox"]
        )
        try:
            yield launched
        finally:
            launched.close()


def _open(browser: Any, url: str) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    problems: list[str] = []
    page.on(
        "console",
        lambda m: (
            problems.append(f"{m.text} {m.location.get('url')}") if m.type == "error" else None
        ),
    )
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(url)
    return context, page, problems


def _shown(page: Any, version: int) -> None:
    page.wait_for_selector(f'body[data-shown="{version}"]', timeout=WAIT_MS)


def _picture(page: Any) -> str:
    """The SVG the page is showing, read back from its blob URL."""
    text: str = page.evaluate("fetch(document.getElementById('board').src).then(r => r.text())")
    return text


def _screenshot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_the_replay_page_steps_through_a_finished_game_as_the_api_tells_it(
    stack: Stack, browser: Any
) -> None:
    async def played() -> tuple[PlayedTable, list[dict[str, Any]], dict[str, Any]]:
        async with GatewayClient(stack.url) as client:
            table = await play_table(
                client, "freunde", 2, "greedy", bot_seed=21, options={"round_limit": 3}
            )
            events = await all_events(client, table.table_id, None)
            return table, events, await client.audit(table.table_id)

    table, events, audit = _run(played())
    assert audit["ok"], audit
    head, tid = table.version, table.table_id
    by_version = {e["version"]: e for e in events}

    async def api(at: int, token: str | None = None) -> tuple[dict[str, Any], str]:
        async with GatewayClient(stack.url) as client:
            replay = await client.replay(tid, at, token)
            svg = (await client.board(tid, token, at=at, kind="svg")).decode()
            return replay, svg

    context, page, problems = _open(browser, f"{stack.url}/replay/{tid}")
    try:
        _shown(page, head)
        assert page.inner_text("#version") == f"Version {head} of {head}"
        assert page.inner_text("#table-state") == "finished"
        assert page.locator("#log li").count() == head
        assert page.inner_text("#turn").startswith("Game over")
        page.wait_for_selector("#verdict.good", timeout=WAIT_MS)
        assert page.inner_text("#verdict").startswith("✔ Verified")
        for check in ("Hash chain", "Seed commitment", "Re-execution"):
            assert page.get_attribute(f'#audit li[data-check="{check}"]', "class") == "good"
        _screenshot(page, "finished-game-at-the-end")

        # One event back, and forward again.
        page.click("#back")
        _shown(page, head - 1)
        back = by_version[head - 1]
        assert page.inner_text("#version") == f"Version {head - 1} of {head}"
        assert back["text"] and page.inner_text("#event-text").endswith(back["text"])
        page.click("#forward")
        _shown(page, head)
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowLeft")
        _shown(page, head - 2)

        # Jumps: each version's words, turn, scores and picture are the API's.
        for at in (0, 5, head // 2, head - 3):
            page.fill("#jump-to", str(at))
            page.click("#jump-go")
            _shown(page, at)
            replay, svg = _run(api(at))
            outcome = replay["outcome"]
            assert page.inner_text("#version") == f"Version {at} of {head}"
            if at:
                event = by_version[at]
                assert page.inner_text("#event-text").endswith(event["text"])
                assert page.locator("#log li.current").get_attribute("data-version") == str(at)
            turn = page.inner_text("#turn")
            for seat in outcome["to_act"]:
                assert f"Seat {seat}" in turn
            cells = page.locator("#scores tbody td:nth-child(3)").all_inner_texts()
            assert cells == [str(score) for score in outcome["scores"]]
            assert _picture(page) == svg
            assert page.evaluate("document.getElementById('board').naturalWidth") == 960
            if at in (5, head // 2):
                _screenshot(page, f"finished-game-at-version-{at}")

        # A seat's view: typed once, kept in this tab's session, never in a URL.
        at = head // 2
        page.fill("#jump-to", str(at))
        page.click("#jump-go")
        _shown(page, at)
        page.evaluate("document.body.removeAttribute('data-shown')")
        page.fill("#token", table.tokens[1])
        page.click("#use-token")
        page.wait_for_selector("#forget-token:not([hidden])", timeout=WAIT_MS)
        _shown(page, at)
        assert "seat 1" in page.inner_text("#viewing")
        stored = page.evaluate(f"sessionStorage.getItem('boardwright.seat-token.{tid}')")
        assert stored == table.tokens[1]
        assert table.tokens[1] not in page.url
        _, own_svg = _run(api(at, table.tokens[1]))
        assert _picture(page) == own_svg
        assert "Your objectives" in own_svg
        _screenshot(page, "finished-game-as-seat-1")
        page.click("#forget-token")
        page.wait_for_selector("#forget-token[hidden]", state="attached", timeout=WAIT_MS)
        assert page.evaluate(f"sessionStorage.getItem('boardwright.seat-token.{tid}')") is None
        assert not problems, problems
    finally:
        context.close()


def test_a_live_tables_page_follows_new_events(stack: Stack, browser: Any) -> None:
    async def opened() -> BotTable:
        async with GatewayClient(stack.url) as client:
            table = await BotTable.open(client, "freunde", 2, bot_seed=22)
            await table.step()
            return table

    table = _run(opened())
    context, page, problems = _open(browser, f"{stack.url}/replay/{table.table_id}")
    try:
        _shown(page, table.version)
        assert page.inner_text("#table-state") == "in play"
        # The audit is fetched after the first picture is shown: wait for its rows.
        page.wait_for_selector("#audit li", timeout=WAIT_MS)
        assert "seed" in page.inner_text("#audit")

        async def more() -> None:
            async with GatewayClient(stack.url) as client:
                table.client = client
                for _ in range(3):
                    await table.step()

        _run(more())
        _shown(page, table.version)
        assert page.inner_text("#version") == f"Version {table.version} of {table.version}"
        assert page.locator("#log li").count() == table.version
        _screenshot(page, "live-game-followed")
        assert not problems, problems
    finally:
        context.close()
