"""The OpenAPI document as a true contract: what the gateway does, said so a client
generator or an API tester (Schemathesis) can rely on it.

FastAPI writes most of it from the routes; here the parts it cannot know are added:

- **Credentials are optional where spectators may call**: a route that reads a table
  takes a seat token or an app key but needs neither, so its ``security`` lists ``{}``
  (no credentials) beside them. Routes that need a seat or a player keep them required.
- **Every error is documented as JSON**: each operation lists the statuses any request
  may get (400 unreadable body or mixed credentials, 413, 422, 429, 503, and 404 when the
  path names a table), each as ``application/json`` ``ErrorOut``, also on routes whose
  success is another media type (the export's JSON Lines, the event stream).
- **Per-game limits are in the schema**: ``POST /v1/tables`` takes one of a body per
  offered game, with that game's seat range and its options' types, bounds and choices.
- **The event stream's events**: each Server-Sent Event is an object (``id``, ``event``,
  ``data``), as Schemathesis reads them.
- **An example command per game** on ``POST /v1/tables/{id}/commands``.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from starlette.routing import BaseRoute

import engines
from engines.core.contract import OptionSpec
from gateway.api.routes.games import example_command
from gateway.settings import Settings
from services.players import USER_PATTERN

__all__ = ["install_openapi"]

_COMMANDS_PATH = "/v1/tables/{table_id}/commands"
_CREATE_PATH = "/v1/tables"
_STREAM_PATH = "/v1/tables/{table_id}/events/stream"
_ERROR = {"$ref": "#/components/schemas/ErrorOut"}

# Routes a spectator (no credentials) may call: method and path.
_OPEN_TO_ALL = {
    ("post", "/v1/tables"),
    ("get", "/v1/tables/{table_id}"),
    ("get", "/v1/tables/{table_id}/events"),
    ("get", _STREAM_PATH),
    ("get", "/v1/tables/{table_id}/replay"),
    ("get", "/v1/tables/{table_id}/audit"),
    ("get", "/v1/tables/{table_id}/export"),
    ("get", "/v1/tables/{table_id}/board.svg"),
    ("get", "/v1/tables/{table_id}/board.png"),
    ("post", "/v1/tables/{table_id}/seats"),
}
_APP_USER = {
    "name": "X-App-User",
    "in": "header",
    "required": False,
    "description": "With `X-App-Key`: the app's user the request acts for, in the app's own"
    " namespace (`discord:1234`).",
    "schema": {"type": "string", "pattern": USER_PATTERN},
}
_ALWAYS = {
    "400": "`request.unreadable`: the body is not readable",
    "422": "`request.invalid`: a parameter or the body is not valid",
    "429": "`rate.limited`: wait `Retry-After` seconds",
    "503": "A part is not reachable (`engine.unavailable`, `store.unavailable`); retry after"
    " `Retry-After`",
}
_WITH_BODY = {"413": "`request.too_large`: the body is over the limit"}
_WITH_TABLE = {
    "404": "`table.not_found`: no table with that id",
    "409": "`table.not_started`: the table still waits for players",
}
_WITH_CREDENTIALS = {
    "401": "`auth.missing`: this needs a seat, or an app's user",
    "403": "`auth.invalid`, `app.invalid`: credentials that are not this table's or an app's;"
    " `auth.ambiguous`: a seat token and an app key at once",
}


def install_openapi(app: FastAPI, settings: Settings, routes: Sequence[BaseRoute]) -> None:
    """Replace ``app.openapi`` by one that returns the completed document (built once),
    listing ``routes`` in their order."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = get_openapi(
            title=app.title, version=app.version, summary=app.summary, routes=routes
        )
        games = _offered(settings)
        _examples(schema, games)
        _per_game_bodies(schema, games)
        _bot_names(schema, games)
        _credentials(schema)
        _errors(schema)
        _event_stream(schema)
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def _offered(settings: Settings) -> dict[str, Any]:
    found = {}
    for game in settings.engine_addrs:
        try:
            found[game] = engines.get(game)
        except engines.UnknownGame:
            continue
    return found


def _operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method, path, operation)
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
    ]


