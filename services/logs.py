"""Structured logs: one JSON object per line on stderr, the same shape in every service.

Bind context once per command with :func:`bind` (``table_id``, ``command_id``, ``seat``,
``version``); every entry logged inside carries it. Any key that names a secret (a seat
token, an ``Authorization`` header) is dropped before rendering, wherever it came from.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager
from typing import Any

import structlog

__all__ = ["bind", "configure_logging", "drop_secrets", "get_logger"]

_SECRET_KEY = re.compile(r"token|authorization|secret|password|cookie", re.IGNORECASE)


def drop_secrets(
    _logger: Any, _method: str, event_dict: MutableMapping[str, Any]
) -> MutableMapping[str, Any]:
    """Remove every key named like a credential, at any depth of nested dicts."""
    return _without_secrets(event_dict)


def _without_secrets(data: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    for key in [k for k in data if isinstance(k, str) and _SECRET_KEY.search(k)]:
        del data[key]
    for value in data.values():
        if isinstance(value, MutableMapping):
            _without_secrets(value)
    return data


def configure_logging(service: str, level: str | int = "info") -> None:
    """Send structlog and stdlib logging through one JSON renderer, tagged with ``service``."""
    numeric = level if isinstance(level, int) else logging.getLevelNamesMapping()[level.upper()]

    def add_service(
        _logger: Any, _method: str, event_dict: MutableMapping[str, Any]
    ) -> MutableMapping[str, Any]:
        event_dict.setdefault("service", service)
        return event_dict

    shared: list[Any] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        add_service,
        drop_secrets,
    ]
    structlog.configure(
        processors=[
            *shared,
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(sort_keys=True),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(numeric),
        logger_factory=structlog.PrintLoggerFactory(sys.stderr),
        # Each process configures once, before its first log line, so a logger may keep
        # its bound pipeline instead of rebuilding it on every call.
        cache_logger_on_first_use=True,
    )
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=shared,
            processors=[
                structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                structlog.processors.format_exc_info,
                structlog.processors.JSONRenderer(sort_keys=True),
            ],
        )
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(max(numeric, logging.INFO))


def get_logger(name: str | None = None) -> Any:
    """A structlog logger; ``name`` becomes the ``component`` key."""
    return structlog.get_logger() if name is None else structlog.get_logger(component=name)


@contextmanager
def bind(**context: Any) -> Iterator[None]:
    """Bind ``context`` (table_id, command_id, seat, version, ...) for the enclosed block."""
    tokens = structlog.contextvars.bind_contextvars(**context)
    try:
        yield
    finally:
        structlog.contextvars.reset_contextvars(**tokens)
