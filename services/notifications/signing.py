"""Signing webhook deliveries: HMAC-SHA256 over the timestamp and the body.

Each attempt carries

``X-Boardwright-Timestamp``  the attempt's Unix time in seconds;
``X-Boardwright-Signature``  ``v1=`` and the hex HMAC-SHA256, keyed by the app's webhook
                             secret, of ``<timestamp>.<body>`` (the body's exact bytes).

A receiver recomputes it, compares in constant time, and refuses a timestamp older than
its tolerance, so a captured delivery cannot be replayed later (README › Webhooks has the
check in a few lines of Python).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

__all__ = [
    "DELIVERY_HEADER",
    "EVENT_HEADER",
    "SIGNATURE_HEADER",
    "TIMESTAMP_HEADER",
    "new_secret",
    "signature",
    "signed_headers",
]

TIMESTAMP_HEADER = "X-Boardwright-Timestamp"
SIGNATURE_HEADER = "X-Boardwright-Signature"
DELIVERY_HEADER = "X-Boardwright-Delivery"
EVENT_HEADER = "X-Boardwright-Event"


def new_secret() -> str:
    return f"whsec_{secrets.token_urlsafe(32)}"


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The ``X-Boardwright-Signature`` value of ``body`` sent at ``timestamp``."""
    mac = hmac.new(secret.encode(), str(timestamp).encode() + b"." + body, hashlib.sha256)
    return f"v1={mac.hexdigest()}"


def signed_headers(
    secret: str, timestamp: int, body: bytes, delivery_id: str, kind: str
) -> dict[str, str]:
    """Every header of one attempt."""
    return {
        "Content-Type": "application/json",
        "User-Agent": "Boardwright-Notifier/1",
        TIMESTAMP_HEADER: str(timestamp),
        SIGNATURE_HEADER: signature(secret, timestamp, body),
        DELIVERY_HEADER: delivery_id,
        EVENT_HEADER: kind,
    }