def _examples(schema: dict[str, Any], games: dict[str, Any]) -> None:
    """Show one real command of each game (built from its ``Command`` message)."""
    examples = {}
    for game, engine in games.items():
        command = example_command(game, engine)
        if command is not None:
            examples[game] = {
                "summary": f"A {engine.info.title} command",
                "value": {"command_id": f"{game}-0001", "expected_version": 1, "command": command},
            }
    body = schema["paths"][_COMMANDS_PATH]["post"]["requestBody"]["content"]["application/json"]
    if examples:
        body["examples"] = examples


def _option_schema(spec: OptionSpec) -> dict[str, Any]:
    described: dict[str, Any] = {"description": spec.description, "default": spec.default}
    if spec.kind == "bool":
        return {"type": "boolean", **described}
    if spec.kind == "int":
        bounds = {"minimum": spec.minimum, "maximum": spec.maximum}
        return {
            "type": "integer",
            **{k: v for k, v in bounds.items() if v is not None},
            **described,
        }
    if spec.kind == "choice":
        return {"type": "string", "enum": list(spec.choices), **described}
    return {"type": "string", "maxLength": 200, **described}


def _per_game_bodies(schema: dict[str, Any], games: dict[str, Any]) -> None:
    """``POST /v1/tables``: one body per game, with its seats and options."""
    if not games:
        return
    base = schema["components"]["schemas"]["TableCreate"]
    variants = []
    for game, engine in games.items():
        info = engine.info
        variant = copy.deepcopy(base)
        variant["title"] = f"TableCreate ({info.title})"
        variant.pop("examples", None)
        properties = variant["properties"]
        properties["game"] = {"type": "string", "enum": [game], "title": "Game"}
        properties["seats"] = {
            "type": "integer",
            "minimum": info.min_seats,
            "maximum": info.max_seats,
            "title": "Seats",
        }
        properties["options"] = {
            "type": "object",
            "properties": {spec.name: _option_schema(spec) for spec in info.options},
            "additionalProperties": False,
            "title": "Options",
        }
        variants.append(variant)
    media = schema["paths"][_CREATE_PATH]["post"]["requestBody"]["content"]["application/json"]
    media["schema"] = {"oneOf": variants, "examples": base.get("examples", [])}


def _bot_names(schema: dict[str, Any], games: dict[str, Any]) -> None:
    """The bots a table may be started with: those of the offered games."""
    names = sorted({name for engine in games.values() for name in getattr(engine, "bots", {})})
    start = schema["components"]["schemas"].get("StartIn")
    if start is None or not names:
        return
    start["properties"]["bots"] = {
        "anyOf": [{"type": "string", "enum": names}, {"type": "null"}],
        "description": start["properties"]["bots"].get("description", ""),
    }


def _credentials(schema: dict[str, Any]) -> None:
    """Optional credentials on the routes a spectator may call."""
    for method, path, operation in _operations(schema):
        if (method, path) in _OPEN_TO_ALL:
            schemes = operation.get("security") or [{"AppKey": []}]
            operation["security"] = [*schemes, {}]
        if any("AppKey" in scheme for scheme in operation.get("security") or []):
            operation.setdefault("parameters", []).append(_APP_USER)


def _errors(schema: dict[str, Any]) -> None:
    """Every status a request may get, each as JSON ``ErrorOut``."""
    for _, path, operation in _operations(schema):
        statuses = dict(_ALWAYS)
        if "requestBody" in operation:
            statuses.update(_WITH_BODY)
        if "{table_id}" in path:
            statuses.update(_WITH_TABLE)
        if operation.get("security"):
            statuses.update(_WITH_CREDENTIALS)
        responses = operation.setdefault("responses", {})
        for status, description in statuses.items():
            responses.setdefault(status, {"description": description})
        for status, response in responses.items():
            if status[0] in "45":
                response["content"] = {"application/json": {"schema": _ERROR}}


def _event_stream(schema: dict[str, Any]) -> None:
    """Each Server-Sent Event: ``id`` (the version), ``event`` and ``data`` (JSON text)."""
    stream = schema["paths"][_STREAM_PATH]["get"]["responses"]["200"]["content"]
    stream["text/event-stream"]["schema"] = {
        "type": "object",
        "properties": {
            "id": {"type": "string", "description": "The event's version."},
            "event": {"type": "string", "enum": ["event", "end"]},
            "data": {"type": "string", "description": "The event as JSON (as in /events)."},
            "retry": {"type": "integer"},
        },
        "required": ["data"],
    }
