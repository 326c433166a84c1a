"""Tend's bots: random (one kind of move at random, then one of its commands) and greedy."""

from __future__ import annotations

from typing import Any

from engines.core.bots import RandomBot

__all__ = ["BOTS"]

BOTS: dict[str, Any] = {"random": RandomBot}
