"""The scheduler: sends each table's timeouts and bots' turns when they are due.

See :mod:`services.scheduler.due` (the plans and the atomic firing) and
``python -m services.scheduler``.
"""

from services.scheduler.due import DuePlans, Fired, Pass, envelope_of

__all__ = ["DuePlans", "Fired", "Pass", "envelope_of"]
