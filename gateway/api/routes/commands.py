"""``POST /v1/tables/{id}/commands``: a seat sends one command."""

from __future__ import annotations

import json
import time
from functools import lru_cache
from typing import Any

import orjson
import structlog
from fastapi import APIRouter, Request
from fastapi.responses import Response
from google.protobuf.message import Message
from pydantic import ValidationError

import engines
from engines.core.canonical import message_bytes
from engines.core.control import CONTROL_PREFIX
from engines.core.messages import MessageFormatError, from_json
from gateway.api.bodies import NOT_PLAIN, JsonRoute, plain_json, plain_requests
from gateway.api.deps import TABLE_ID, Gateway, Seated, SeatedDep, seat_of_request
from gateway.engines import GameBackend
from gateway.errors import ApiError, status_for_rejection
from gateway.rendering import event_out
from gateway.schemas.requests import CommandIn
from gateway.schemas.responses import CommandResult, ErrorOut
from proto import common_pb2

__all__ = ["RESIGN_COMMAND_ID", "router"]

# One resignation per seat: asking again gets the first outcome.
RESIGN_COMMAND_ID = f"{CONTROL_PREFIX}resign"

router = APIRouter(prefix="/v1", tags=["commands"], route_class=JsonRoute)
log = structlog.get_logger("gateway")

_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorOut, "description": "No seat token"},
    403: {"model": ErrorOut, "description": "The token is not this table's seat, or not `seat`"},
    404: {"model": ErrorOut, "description": "No such table"},
    409: {
        "model": ErrorOut,
        "description": (
            "`version.conflict`: expected_version is stale; `command.id_reused`: you sent"
            " this command_id before for a different command"
        ),
    },
    413: {"model": ErrorOut, "description": "`request.too_large`: the body is over the limit"},
    422: {"model": ErrorOut, "description": "Malformed command or a rule violation"},
    429: {"model": ErrorOut, "description": "`rate.limited`: wait `Retry-After` seconds"},
    503: {"model": ErrorOut, "description": "The engine service is not reachable"},
}


# Commands parsed before, by their JSON text: the same few hundred recur across tables,
# and protobuf's JSON parser costs a command more than the rest of its route. Only short
# texts are kept, so the cache stays small whatever clients send.
_PARSED_COMMANDS = 4096
_PARSED_TEXT_CHARS = 512


@lru_cache(maxsize=_PARSED_COMMANDS)
def _parsed_text(game: str, text: str) -> bytes:
    return _command_bytes(engines.get(game).command_type, json.loads(text))


def _command_bytes(command_type: type[Message], data: Any) -> bytes:
    """The command ``data`` describes, in its deterministic wire form; raises
    :class:`MessageFormatError` when it is not one of the game's commands, or names no
    action (no field set: empty bytes)."""
    payload = message_bytes(from_json(command_type, data))
    if not payload:
        raise MessageFormatError("The command names no action.")
    return payload


def _command_payload(backend: GameBackend, data: Any) -> bytes:
    text = json.dumps(data)
    if len(text) > _PARSED_TEXT_CHARS:
        return _command_bytes(backend.engine.command_type, data)
    return _parsed_text(backend.game, text)


async def _plain_command(request: Request) -> Response | None:
    """``send_command`` for a well-formed request (see ``plain_requests``)."""
    data = await plain_json(request)
    table_id = request.path_params["table_id"]
    if data is NOT_PLAIN or not TABLE_ID.fullmatch(table_id):
        return None
    caller = await seat_of_request(request, table_id)
    try:
        body = CommandIn.model_validate(data)
    except ValidationError:
        return None
    return await send_command(body, caller)


@router.post(
    "/tables/{table_id}/commands",
    response_model=CommandResult,
    responses=_ERRORS,
    summary="Send a command as the seat of the bearer token",
)
@plain_requests(_plain_command)
async def send_command(body: CommandIn, caller: SeatedDep) -> Response:
    gateway = caller.gateway
    structlog.contextvars.bind_contextvars(command_id=body.command_id)
    if body.seat is not None and body.seat != caller.seat:
        raise ApiError(403, "seat.forbidden", "You may only act for your own seat.")
    try:
        payload = _command_payload(caller.backend, body.command)
    except MessageFormatError as bad:
        gateway.metrics.commands.labels(game=caller.meta.game, outcome="malformed").inc()
        raise ApiError(422, "command.malformed", str(bad)) from None
    envelope = common_pb2.CommandEnvelope(
        table_id=caller.table_id,
        command_id=body.command_id,
        seat=caller.seat,
        payload=payload,
    )
    if body.expected_version is not None:
        envelope.expected_version = body.expected_version
    return await _execute(caller, gateway, envelope)


@router.post(
    "/tables/{table_id}/resign",
    response_model=CommandResult,
    responses=_ERRORS,
    summary="Resign: the caller's seat leaves the game",
    description=(
        "With two seats left in the game (or one), the table ends: `status.end` says"
        " `resigned` by this seat and the seats still in the game win. With more, a bot"
        " plays the seat from now on and the seat can no longer win; when only bots would be"
        " left, the table ends `abandoned`. Asking again returns the first outcome. 422"
        " `game.over` once the table has ended."
    ),
)
async def resign(caller: SeatedDep) -> Response:
    envelope = common_pb2.CommandEnvelope(
        table_id=caller.table_id,
        command_id=RESIGN_COMMAND_ID,
        seat=caller.seat,
        control=common_pb2.TableControl(resign=common_pb2.Resign()),
    )
    return await _execute(caller, caller.gateway, envelope)


async def _execute(
    caller: Seated, gateway: Gateway, envelope: common_pb2.CommandEnvelope
) -> Response:
    """Send ``envelope`` to the table's engine; its events as the caller sees them, or the
    refusal as an error."""
    game = caller.meta.game
    started = time.perf_counter()
    try:
        reply = await caller.backend.commands.execute(envelope, gateway.backends.timeout)
    finally:
        gateway.metrics.command_seconds.labels(game=game).observe(time.perf_counter() - started)
    if reply.WhichOneof("result") == "rejected":
        rejection = reply.rejected
        outcome = "conflict" if rejection.code == "version.conflict" else "rejected"
        gateway.metrics.commands.labels(game=game, outcome=outcome).inc()
        gateway.metrics.rejections.labels(game=game, code=rejection.code).inc()
        log.info("command.rejected", code=rejection.code)
        raise ApiError(
            status_for_rejection(rejection.code),
            rejection.code,
            rejection.message,
            dict(rejection.details),
        )
    accepted = reply.accepted
    structlog.contextvars.bind_contextvars(version=accepted.version)
    gateway.metrics.commands.labels(
        game=game, outcome="duplicate" if accepted.duplicate else "accepted"
    ).inc()
    log.debug("command.accepted", duplicate=accepted.duplicate)
    # Built as JSON here, not validated and serialised through the response model: the
    # shape is CommandResult's (a test compares them), without a second pass over it.
    return Response(
        orjson.dumps(
            {
                "table_id": caller.table_id,
                "version": accepted.version,
                "duplicate": accepted.duplicate,
                "events": [event_out(e) for e in accepted.seen],
                "links": {"view": f"/v1/tables/{caller.table_id}?min_version={accepted.version}"},
            }
        ),
        media_type="application/json",
    )
