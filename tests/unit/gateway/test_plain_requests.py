"""A route's plain handler answers its well-formed requests; every other request is
FastAPI's, with FastAPI's own refusals, and a refusal the plain handler raises itself comes
out as the same error."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI, Request, Response
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gateway.api.bodies import NOT_PLAIN, JsonRoute, plain_json, plain_requests
from gateway.errors import ApiError, install_error_handlers


class Move(BaseModel):
    model_config = ConfigDict(extra="forbid")

    card: int = Field(ge=0)


def _app() -> tuple[FastAPI, list[str]]:
    """An app whose one route says who answered: ``plain`` or ``fastapi``."""
    answered: list[str] = []
    router = APIRouter(route_class=JsonRoute)

    def play(move: Move, via: str) -> Response:
        if move.card == 13:
            raise ApiError(422, "card.unlucky", "Not that one.")
        answered.append(via)
        return Response(str(move.card))

    async def plain(request: Request) -> Response | None:
        data = await plain_json(request)
        if data is NOT_PLAIN:
            return None
        try:
            move = Move.model_validate(data)
        except ValidationError:
            return None
        return play(move, "plain")

    @router.post("/moves")
    @plain_requests(plain)
    async def moves(move: Move) -> Response:
        return play(move, "fastapi")

    app = FastAPI()
    install_error_handlers(app)
    app.include_router(router)
    return app, answered


def test_a_well_formed_request_is_answered_by_the_plain_handler() -> None:
    app, answered = _app()
    reply = TestClient(app).post("/moves", json={"card": 3})
    assert (reply.status_code, reply.text, answered) == (200, "3", ["plain"])


def test_anything_else_is_fastapis_with_its_own_refusals() -> None:
    app, answered = _app()
    client = TestClient(app)
    bodies: list[dict[str, Any]] = [
        {"content": b'{"card": 3', "headers": {"content-type": "application/json"}},
        {"json": {"card": -1}},
        {"json": {"card": 3, "extra": 1}},
        {"content": b"", "headers": {"content-type": "application/json"}},
    ]
    for body in bodies:
        reply = client.post("/moves", **body)
        assert reply.status_code == 422, body
        assert reply.json()["code"] == "request.invalid"
    # A JSON body under another content type: FastAPI reads it (or refuses it) itself.
    other = client.post("/moves", content=b'{"card": 4}', headers={"content-type": "text/json"})
    assert other.status_code == 422 and answered == []
    assert client.post("/moves", json={"card": 13}).json()["code"] == "card.unlucky"
    charset = {"content-type": "application/json; charset=utf-8"}
    assert client.post("/moves", content=b'{"card": 5}', headers=charset).text == "5"
    assert answered == ["fastapi"]
