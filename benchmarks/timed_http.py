"""The HTTP client the load generators time their commands and reads with.

aiohttp, one session with a connection per table in its pool: per request its client
costs about a third of httpx's (measured in ``bench_e2e``: 0.43-0.50 against 1.46 ms of
the load generator's CPU a command), and the load generator shares this machine with the
stack it measures. Tables are still opened with :class:`gateway.client.GatewayClient`.
"""

from __future__ import annotations

import aiohttp

__all__ = ["timed_session"]


def timed_session(url: str) -> aiohttp.ClientSession:
    """A session for ``url`` with no cap on connections and a generous timeout."""
    return aiohttp.ClientSession(
        base_url=url,
        connector=aiohttp.TCPConnector(limit=0),
        timeout=aiohttp.ClientTimeout(total=120),
    )
