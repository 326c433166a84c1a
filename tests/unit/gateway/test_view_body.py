"""The table view's JSON, built around the view's stored text without parsing it, is the
TableView the OpenAPI document promises, field for field."""

from __future__ import annotations

import json
from typing import Any, cast

from engines.core.canonical import canonical_json
from gateway.api.deps import TableCaller
from gateway.api.reads import ViewAt
from gateway.api.routes.tables import _view_body
from gateway.schemas.responses import SeatOut, TableView
from proto import common_pb2

VIEW = {"players": [{"hand": [3, 1], "name": "Zoë"}], "round": 2, "you": {"seat": 1}}
STATUS = {"game": "freunde", "seats": 2, "version": 9, "to_act": [1], "finished": False}


def _caller(seat: int | None) -> TableCaller:
    meta = common_pb2.TableMeta(table_id="t-1", game="freunde", seats=2)
    return TableCaller("t-1", meta, cast(Any, None), seat)


def _model(seat: int | None, seats: list[SeatOut]) -> TableView:
    return TableView(
        table_id="t-1",
        game="freunde",
        seats=2,
        seat=seat,
        version=9,
        view=VIEW,
        status=STATUS,
        seating=seats,
    )


def test_the_body_is_the_table_view_with_the_stored_text_inside() -> None:
    seats = [SeatOut(seat=0, name="Ann", open=False), SeatOut(seat=1, name="Bo", open=False)]
    current = ViewAt(9, canonical_json(VIEW).encode(), STATUS)
    body = _view_body(_caller(1), current, seats)
    assert json.loads(body) == _model(1, seats).model_dump(mode="json")
    # The view's own text, escapes included, is in the body as stored.
    assert canonical_json(VIEW).encode() in body


def test_a_spectator_and_names_beyond_ascii_get_the_table_view() -> None:
    seats = [SeatOut(seat=0, name="Grüße 🌱", open=False), SeatOut(seat=1, name="", open=True)]
    current = ViewAt(9, canonical_json(VIEW).encode(), STATUS)
    body = _view_body(_caller(None), current, seats)
    assert json.loads(body) == json.loads(_model(None, seats).model_dump_json())
