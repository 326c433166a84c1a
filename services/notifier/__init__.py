"""The notifier: derives notifications from the feeds (:mod:`services.notifier.derive`)
and sends apps' webhook deliveries (:mod:`services.notifier.sender`). Any number of
replicas may run: they share the feeds through a consumer group and the deliveries
through atomic claims."""

from services.notifier.derive import NOTIFIER_GROUP, Deriver, seat_changes, turn_changes
from services.notifier.sender import Sender, SenderSettings, backoff_ms

__all__ = [
    "NOTIFIER_GROUP",
    "Deriver",
    "Sender",
    "SenderSettings",
    "backoff_ms",
    "seat_changes",
    "turn_changes",
]
