"""Which webhook URLs the notifier may call: the server-side request forgery guard.

A webhook URL is chosen by an app, and the notifier calls it from inside the deployment,
so a URL naming an internal address (Redis, a metadata service, an admin port) would turn
the notifier into the app's way in. Hence:

- only ``http`` and ``https`` URLs with a host, no user or password, at most
  :data:`URL_LIMIT` characters;
- the host must not be (or, when the notifier calls it, resolve to) a loopback, private,
  link-local, multicast, reserved or unspecified address; loopback is allowed only when
  the operator says so (``BW_WEBHOOK_ALLOW_LOOPBACK``, for tests and one-machine setups);
- redirects are never followed (a 3xx is a failed attempt), so a public host cannot
  bounce the call inward.

A host that resolves to a public address at the check and to an internal one at the
connection (DNS rebinding) is not caught by the check alone: a deployment that takes apps
it does not trust also sends the notifier's traffic through an egress proxy or a network
policy that allows only public addresses.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from urllib.parse import urlsplit

__all__ = ["URL_LIMIT", "WebhookUrlRefused", "address_allowed", "check_url", "resolve_refusal"]

URL_LIMIT = 2000
_LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


class WebhookUrlRefused(ValueError):
    """The URL is not one the notifier may call; the message says why."""


def address_allowed(address: str, allow_loopback: bool) -> bool:
    """Whether the notifier may connect to the IP address ``address``."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return allow_loopback
    return ip.is_global and not ip.is_multicast


def check_url(url: str, allow_loopback: bool) -> str:
    """``url`` as it will be called, or :class:`WebhookUrlRefused`."""
    if len(url) > URL_LIMIT or not url.isprintable():
        raise WebhookUrlRefused(f"A webhook URL is at most {URL_LIMIT} printable characters.")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise WebhookUrlRefused("A webhook URL is http:// or https://.")
    if not parts.hostname:
        raise WebhookUrlRefused("A webhook URL names a host.")
    if parts.username is not None or parts.password is not None:
        raise WebhookUrlRefused("A webhook URL carries no user or password.")
    try:
        parts.port  # noqa: B018 - raises on a port that is not a number in range
    except ValueError:
        raise WebhookUrlRefused("The webhook URL's port is not a port.") from None
    host = parts.hostname.rstrip(".").lower()
    if host in _LOOPBACK_NAMES:
        if not allow_loopback:
            raise WebhookUrlRefused("A webhook URL may not name this machine (localhost).")
        return url
    try:
        allowed = address_allowed(host, allow_loopback)
    except ValueError:
        return url  # a name: checked again, resolved, before each call
    if not allowed:
        raise WebhookUrlRefused(
            "A webhook URL may not name a loopback, private or reserved address."
        )
    return url


async def resolve_refusal(url: str, allow_loopback: bool) -> str | None:
    """Why the notifier may not call ``url`` now (its host resolves to an address it may
    not reach, or not at all), or ``None`` when it may."""
    try:
        check_url(url, allow_loopback)
    except WebhookUrlRefused as refused:
        return str(refused)
    parts = urlsplit(url)
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        found = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as failed:
        return f"cannot resolve {host}: {failed}"
    for *_, sockaddr in found:
        if not address_allowed(str(sockaddr[0]), allow_loopback):
            return f"{host} resolves to {sockaddr[0]}, an address webhooks may not reach"
    return None
