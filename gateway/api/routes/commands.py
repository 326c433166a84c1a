"""``POST /v1/tables/{id}/commands``: a seat sends one command."""

from __future__ import annotations

import time
from typing import Any

import structlog
from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from engines.core.canonical import message_bytes
from engines.core.control import CONTROL_PREFIX
from engines.core.messages import MessageFormatError, from_json
from gateway.api.bodies import JsonRoute
from gateway.api.deps import Gateway, Seated, SeatedDep
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


@router.post(
    "/tables/{table_id}/commands",
    response_model=CommandResult,
    responses=_ERRORS,
    summary="Send a command as the seat of the bearer token",
)
async def send_command(body: CommandIn, caller: SeatedDep) -> Response:
    gateway = caller.gateway
    game = caller.meta.game
    structlog.contextvars.bind_contextvars(command_id=body.command_id)
    if body.seat is not None and body.seat != caller.seat:
        raise ApiError(403, "seat.forbidden", "You may only act for your own seat.")
    engine = caller.backend.engine
    try:
        command = from_json(engine.command_type, body.command)
    except MessageFormatError as bad:
        gateway.metrics.commands.labels(game=game, outcome="malformed").inc()
        raise ApiError(422, "command.malformed", str(bad)) from None
    if not command.ListFields():
        gateway.metrics.commands.labels(game=game, outcome="malformed").inc()
        raise ApiError(422, "command.malformed", "The command names no action.")
    envelope = common_pb2.CommandEnvelope(
        table_id=caller.table_id,
        command_id=body.command_id,
        seat=caller.seat,
        payload=message_bytes(command),
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
        reply = await caller.backend.stub.Execute(envelope, timeout=gateway.backends.timeout)
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
    return JSONResponse(
        {
            "table_id": caller.table_id,
            "version": accepted.version,
            "duplicate": accepted.duplicate,
            "events": [event_out(e) for e in accepted.seen],
            "links": {"view": f"/v1/tables/{caller.table_id}?min_version={accepted.version}"},
        }
    )
