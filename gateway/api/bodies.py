"""Request bodies are JSON, parsed strictly.

Python's parser accepts what no other part of the system can carry: a lone UTF-16
surrogate written as an escape (``"\\ud800"``) decodes to a string that cannot be
encoded as UTF-8 again, so it fails later, deep in protobuf or a log line. Such a body,
and one nested too deeply, with a number too long or not in UTF-8, is refused here as a
422 ``request.invalid`` naming the reason, before any route sees it.

A route may also answer its well-formed requests itself (:func:`plain_requests`), without
FastAPI's dependency solver, and leave every other request to FastAPI.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Final, TypeVar

from fastapi import Request, Response
from fastapi.routing import APIRoute

__all__ = ["NOT_PLAIN", "JsonRoute", "PlainHandler", "parse_json", "plain_json", "plain_requests"]

# A \uD800-\uDFFF escape: only such a body can hold a lone surrogate (raw surrogate bytes
# are not UTF-8 and fail the decode).
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _refused(reason: str, body: bytes) -> json.JSONDecodeError:
    return json.JSONDecodeError(reason, body.decode("utf-8", "replace"), 0)


def parse_json(body: bytes) -> Any:
    """``body`` as JSON; :class:`json.JSONDecodeError` with a plain reason when it is not
    JSON every part of the system can carry."""
    try:
        value = json.loads(body)
    except json.JSONDecodeError:
        raise
    except UnicodeDecodeError:
        raise _refused("the body is not UTF-8", body) from None
    except RecursionError:
        raise _refused("the JSON is nested too deeply", body) from None
    except ValueError as wrong:  # e.g. an integer longer than Python converts
        raise _refused(f"the JSON holds a value that cannot be read: {wrong}", body) from None
    if _SURROGATE_ESCAPE.search(body):
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise _refused("a string holds a lone UTF-16 surrogate escape", body) from None
    return value


# A request a plain handler leaves to FastAPI: ``None`` instead of a response.
PlainHandler = Callable[[Request], Awaitable[Response | None]]
Endpoint = TypeVar("Endpoint", bound=Callable[..., Any])
_PLAIN_ATTRIBUTE = "plain_request_handler"
# What plain_json returns for a body FastAPI must judge itself.
NOT_PLAIN: Final = object()


def plain_requests(handler: PlainHandler) -> Callable[[Endpoint], Endpoint]:
    """Gives a route's endpoint (declared below ``@router.post`` and the like) a handler for
    its well-formed requests that skips FastAPI's dependency solver, a sixth of the
    gateway's CPU per command. The handler checks what FastAPI would, in the same order,
    and answers, or returns ``None`` at the first thing it does not accept as plainly
    valid: FastAPI then handles the request from the start (the body is read once), so
    every refusal is FastAPI's own, as before. The endpoint's signature still describes
    the route in the OpenAPI document."""

    def mark(endpoint: Endpoint) -> Endpoint:
        setattr(endpoint, _PLAIN_ATTRIBUTE, handler)
        return endpoint

    return mark


async def plain_json(request: Request) -> Any:
    """The request's body as JSON when FastAPI would read it so and it parses:
    ``Content-Type: application/json`` and a non-empty body; :data:`NOT_PLAIN` otherwise."""
    if request.headers.get("content-type") != "application/json":
        return NOT_PLAIN
    try:
        return await request.json()
    except json.JSONDecodeError:
        return NOT_PLAIN


class _StrictJsonRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = parse_json(await self.body())
        return self._json


class JsonRoute(APIRoute):
    """A route whose JSON body goes through :func:`parse_json`, and whose well-formed
    requests go to its endpoint's plain handler, if it has one (:func:`plain_requests`)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        plain: PlainHandler | None = getattr(self.endpoint, _PLAIN_ATTRIBUTE, None)

        async def strict(request: Request) -> Response:
            strict_request = _StrictJsonRequest(request.scope, request.receive)
            if plain is not None:
                response = await plain(strict_request)
                if response is not None:
                    return response
            return await handler(strict_request)

        return strict
