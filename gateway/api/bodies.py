"""Request bodies are JSON, parsed strictly.

Python's parser accepts what no other part of the system can carry: a lone UTF-16
surrogate written as an escape (``"\\ud800"``) decodes to a string that cannot be
encoded as UTF-8 again, so it fails later, deep in protobuf or a log line. Such a body,
and one nested too deeply, with a number too long or not in UTF-8, is refused here as a
422 ``request.invalid`` naming the reason, before any route sees it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

__all__ = ["JsonRoute", "parse_json"]

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


class _StrictJsonRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = parse_json(await self.body())
        return self._json


class JsonRoute(APIRoute):
    """A route whose JSON body goes through :func:`parse_json`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(_StrictJsonRequest(request.scope, request.receive))

        return strict
