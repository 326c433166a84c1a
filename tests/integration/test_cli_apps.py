"""The operator's ``boardwright apps`` commands on a real Redis of the test's own: an app,
its webhooks (the secret printed once), its deliveries."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from gateway.cli import app
from tests.integration.test_engine_service_support import private_redis

pytestmark = [pytest.mark.integration]


@pytest.fixture(scope="module")
def redis() -> Iterator[str]:
    yield from private_redis()


def cli(redis: str, *args: str, loopback: bool = False) -> tuple[int, str]:
    env = {"COLUMNS": "200", "BW_WEBHOOK_ALLOW_LOOPBACK": "1" if loopback else "0"}
    done = CliRunner().invoke(app, [*args, "--redis", redis], env=env)
    return done.exit_code, done.output


def found(pattern: str, out: str) -> str:
    match = re.search(pattern, out)
    assert match is not None, out
    return match.group(1)


def test_an_operator_registers_lists_and_removes_an_apps_webhooks(redis: str) -> None:
    code, out = cli(redis, "apps", "create", "Discord bot")
    assert code == 0, out
    app_id = found(r"app ([0-9a-f]{12})", out)

    code, out = cli(redis, "apps", "webhooks", "add", app_id, "https://bot.example.com/hook")
    assert code == 0, out
    first = found(r"webhook (wh_[0-9a-f]{12})", out)
    assert re.search(r"secret whsec_\S{20,}", out)
    code, out = cli(
        redis, "apps", "webhooks", "add", app_id, "http://127.0.0.1:9/hook", loopback=True
    )
    assert code == 0 and "secret" not in out, out  # shown once: with the first only

    code, out = cli(redis, "apps", "webhooks", "list", app_id)
    assert code == 0 and first in out and "127.0.0.1:9" in out, out
    code, out = cli(redis, "apps", "deliveries", app_id, "--status", "dead")
    assert code == 0 and "delivery" in out, out

    code, out = cli(redis, "apps", "webhooks", "remove", app_id, first)
    assert code == 0, out
    code, out = cli(redis, "apps", "webhooks", "list", app_id)
    assert first not in out and "127.0.0.1:9" in out, out


@pytest.mark.parametrize(
    "args",
    [
        ("apps", "webhooks", "add", "{app}", "ftp://example.com/hook"),
        ("apps", "webhooks", "add", "{app}", "http://127.0.0.1:9/hook"),  # loopback not allowed
        ("apps", "webhooks", "add", "000000000000", "https://bot.example.com/hook"),
        ("apps", "webhooks", "remove", "{app}", "wh_000000000000"),
        ("apps", "deliveries", "{app}", "--status", "lost"),
    ],
)
def test_refused_requests_exit_non_zero_with_a_line_and_change_nothing(
    redis: str, args: tuple[str, ...]
) -> None:
    _, out = cli(redis, "apps", "create", "A site")
    app_id = found(r"app ([0-9a-f]{12})", out)
    code, out = cli(redis, *(a.format(app=app_id) for a in args))
    assert code != 0, out
    assert "Traceback" not in out
    code, listed = cli(redis, "apps", "webhooks", "list", app_id)
    assert code == 0 and "wh_" not in listed
