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

A name is resolved once per attempt and the call goes to the very address that was
checked (:func:`pin`): the URL's host is replaced by that address, the ``Host`` header
and, for ``https``, the TLS server name (SNI and the certificate check) keep the name.
So a host that resolves to a public address at the check and to an internal one a moment
later (DNS rebinding) is still called at the public one. A deployment that takes apps it
does not trust may still send the notifier's traffic through an egress proxy or a
network policy that allows only public addresses, as a second wall.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

__all__ = ["URL_LIMIT", "Pinned", "WebhookUrlRefused", "address_allowed", "check_url", "pin"]

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


async def _addresses(host: str, port: int) -> list[str]:
    """The addresses ``host`` resolves to now (``OSError`` when it does not)."""
    found = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(sockaddr[0]) for *_, sockaddr in found]


@dataclass(frozen=True, slots=True)
class Pinned:
    """A webhook URL bound to the address that was checked: call ``url`` (its host is that
    address) with ``Host: host`` and, for ``https``, the TLS server name ``server_name``."""

    url: str
    host: str
    server_name: str | None


async def pin(url: str, allow_loopback: bool) -> Pinned | str:
    """``url`` pinned to an address the notifier may reach, or why it may not be called now
    (its host resolves to an address it may not reach, or not at all). Every address the
    name resolves to must be allowed; the call goes to the first."""
    try:
        check_url(url, allow_loopback)
    except WebhookUrlRefused as refused:
        return str(refused)
    parts = urlsplit(url)
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        addresses = await _addresses(host, port)
    except OSError as failed:
        return f"cannot resolve {host}: {failed}"
    for address in addresses:
        if not address_allowed(address, allow_loopback):
            return f"{host} resolves to {address}, an address webhooks may not reach"
    if not addresses:
        return f"cannot resolve {host}: no address"
    address = addresses[0].split("%", 1)[0]
    literal = f"[{address}]" if ":" in address else address
    netloc = f"{literal}:{parts.port}" if parts.port else literal
    named = parts.netloc.rpartition("@")[2]
    return Pinned(
        url=urlunsplit((parts.scheme, netloc, parts.path, parts.query, "")),
        host=named,
        server_name=host if parts.scheme == "https" else None,
    )
