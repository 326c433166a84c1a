"""After the fact: replay to a version, audit the log, export a finished game."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import StreamingResponse

from gateway.api.deps import GatewayDep, TableCallerDep
from gateway.api.reads import finished, replayed, within_log
from gateway.errors import ApiError
from gateway.export import export_lines
from gateway.schemas.responses import AuditCheckOut, AuditOut, ErrorOut, ReplayOut
from proto import engine_pb2

__all__ = ["router"]

router = APIRouter(prefix="/v1", tags=["history"])

_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (403, 404, 409, 422, 503)
}


@router.get(
    "/tables/{table_id}/replay",
    response_model=ReplayOut,
    responses=_ERRORS,
    summary="The view at version N",
    description=(
        "A seat replays its own view and a spectator the public one at any time. Once the"
        " game has ended anyone may replay any seat's view with `seat`."
    ),
)
async def replay(
    caller: TableCallerDep,
    gateway: GatewayDep,
    at: Annotated[int, Query(ge=0, le=2**63 - 1)],
    seat: Annotated[int | None, Query(ge=0, le=64)] = None,
) -> ReplayOut:
    done, _ = await within_log(gateway, caller, at)
    looking_as = caller.seat if seat is None else seat
    if looking_as is not None and looking_as >= caller.meta.seats:
        raise ApiError(422, "seat.invalid", f"The table has {caller.meta.seats} seats.")
    if looking_as != caller.seat and not done:
        raise ApiError(
            403, "replay.forbidden", "Another seat's view is public only once the game has ended."
        )
    view, outcome = await replayed(gateway, caller, at, looking_as)
    return ReplayOut(table_id=caller.table_id, at=at, seat=looking_as, view=view, outcome=outcome)


@router.get(
    "/tables/{table_id}/audit",
    response_model=AuditOut,
    responses=_ERRORS,
    summary="Hash chain, events and public forms; once finished, the seed, every commitment"
    " and re-execution",
    description=(
        "The same checks as `boardwright verify` (see `engines/core/audit.py`). While the"
        " game runs the seed is secret: the chain, the decoding of every event and the public"
        " forms are checked; once it is revealed, every salted commitment and the"
        " re-execution of every command too."
    ),
)
async def audit(caller: TableCallerDep, gateway: GatewayDep) -> AuditOut:
    reply = await caller.backend.stub.Audit(
        engine_pb2.AuditRequest(table_id=caller.table_id), timeout=gateway.backends.timeout
    )
    return AuditOut(
        table_id=caller.table_id,
        ok=reply.ok,
        chain_ok=reply.chain_ok,
        first_bad_version=reply.first_bad_version,
        reexecution_checked=reply.reexecution_checked,
        reexecution_ok=reply.reexecution_ok,
        detail=reply.detail,
        head_version=reply.head_version,
        head_hash=reply.head_hash.hex(),
        seed=reply.seed.hex() if reply.seed else None,
        checks=[AuditCheckOut(name=c.name, ok=c.ok, detail=c.detail) for c in reply.checks],
    )


_EXPORT_EXAMPLE = (
    '{"created_ms":1764483600000,"format":"boardwright-export/2","game":"harvest",'
    '"head_hash":"9f2c...","head_version":241,"options":{"draft":false,"first_game":false},'
    '"seats":2,"seed_commitment":"5e88...","table_id":"5f0c8e2a9b7d4c1e3a6f8b20"}\n'
    '{"command_id":"setup","commitment":"41c7...","event":{"game_set_up":{"seats":2}},'
    '"hash":"0b1d...","payload":"CgQIAhAB","prev_hash":"0000...","public_payload":"CgQIAhAB",'
    '"seat":-1,"seat_commitments":["a3e0...","7d15..."],"time_ms":1764483600000,"version":1}\n'
)


class JsonLinesResponse(StreamingResponse):
    """A streamed ``application/x-ndjson`` body (so /docs names the right media type)."""

    media_type = "application/x-ndjson"


@router.get(
    "/tables/{table_id}/export",
    response_class=JsonLinesResponse,
    responses={
        200: {
            "description": "JSON Lines: a header, then one line per stored event",
            "content": {
                "application/x-ndjson": {"schema": {"type": "string"}, "example": _EXPORT_EXAMPLE}
            },
        },
        **_ERRORS,
    },
    summary="The whole log as JSON Lines (finished games only)",
    description="Format: see `gateway/export.py`; `boardwright verify` checks it offline.",
)
async def export(caller: TableCallerDep, gateway: GatewayDep) -> JsonLinesResponse:
    done, _ = await finished(gateway, caller)
    if not done:
        raise ApiError(409, "table.not_finished", "The log is public once the game has ended.")
    log = await gateway.store.log(caller.table_id)
    return JsonLinesResponse(
        export_lines(caller.meta, log),
        headers={"Content-Disposition": f'attachment; filename="{caller.table_id}.jsonl"'},
    )
