"""The one exception rules code raises: a command that breaks a rule."""

from __future__ import annotations

__all__ = ["RuleViolation"]


class RuleViolation(Exception):
    """A command the rules refuse.

    ``code`` is stable (clients switch on it, e.g. ``plot.not_adjacent``);
    ``message`` is written for the player. ``details`` carries plain strings only,
    and must never name another seat's secret.
    """

    def __init__(self, code: str, message: str, details: dict[str, str] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.details = dict(details or {})
