"""The OpenAPI document behind /docs: every operation shows its request and response
schemas with an example, and every example is a valid instance of its schema."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

import engines
from engines.core.messages import from_json
from gateway.app import create_app
from gateway.schemas import requests, responses
from gateway.settings import Settings

GAMES = ("freunde", "harvest")


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    addrs = ",".join(f"{game}=127.0.0.1:{1 + n}" for n, game in enumerate(GAMES))
    document: dict[str, Any] = create_app(Settings(engine_addrs_text=addrs)).openapi()
    return document


def _operations(spec: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [
        (f"{method.upper()} {path}", operation)
        for path, methods in spec["paths"].items()
        for method, operation in methods.items()
    ]


def _shows_example(spec: dict[str, Any], media: dict[str, Any]) -> bool:
    if "example" in media or "examples" in media:
        return True
    schema = media.get("schema", {})
    if "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return bool(schema.get("examples"))


def test_every_success_response_has_a_schema_and_an_example(spec: dict[str, Any]) -> None:
    missing = []
    for name, operation in _operations(spec):
        successes = {c: r for c, r in operation["responses"].items() if c.startswith("2")}
        assert successes, name
        for code, response in successes.items():
            content = response.get("content") or {}
            if not content:
                missing.append(f"{name} {code}: no content")
            for media_type, media in content.items():
                if not media.get("schema"):
                    missing.append(f"{name} {code} {media_type}: no schema")
                if not _shows_example(spec, media):
                    missing.append(f"{name} {code} {media_type}: no example")
    assert not missing, missing


def test_every_request_body_has_a_schema_and_an_example(spec: dict[str, Any]) -> None:
    bodies = {
        name: operation["requestBody"]["content"]["application/json"]
        for name, operation in _operations(spec)
        if "requestBody" in operation
    }
    assert set(bodies) == {
        "POST /v1/tables",
        "POST /v1/tables/{table_id}/commands",
        "POST /v1/tables/{table_id}/seats",
        "PATCH /v1/tables/{table_id}/seats/{seat}",
        "POST /v1/tables/{table_id}/start",
        "POST /v1/apps/{app_id}/webhooks",
    }
    for name, media in bodies.items():
        assert media.get("schema"), name
        assert _shows_example(spec, media), name


def test_each_game_shows_a_command_its_rules_accept(spec: dict[str, Any]) -> None:
    media = spec["paths"]["/v1/tables/{table_id}/commands"]["post"]["requestBody"]["content"]
    examples = media["application/json"]["examples"]
    assert set(examples) == set(GAMES)
    for game, example in examples.items():
        body = requests.CommandIn.model_validate(example["value"])
        command = from_json(engines.get(game).command_type, body.command)
        assert command.ListFields(), game


def _models(module: Any) -> list[type[BaseModel]]:
    return [
        model
        for name in module.__all__
        if isinstance(model := getattr(module, name), type) and issubclass(model, BaseModel)
    ]


_EXAMPLES = [
    (model, example)
    for model in (*_models(responses), *_models(requests))
    for example in model.model_json_schema().get("examples", [])
]


def test_the_documented_bodies_carry_examples() -> None:
    assert {model.__name__ for model, _ in _EXAMPLES} >= {
        "AuditOut",
        "CommandResult",
        "ErrorOut",
        "EventsOut",
        "GamesOut",
        "HealthOut",
        "LegalCommandsOut",
        "LobbyOut",
        "ReplayOut",
        "TableCreate",
        "TableCreated",
        "TableView",
    }


@pytest.mark.parametrize(
    ("model", "example"), _EXAMPLES, ids=[model.__name__ for model, _ in _EXAMPLES]
)
def test_every_schema_example_is_a_valid_instance(
    model: type[BaseModel], example: dict[str, Any]
) -> None:
    model.model_validate(example)
